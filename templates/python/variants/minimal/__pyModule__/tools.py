"""The plugin's tools. Each function marked ``@tool`` becomes a tool in manifest.json: its
docstring summary is the description, ``Args:`` describes the parameters, the type hints give
their types and the defaults their defaults. Run ``executa manifest`` after changing them.
"""

from .executa import ToolError, tool


@tool
def greet(name: str, greeting: str = "Hello") -> dict:
    """Greet someone by name.

    Args:
        name: Who to greet.
        greeting: The word to greet them with.
    """
    if not name.strip():
        raise ToolError("name must not be empty")
    return {"message": f"{greeting}, {name}!"}
