#!/usr/bin/env python3
"""Example Text Tool: an Executa plugin written like the public Python basic example.

stdin:  JSON-RPC requests, one per line
stdout: JSON-RPC responses, one per line (large ones through a temp file)
stderr: logs
"""
import json
import os
import sys
import tempfile
import time

MAX_STDIO_MESSAGE_BYTES = 512 * 1024

MANIFEST = {
    "name": "example-text-tool",
    "display_name": "Example Text Tool",
    "version": "1.0.0",
    "description": "Text processing: slugify, base64 and statistics.",
    "author": "Anna Developer",
    "tools": [
        {
            "name": "slugify",
            "description": "Turn a title into a URL slug",
            "parameters": [
                {"name": "text", "type": "string", "description": "The title", "required": True},
                {"name": "separator", "type": "string", "description": "Separator character", "required": False, "default": "-"},
            ],
        },
        {
            "name": "text_stats",
            "description": "Count characters, words and lines",
            "parameters": [{"name": "text", "type": "string", "description": "The text", "required": True}],
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}


def slugify(text: str, separator: str = "-") -> dict:
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return {"slug": separator.join(words), "original": text}


def text_stats(text: str) -> dict:
    return {"characters": len(text), "words": len(text.split()), "lines": len(text.splitlines()) or 1}


TOOL_DISPATCH = {"slugify": slugify, "text_stats": text_stats}


def handle_describe(request_id):
    return {"jsonrpc": "2.0", "id": request_id, "result": MANIFEST}


def handle_invoke(request_id, params):
    tool_name = params.get("tool")
    arguments = params.get("arguments", {})
    if not tool_name:
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "Missing 'tool' in params"}}
    fn = TOOL_DISPATCH.get(tool_name)
    if fn is None:
        return {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32601, "message": f"Unknown tool: {tool_name}", "data": {"available_tools": list(TOOL_DISPATCH)}},
        }
    try:
        result = fn(**arguments)
        return {"jsonrpc": "2.0", "id": request_id, "result": {"success": True, "data": result, "tool": tool_name}}
    except TypeError as e:
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"Invalid parameters: {e}"}}
    except Exception as e:  # noqa: BLE001
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": f"Tool execution failed: {e}"}}


def handle_health(request_id):
    return {"jsonrpc": "2.0", "id": request_id, "result": {"status": "ready", "message": "", "details": {"tools": len(MANIFEST["tools"])}}}


def handle_request(request: dict) -> dict:
    method = request.get("method")
    request_id = request.get("id")
    params = request.get("params", {})
    if method == "describe":
        return handle_describe(request_id)
    if method == "invoke":
        return handle_invoke(request_id, params)
    if method == "health":
        return handle_health(request_id)
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"Method not found: {method}"}}


def send_response(response: dict) -> None:
    """Send a response; above 512 KiB write it to a temp file and send only its path."""
    data = json.dumps(response, ensure_ascii=False)
    if len(data.encode("utf-8")) > MAX_STDIO_MESSAGE_BYTES:
        fd, path = tempfile.mkstemp(prefix="executa-resp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        print(f"📦 large response ({len(data)} bytes) via {path}", file=sys.stderr)
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": response.get("id"), "__file_transport": path}) + "\n")
    else:
        sys.stdout.write(data + "\n")
    sys.stdout.flush()


def main():
    print(f"🔌 {MANIFEST['display_name']} started (pid {os.getpid()}, {time.strftime('%H:%M:%S')})", file=sys.stderr)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError:
            send_response({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        response = handle_request(request)
        send_response(response)


if __name__ == "__main__":
    main()
