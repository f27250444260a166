#!/usr/bin/env python3
"""qr-text: answers one request and exits, the way a CGI-style script would."""
import json
import sys

MANIFEST = {
    "name": "qr-text",
    "display_name": "QR Text",
    "version": "0.2.0",
    "description": "Encodes text as a QR code (ASCII art).",
    "tools": [{"name": "encode", "description": "Encode text as a QR code", "parameters": [{"name": "text", "type": "string", "description": "Text to encode", "required": True}]}],
    "runtime": {"type": "python"},
}

line = sys.stdin.readline()
request = json.loads(line)
if request.get("method") == "describe":
    response = {"jsonrpc": "2.0", "id": request.get("id"), "result": MANIFEST}
else:
    response = {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32601, "message": "Method not found"}}
print(json.dumps(response), flush=True)
