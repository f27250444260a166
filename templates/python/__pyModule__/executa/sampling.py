"""``sampling/createMessage`` and ``agent/complete``: the request, the structured-output schema
checked against the host's limits before sending, and the result with its text read out."""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypedDict

from .jsjson import json_size

# The host's limits on a json_schema response format.
SCHEMA_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
SCHEMA_MAX_BYTES = 32 * 1024
SCHEMA_MAX_DEPTH = 8  # nested subschemas, the root is level 1
SCHEMA_MAX_NODES = 512  # subschemas, the root included

# Keywords whose value is one subschema (``items`` may also be a list), a list of them, or a map of them.
_ONE = (
    "additionalProperties", "items", "not", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
    "if", "then", "else", "additionalItems",
)
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


class SamplingMessage(TypedDict):
    role: Literal["user", "assistant", "system"]
    content: dict  # {"type": "text", "text": ...}


class JsonSchemaFormat(TypedDict, total=False):
    name: str  # 1 to 64 letters, digits, _ or -
    strict: bool  # True when not given
    schema: dict


class ResponseFormat(TypedDict, total=False):
    """``{"type": "json_object"}`` or ``{"type": "json_schema", "json_schema": {name, strict, schema}}``."""

    type: Literal["json_object", "json_schema"]
    json_schema: JsonSchemaFormat


class SampleResult(TypedDict, total=False):
    """The host's completion (``role``, ``content``, ``model``, ``stopReason``, ``usage``, ``_meta``) and what the runtime reads from it."""

    role: str
    content: dict
    model: str
    stopReason: str
    usage: dict
    _meta: dict
    text: str  # content.text (a result without it is MALFORMED_RESULT)
    structured_valid: bool  # the host checked the text against the response format (_meta.responseFormat.structuredValid)
    downgraded: bool  # the host fell back to a weaker format (_meta.responseFormat.downgraded)
    parsed: Any  # the JSON value of text, when a response format was asked for and structured_valid; else None


OnUnsupported = Literal["error", "json_object", "text"]


def _subschemas(schema: dict) -> list:
    out = []
    for key in _ONE:
        value = schema.get(key)
        if isinstance(value, dict):
            out.append(value)
        elif key == "items" and isinstance(value, list):
            out.extend(v for v in value if isinstance(v, dict))
    for key in _LIST:
        value = schema.get(key)
        if isinstance(value, list):
            out.extend(v for v in value if isinstance(v, dict))
    for key in _MAP:
        value = schema.get(key)
        if isinstance(value, dict):
            out.extend(v for v in value.values() if isinstance(v, dict))
    return out


def schema_size(schema: dict) -> tuple[int, int]:
    """(depth, nodes): how deep subschemas nest (the root is level 1) and how many there are, as the host counts them."""
    depth = nodes = 0

    def walk(s: dict, level: int) -> None:
        nonlocal depth, nodes
        nodes += 1
        depth = max(depth, level)
        if level > SCHEMA_MAX_DEPTH + 1 or nodes > SCHEMA_MAX_NODES + 1:
            return
        for child in _subschemas(s):
            walk(child, level + 1)

    walk(schema, 1)
    return depth, nodes


def _checked_format(r, method: str, format) -> dict:
    """The response format as sent (``strict`` filled in); raises INVALID_REQUEST past a limit."""
    if not isinstance(format, dict):
        raise r.invalid(method, f"responseFormat must be an object {{type, ...}}, got {type(format).__name__}")
    if format.get("type") != "json_schema":
        return format
    js = format.get("json_schema")
    if not isinstance(js, dict):
        raise r.invalid(method, "responseFormat.json_schema must be an object {name, strict, schema}")
    name = js.get("name")
    if not isinstance(name, str) or not SCHEMA_NAME.fullmatch(name):
        raise r.invalid(
            method,
            f"responseFormat.json_schema.name must match ^{SCHEMA_NAME.pattern}$ (1 to 64 letters, digits, _ or -), got {json.dumps(name)}",
        )
    schema = js.get("schema")
    if not isinstance(schema, dict):
        raise r.invalid(method, "responseFormat.json_schema.schema must be a JSON Schema object")
    size = json_size(schema)
    if size > SCHEMA_MAX_BYTES:
        raise r.invalid(method, f"the schema is {size} bytes serialised; the host accepts at most {SCHEMA_MAX_BYTES}")
    depth, nodes = schema_size(schema)
    if depth > SCHEMA_MAX_DEPTH:
        raise r.invalid(method, f"the schema nests subschemas deeper than {SCHEMA_MAX_DEPTH} levels, the host's limit")
    if nodes > SCHEMA_MAX_NODES:
        raise r.invalid(method, f"the schema has more than {SCHEMA_MAX_NODES} subschemas, the host's limit")
    strict = js.get("strict")
    return {**format, "json_schema": {**js, "strict": strict if isinstance(strict, bool) else True}}


def _object(value) -> dict:
    return value if isinstance(value, dict) else {}


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def request_params(r, method: str, messages, prompt, max_tokens, optional: dict) -> dict:
    """The wire params: ``messages`` (or one user message of ``prompt``), ``maxTokens``, and each optional member that is given."""
    if messages is None:
        messages = [{"role": "user", "content": {"type": "text", "text": prompt or ""}}]
    params = {"messages": messages, "maxTokens": max_tokens}
    params.update((k, v) for k, v in optional.items() if v is not None)
    if "responseFormat" in params:
        params["responseFormat"] = _checked_format(r, method, params["responseFormat"])
    return params


def sample(r, method: str, params: dict, timeout: float | None) -> SampleResult:
    """Sends a sampling request (``sampling/createMessage`` or ``agent/complete``) and reads its result."""
    result = r.call(method, params, timeout)
    content = _object(result.get("content"))
    text = content.get("text")
    if not isinstance(text, str):
        raise r.malformed(method, "has no content.text string")
    format_meta = _object(_object(result.get("_meta")).get("responseFormat"))
    structured_valid = format_meta.get("structuredValid") is True
    parsed = None
    if "responseFormat" in params and structured_valid:
        try:
            parsed = json.loads(text, parse_constant=_no_constant)
        except ValueError:
            parsed = None
    return {
        **result,
        "content": {"type": "text", **content},
        "text": text,
        "structured_valid": structured_valid,
        "downgraded": format_meta.get("downgraded") is True,
        "parsed": parsed,
    }

