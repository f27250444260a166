#!/usr/bin/env python3
"""storage-notebook: a notebook kept in the host's key-value storage (user scope, if_match,
ttl_seconds). Like the public storage-notebook example it answers initialize with "2.0" whatever
the host offers and puts its storage capability under `capabilities`; unlike it, every host call
echoes the invoke's context.invoke_id, and host calls still waiting at EOF are failed."""
import json
import os
import sys
import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

MANIFEST = {
    "name": "storage-notebook",
    "display_name": "Storage Notebook",
    "version": "0.2.0",
    "description": "A notebook that keeps pages in your Anna storage.",
    "host_capabilities": ["aps.kv"],
    "tools": [
        {
            "name": "write_page",
            "description": "Write a page of the notebook",
            "parameters": [
                {"name": "page", "type": "string", "description": "Page name", "required": True},
                {"name": "text", "type": "string", "description": "Page text", "required": True},
                {"name": "scratch", "type": "boolean", "description": "Scratch pages expire after an hour", "required": False, "default": False},
            ],
        },
        {
            "name": "read_page",
            "description": "Read a page of the notebook",
            "parameters": [{"name": "page", "type": "string", "description": "Page name", "required": True}],
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

_out = threading.Lock()
_pending: dict[str, Future] = {}
_pending_lock = threading.Lock()
_closed = threading.Event()


class HostError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def write(obj):
    with _out:
        sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def host(method, params, invoke_id, timeout=30.0):
    if _closed.is_set():
        raise HostError(-32603, "the host closed stdin")
    rid = uuid.uuid4().hex
    fut: Future = Future()
    with _pending_lock:
        _pending[rid] = fut
    if _closed.is_set():
        raise HostError(-32603, "the host closed stdin")
    write({"jsonrpc": "2.0", "id": rid, "method": method, "params": {**params, "context": {"invoke_id": invoke_id}}})
    try:
        return fut.result(timeout=timeout)
    finally:
        with _pending_lock:
            _pending.pop(rid, None)


def write_page(args, invoke_id):
    key = f"page:{args['page']}"
    current = host("storage/get", {"key": key, "scope": "user"}, invoke_id)
    params = {"key": key, "value": {"text": args["text"]}, "scope": "user"}
    if current.get("exists"):
        params["if_match"] = current.get("etag")
    if args.get("scratch"):
        params["ttl_seconds"] = 3600
    saved = host("storage/set", params, invoke_id)
    return {"page": args["page"], "etag": saved.get("etag"), "size_bytes": saved.get("size_bytes")}


def read_page(args, invoke_id):
    found = host("storage/get", {"key": f"page:{args['page']}", "scope": "user"}, invoke_id)
    return {"page": args["page"], "exists": bool(found.get("exists")), "text": (found.get("value") or {}).get("text")}


TOOLS = {"write_page": write_page, "read_page": read_page}


def invoke(rid, params):
    name = params.get("tool")
    tool = next((t for t in MANIFEST["tools"] if t["name"] == name), None)
    if tool is None:
        return write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Unknown tool: {name}"}})
    args = params.get("arguments") or {}
    missing = [p["name"] for p in tool["parameters"] if p.get("required") and p["name"] not in args]
    if missing:
        return write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": f"missing: {', '.join(missing)}"}})
    invoke_id = (params.get("context") or {}).get("invoke_id") or params.get("invoke_id") or ""
    try:
        data = TOOLS[name](args, invoke_id)
        write({"jsonrpc": "2.0", "id": rid, "result": {"success": True, "data": data}})
    except HostError as e:
        write({"jsonrpc": "2.0", "id": rid, "result": {"success": False, "error": f"storage: {e} ({e.code})"}})
    except Exception as e:  # noqa: BLE001
        write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": f"Tool execution failed: {e}"}})


def handle(msg):
    rid = msg.get("id")
    method = msg.get("method")
    params = msg.get("params") or {}
    if method == "initialize":
        write({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": "2.0",
            "serverInfo": {"name": MANIFEST["display_name"], "version": MANIFEST["version"]},
            "capabilities": {"storage": {"kv": True}},
        }})
    elif method == "describe":
        write({"jsonrpc": "2.0", "id": rid, "result": MANIFEST})
    elif method == "health":
        write({"jsonrpc": "2.0", "id": rid, "result": {"status": "ready", "message": "", "details": {}}})
    elif method == "invoke":
        invoke(rid, params)
    else:
        write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})


def main():
    pool = ThreadPoolExecutor(max_workers=8)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(msg, dict):
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        if "method" not in msg:
            with _pending_lock:
                fut = _pending.get(msg.get("id"))
            if fut is not None:
                err = msg.get("error")
                if err:
                    fut.set_exception(HostError(err.get("code"), err.get("message")))
                else:
                    fut.set_result(msg.get("result") or {})
            continue
        if msg.get("id") is None:
            continue
        pool.submit(handle, msg)
    _closed.set()
    with _pending_lock:
        for fut in _pending.values():
            if not fut.done():
                fut.set_exception(HostError(-32603, "the host closed stdin"))
    pool.shutdown(wait=True)


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    main()
