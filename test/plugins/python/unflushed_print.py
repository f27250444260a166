#!/usr/bin/env python3
"""timezone-tool: converts times between zones. Right on paper, but it answers with print()
and never flushes: on a pipe Python buffers stdout in 8 KiB blocks, so the answers sit in the
buffer until the process exits."""
import json
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

MANIFEST = {
    "name": "timezone-tool",
    "display_name": "Timezone Tool",
    "version": "1.0.0",
    "description": "Converts a time from one time zone to another.",
    "tools": [
        {
            "name": "convert_time",
            "description": "Convert an ISO time between IANA time zones",
            "parameters": [
                {"name": "time", "type": "string", "description": "ISO 8601 time, e.g. 2026-03-01T09:00", "required": True},
                {"name": "from_zone", "type": "string", "description": "IANA zone of the input", "required": False, "default": "UTC"},
                {"name": "to_zone", "type": "string", "description": "IANA zone of the output", "required": False, "default": "Europe/Berlin"},
            ],
        }
    ],
    "runtime": {"type": "python"},
}


def convert(args):
    moment = datetime.fromisoformat(args["time"]).replace(tzinfo=ZoneInfo(args.get("from_zone", "UTC")))
    return {"time": moment.astimezone(ZoneInfo(args.get("to_zone", "Europe/Berlin"))).isoformat()}


for line in sys.stdin:
    if not line.strip():
        continue
    try:
        req = json.loads(line)
    except ValueError:
        print(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}))
        continue
    if not isinstance(req, dict):
        print(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}))
        continue
    if "id" not in req:
        continue
    method = req.get("method")
    if method == "describe":
        out = {"result": MANIFEST}
    elif method == "health":
        out = {"result": {"status": "ready", "message": "", "details": {}}}
    elif method == "invoke" and (req.get("params") or {}).get("tool") == "convert_time":
        try:
            out = {"result": {"success": True, "data": convert(req["params"].get("arguments") or {})}}
        except KeyError as e:
            out = {"error": {"code": -32602, "message": f"missing argument {e}"}}
        except ValueError as e:
            out = {"result": {"success": False, "error": str(e)}}
    elif method == "invoke":
        out = {"error": {"code": -32601, "message": "Unknown tool"}}
    else:
        out = {"error": {"code": -32601, "message": "Method not found"}}
    print(json.dumps({"jsonrpc": "2.0", "id": req["id"], **out}))
