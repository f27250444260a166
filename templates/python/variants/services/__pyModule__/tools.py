"""The plugin's tools, one per host service of protocol 2.0: the host's model with structured
output, key-value storage and an agent session. Each service needs its capability in
executa.json's ``host_capabilities``; a host that did not grant it makes the call raise a
HostError, which answers the invoke with its message. Each function marked
``@tool`` becomes a tool in manifest.json. Run ``executa manifest`` after changing them.
"""

from __future__ import annotations

from typing import Literal

from .executa import HostError, ToolContext, ToolError, tool
from .executa.errors import STORAGE_PRECONDITION_FAILED

# What triage asks the model for: the host checks the answer against this JSON Schema.
TRIAGE_SCHEMA = {
    "type": "object",
    "properties": {
        "category": {"type": "string", "enum": ["bug", "question", "feature", "other"]},
        "urgency": {"type": "integer", "minimum": 1, "maximum": 5},
        "summary": {"type": "string"},
    },
    "required": ["category", "urgency", "summary"],
    "additionalProperties": False,
}


@tool(timeout=120)
def triage(message: str, *, ctx: ToolContext) -> dict:
    """Sort a support message into a category and an urgency with the host's model, as structured output.

    Args:
        message: The support message to triage.
    """
    result = ctx.host.sample(
        prompt=f"Triage this support message. Urgency runs from 1 (whenever) to 5 (now).\n\n{message}",
        max_tokens=300,
        response_format={"type": "json_schema", "json_schema": {"name": "triage", "schema": TRIAGE_SCHEMA}},
    )
    if not result["structured_valid"]:
        raise ToolError("The model's answer did not match the triage schema; try again.")
    triaged = result["parsed"]
    return {**triaged, "escalate": triaged["urgency"] >= 4}  # urgency 4 or 5: a person should look now


@tool
def tally(name: str, by: int = 1, scope: Literal["tool", "user", "app"] | None = None, *, ctx: ToolContext) -> dict:
    """Add to a named counter kept in the host's key-value storage, and return its new value.

    Args:
        name: The counter's name.
        by: How much to add (negative to subtract).
        scope: Whose counter it is: the Anna app's ("app", the host's default when not given), this plugin's ("tool"), or the user's across plugins ("user").
    """
    key = f"tally/{name}"
    for _attempt in range(3):
        current = ctx.host.storage.get(key, scope=scope)
        value = current.get("value")
        count = (value if isinstance(value, int) else 0) + by
        try:
            # if_match: write only if nobody wrote the counter since we read it.
            ctx.host.storage.set(key, count, scope=scope, if_match=current.get("etag") if current.get("exists") else None)
            return {"name": name, "count": count}
        except HostError as err:
            if err.code != STORAGE_PRECONDITION_FAILED:
                raise
    raise ToolError(f"The counter {name} kept changing while tally wrote it; try again.")


@tool(timeout=300)
def research(question: str, *, ctx: ToolContext) -> dict:
    """Answer a question in an agent session on the host, and say what the host warned about.

    Args:
        question: The question to answer.
    """
    ctx.progress({"step": 1, "of": 2, "doing": "starting an agent session"})
    session = ctx.host.agent.create(label="research", system_prompt="Answer briefly, and say what you are unsure of.")
    ctx.progress({"step": 2, "of": 2, "doing": "asking the agent"})
    run = session.run(question)
    return {"answer": run["text"], "warnings": run["warnings"]}
