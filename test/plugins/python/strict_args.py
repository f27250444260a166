#!/usr/bin/env python3
"""unit-converter: converts lengths, masses and temperatures. Right in unusual ways: the manifest
has no name (the host knows the plugin by its tool_id), and arguments are checked strictly
against the manifest: missing, mistyped and undeclared arguments all get -32602 with a list of
the problems."""
import json
import signal
import sys

MANIFEST = {
    "display_name": "Unit Converter",
    "version": "2.0.0",
    "description": "Converts between metric and imperial units.",
    "author": "units.dev",
    "tools": [
        {
            "name": "convert_length",
            "description": "Convert a length",
            "parameters": [
                {"name": "value", "type": "number", "description": "The length", "required": True},
                {"name": "from_unit", "type": "string", "description": "Unit of the value", "required": True, "enum": ["m", "km", "mi", "ft", "in"]},
                {"name": "to_unit", "type": "string", "description": "Unit of the result", "required": True, "enum": ["m", "km", "mi", "ft", "in"]},
            ],
        },
        {
            "name": "convert_temperature",
            "description": "Convert a temperature",
            "parameters": [
                {"name": "value", "type": "number", "description": "The temperature", "required": True},
                {"name": "scale", "type": "string", "description": "C to F, or F to C", "required": False, "default": "C", "enum": ["C", "F"]},
                {"name": "precision", "type": "integer", "description": "Decimals in the answer", "required": False, "default": 1},
            ],
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

METERS = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}
TYPES = {"string": str, "number": (int, float), "integer": int, "boolean": bool, "array": list, "object": dict}


def problems_with(tool, args):
    declared = {p["name"]: p for p in tool["parameters"]}
    problems = [{"name": k, "problem": "not a parameter of this tool"} for k in args if k not in declared]
    for name, p in declared.items():
        if name not in args:
            if p.get("required", True):
                problems.append({"name": name, "problem": "missing"})
            continue
        value = args[name]
        if isinstance(value, bool) and p["type"] != "boolean" or not isinstance(value, TYPES[p["type"]]):
            problems.append({"name": name, "problem": f"expected {p['type']}"})
        elif "enum" in p and value not in p["enum"]:
            problems.append({"name": name, "problem": f"one of {', '.join(p['enum'])}"})
    return problems


def convert_length(value, from_unit, to_unit):
    return {"value": value * METERS[from_unit] / METERS[to_unit], "unit": to_unit}


def convert_temperature(value, scale="C", precision=1):
    result = value * 9 / 5 + 32 if scale == "C" else (value - 32) * 5 / 9
    return {"value": round(result, precision), "scale": "F" if scale == "C" else "C"}


IMPLEMENTATIONS = {"convert_length": convert_length, "convert_temperature": convert_temperature}


def invoke(rid, params):
    tool = next((t for t in MANIFEST["tools"] if t["name"] == params.get("tool")), None)
    if tool is None:
        return {"id": rid, "error": {"code": -32601, "message": f"Unknown tool: {params.get('tool')}"}}
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        return {"id": rid, "error": {"code": -32602, "message": "arguments must be an object"}}
    problems = problems_with(tool, args)
    if problems:
        return {"id": rid, "error": {"code": -32602, "message": "Invalid params", "data": {"problems": problems}}}
    return {"id": rid, "result": {"success": True, "data": IMPLEMENTATIONS[tool["name"]](**args)}}


def answer(msg):
    if not isinstance(msg, dict):
        return {"id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    if "id" not in msg:
        return None
    rid = msg["id"]
    if msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
        return {"id": rid, "error": {"code": -32600, "message": "Invalid Request"}}
    method = msg["method"]
    if method == "describe":
        return {"id": rid, "result": MANIFEST}
    if method == "health":
        return {"id": rid, "result": {"status": "ready", "message": "", "details": {}}}
    if method == "invoke":
        return invoke(rid, msg.get("params") or {})
    return {"id": rid, "error": {"code": -32601, "message": "Method not found"}}


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except ValueError:
            reply = {"id": None, "error": {"code": -32700, "message": "Parse error"}}
        if reply is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", **reply}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
