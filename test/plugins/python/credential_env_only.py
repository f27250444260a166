#!/usr/bin/env python3
"""notion-search: searches a Notion workspace (a deterministic stand-in for the API). It reads its
token from the environment only, the way a script run by hand would, never from the invoke's
context.credentials; a missing token or query is reported as success: false."""
import hashlib
import json
import os
import signal
import sys

MANIFEST = {
    "name": "notion-search",
    "display_name": "Notion Search",
    "version": "0.3.1",
    "description": "Searches pages in your Notion workspace.",
    "tools": [
        {
            "name": "search_pages",
            "description": "Search pages by title",
            "parameters": [
                {"name": "query", "type": "string", "description": "Words to look for", "required": True},
                {"name": "limit", "type": "integer", "description": "Maximum results", "required": False, "default": 5},
            ],
        }
    ],
    "credentials": [
        {"name": "NOTION_TOKEN", "display_name": "Notion integration token", "description": "Create one at https://www.notion.so/my-integrations", "required": True, "sensitive": True}
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}


def search_pages(args):
    token = os.environ.get("NOTION_TOKEN")
    if not token:
        return {"success": False, "error": "NOTION_TOKEN is not set"}
    query = args.get("query")
    if not query:
        return {"success": False, "error": "query is required"}
    limit = args.get("limit", 5)
    workspace = hashlib.sha256(token.encode()).hexdigest()[:8]
    pages = [{"title": f"{query} notes {i + 1}", "url": f"https://notion.so/{workspace}/{i + 1}"} for i in range(max(0, min(int(limit), 20)))]
    return {"success": True, "data": {"workspace": workspace, "pages": pages}}


def respond(rid, **body):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, **body}) + "\n")
    sys.stdout.flush()


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            respond(None, error={"code": -32700, "message": "Parse error"})
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
            respond(None, error={"code": -32600, "message": "Invalid Request"})
            continue
        if "id" not in msg:
            continue
        rid, method, params = msg["id"], msg["method"], msg.get("params") or {}
        if method == "describe":
            respond(rid, result=MANIFEST)
        elif method == "health":
            respond(rid, result={"status": "ready", "message": "", "details": {}})
        elif method == "invoke":
            if params.get("tool") != "search_pages":
                respond(rid, error={"code": -32601, "message": f"Unknown tool: {params.get('tool')}"})
                continue
            try:
                respond(rid, result=search_pages(params.get("arguments") or {}))
            except (TypeError, ValueError) as e:
                respond(rid, error={"code": -32602, "message": f"Invalid params: {e}"})
        else:
            respond(rid, error={"code": -32601, "message": "Method not found"})


if __name__ == "__main__":
    main()
