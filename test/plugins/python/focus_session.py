#!/usr/bin/env python3
"""focus-session: a pomodoro timer, written like the public focus-session app executa: every
handler exception (an unknown tool or a missing argument included) becomes -32000, expected
failures are success: false, health says "ok", and lines that are not JSON are skipped."""
import json
import sys
import threading
import time
import uuid

MANIFEST = {
    "name": "focus-session",
    "display_name": "Focus Session",
    "version": "0.4.0",
    "description": "Start, inspect and stop focus sessions (pomodoro timer).",
    "author": "Focus Flow",
    "homepage": "https://example.com/focus-flow",
    "license": "MIT",
    "tags": ["productivity", "focus", "pomodoro"],
    "tools": [
        {
            "name": "start_session",
            "description": "Start a focus session",
            "parameters": [
                {"name": "minutes", "type": "integer", "description": "Length in minutes", "required": True},
                {"name": "label", "type": "string", "description": "What you focus on", "required": False, "default": "focus"},
            ],
        },
        {
            "name": "session_status",
            "description": "Status of a session",
            "parameters": [{"name": "session_id", "type": "string", "description": "The id start_session returned", "required": True}],
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

SESSIONS = {}
LOCK = threading.Lock()


def start_session(args):
    minutes = int(args["minutes"])
    if minutes <= 0 or minutes > 240:
        return {"success": False, "error": "minutes must be between 1 and 240"}
    sid = uuid.uuid4().hex[:12]
    with LOCK:
        SESSIONS[sid] = {"label": args.get("label", "focus"), "ends_at": time.time() + minutes * 60}
    return {"success": True, "data": {"session_id": sid, "minutes": minutes}}


def session_status(args):
    with LOCK:
        session = SESSIONS.get(args["session_id"])
    if session is None:
        return {"success": False, "error": "no such session"}
    return {"success": True, "data": {"label": session["label"], "remaining_s": max(0, int(session["ends_at"] - time.time()))}}


TOOLS = {"start_session": start_session, "session_status": session_status}


def handle_invoke(params):
    return TOOLS[params["tool"]](params["arguments"])


HANDLERS = {
    "describe": lambda params: MANIFEST,
    "health": lambda params: {"status": "ok", "sessions": len(SESSIONS)},
    "invoke": handle_invoke,
}


def write(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(msg, dict):
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        rid = msg.get("id")
        handler = HANDLERS.get(msg.get("method"))
        if rid is None:
            continue
        if handler is None:
            write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})
            continue
        try:
            write({"jsonrpc": "2.0", "id": rid, "result": handler(msg.get("params") or {})})
        except Exception as exc:  # noqa: BLE001
            write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": f"{type(exc).__name__}: {exc}"}})


if __name__ == "__main__":
    main()
