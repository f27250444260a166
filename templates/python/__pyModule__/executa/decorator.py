"""The ``@tool`` mark. It only records the tool's name and timeout on the function.

``executa manifest`` reads the decorators, type hints and docstrings from the source (statically)
to write manifest.json and executa_bindings.py; at run time nothing here is needed.
"""

from __future__ import annotations


def tool(fn=None, *, name: str | None = None, timeout: int | None = None):
    """Marks a function as a tool: ``@tool``, ``@tool(timeout=10)`` or ``@tool(name="other_name")``.

    Returns the function itself, unchanged apart from an ``__executa_tool__`` attribute.

    Args:
        fn: The function (when used as a bare ``@tool``).
        name: The tool's name in the manifest; the function's name by default.
        timeout: The tool's timeout in seconds; 60 by default.
    """

    def mark(f):
        f.__executa_tool__ = {"name": name or f.__name__, "timeout": timeout}
        return f

    return mark(fn) if fn is not None else mark
