#!/usr/bin/env python3
"""layout-tool: describes the layout of the folder it runs in. Like the public multi-file
plugin.py, its invoke answers are the bare tool output (no {success, data} envelope), and lines
it cannot parse are skipped without an answer."""
import json
import os
import signal
import sys

MANIFEST = {
    "name": "layout-tool",
    "display_name": "Layout Tool",
    "version": "1.0.0",
    "description": "Reports the files and folders next to the plugin.",
    "tools": [
        {
            "name": "describe_layout",
            "description": "List the entries of a folder under the plugin's home",
            "parameters": [{"name": "subdir", "type": "string", "description": "Sub-folder to list", "required": False, "default": "."}],
        }
    ],
    "runtime": {"type": "binary"},
}

HOME = os.path.dirname(os.path.abspath(__file__))


def describe_layout(subdir="."):
    target = os.path.normpath(os.path.join(HOME, subdir))
    if not target.startswith(HOME):
        raise ValueError("subdir must stay inside the plugin folder")
    entries = sorted(os.listdir(target))
    return {"folder": os.path.relpath(target, HOME), "entries": entries[:50], "count": len(entries)}


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def handle(req):
    rid = req.get("id")
    method = req.get("method")
    params = req.get("params") or {}
    if method == "describe":
        return {"jsonrpc": "2.0", "id": rid, "result": MANIFEST}
    if method == "health":
        return {"jsonrpc": "2.0", "id": rid, "result": {"status": "ready", "message": "", "details": {}}}
    if method == "invoke":
        if params.get("tool") != "describe_layout":
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"unknown tool {params.get('tool')!r}"}}
        args = params.get("arguments") or {}
        subdir = args.get("subdir", ".")
        if not isinstance(subdir, str):
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "subdir must be a string"}}
        try:
            return {"jsonrpc": "2.0", "id": rid, "result": describe_layout(subdir)}
        except (OSError, ValueError) as e:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": str(e)}}
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}}


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(req, dict):
            reply({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        if "id" not in req:
            continue
        reply(handle(req))


if __name__ == "__main__":
    main()
