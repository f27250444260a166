#!/usr/bin/env python3
"""search-index (hostile in effect): a v1 plugin that starts a background helper process at
startup without redirecting its stdout, so the helper (here `sleep 120`) holds the protocol pipe
open after the plugin itself has exited. Otherwise a careful plugin. It writes the helper's pid
to CORPUS_PID_DIR so a test can see that the host ended it."""
import json
import os
import signal
import subprocess
import sys

MANIFEST = {
    "name": "search-index",
    "display_name": "Search Index",
    "version": "0.7.0",
    "description": "Full-text search over local documents.",
    "tools": [
        {
            "name": "search",
            "description": "Search the index",
            "parameters": [{"name": "query", "type": "string", "description": "Words to find", "required": True}],
        }
    ],
    "runtime": {"type": "python"},
}

helper = subprocess.Popen(["sleep", "120"], stdin=subprocess.DEVNULL)
pid_dir = os.environ.get("CORPUS_PID_DIR")
if pid_dir and os.path.isdir(pid_dir):
    with open(os.path.join(pid_dir, f"indexer-{os.getpid()}"), "w") as f:
        f.write(str(helper.pid))


def send(obj):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **obj}) + "\n")
    sys.stdout.flush()


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            send({"id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(msg, dict):
            send({"id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        if "id" not in msg:
            continue
        rid, method, params = msg["id"], msg.get("method"), msg.get("params") or {}
        if method == "describe":
            send({"id": rid, "result": MANIFEST})
        elif method == "health":
            send({"id": rid, "result": {"status": "ready", "message": "", "details": {"indexer_pid": helper.pid}}})
        elif method == "invoke" and params.get("tool") == "search":
            query = (params.get("arguments") or {}).get("query")
            if not isinstance(query, str):
                send({"id": rid, "error": {"code": -32602, "message": "query (string) is required"}})
            else:
                send({"id": rid, "result": {"success": True, "data": {"query": query, "hits": []}}})
        elif method == "invoke":
            send({"id": rid, "error": {"code": -32601, "message": "Unknown tool"}})
        else:
            send({"id": rid, "error": {"code": -32601, "message": "Method not found"}})


if __name__ == "__main__":
    main()
