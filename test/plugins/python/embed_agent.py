#!/usr/bin/env python3
"""research-kit: uses the host's models through every LLM service of protocol 2.0:
embeddings/create, agent sessions (create, run, history, list, refresh, cancel, delete),
agent/complete, and sampling/createMessage with a JSON-schema responseFormat. Each host call
carries the invoke's context.invoke_id; a host refusal is passed on as the invoke's JSON-RPC
error (as the public v2 examples do)."""
import json
import math
import os
import signal
import sys
import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor

MANIFEST = {
    "name": "research-kit",
    "display_name": "Research Kit",
    "version": "0.5.0",
    "description": "Word similarity, agent research runs, quick answers and contact extraction with the host's models.",
    "author": "Anna Developer",
    "host_capabilities": ["llm.embed", "llm.agent.auto", "llm.sample"],
    "tools": [
        {
            "name": "similar_words",
            "description": "How similar the first word is to each of the others (cosine of embeddings)",
            "parameters": [{"name": "words", "type": "array", "items": {"type": "string"}, "description": "Words to compare with the first one", "required": True}],
        },
        {
            "name": "research",
            "description": "Run an agent session on a question and return its answer",
            "parameters": [{"name": "question", "type": "string", "description": "The question", "required": True}],
        },
        {
            "name": "quick_answer",
            "description": "A one-shot completion without tools",
            "parameters": [{"name": "question", "type": "string", "description": "The question", "required": True}],
        },
        {
            "name": "extract_contact",
            "description": "Extract a name and an email address from text, as structured JSON",
            "parameters": [{"name": "text", "type": "string", "description": "Text mentioning a person", "required": True}],
        },
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

_write_lock = threading.Lock()
_pending: dict[str, Future] = {}
_lock = threading.Lock()
_closed = threading.Event()
_v2 = threading.Event()


class HostError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.data = code, data


def write(frame):
    with _write_lock:
        sys.stdout.write(json.dumps(frame, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def host(method, params, invoke_id, timeout=60.0):
    if not _v2.is_set():
        raise HostError(-32008, f"{method} needs Executa protocol 2.0")
    rid = uuid.uuid4().hex
    fut: Future = Future()
    with _lock:
        _pending[rid] = fut
    if _closed.is_set():
        raise HostError(-32603, "the host closed stdin")
    write({"jsonrpc": "2.0", "id": rid, "method": method, "params": {**params, "context": {"invoke_id": invoke_id}}})
    try:
        return fut.result(timeout=timeout)
    finally:
        with _lock:
            _pending.pop(rid, None)


def similar_words(args, inv):
    words = args["words"]
    if not words:
        return {"success": False, "error": "give at least one word"}
    reply = host("embeddings/create", {"input": words}, inv)
    vectors = [item["embedding"] for item in sorted(reply["data"], key=lambda d: d["index"])]

    def cosine(a, b):
        dot = sum(x * y for x, y in zip(a, b))
        norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
        return dot / norm if norm else 0.0

    others = list(zip(words, vectors))[1:] or [(words[0], vectors[0])]
    return {"success": True, "data": {"model": reply.get("model"), "similarity": {w: round(cosine(vectors[0], v), 4) for w, v in others}}}


def research(args, inv):
    session = host("agent/session.create", {"kind": "agent", "agent_submode": "auto", "label": "research-kit", "ttl_seconds": 600}, inv)
    sid = session["app_session_uuid"]
    try:
        run = host("agent/session.run", {"app_session_uuid": sid, "content": args["question"], "recursion_limit": 8}, inv, timeout=300)
        frames = run.get("frames") or []
        if not frames or frames[0].get("event") != "run_meta":
            return {"success": False, "error": "the run did not start with a run_meta frame"}
        text = "".join(f.get("text") or "" for f in frames if f.get("event") in ("token", "delta", "message"))
        final = next((f.get("text") for f in frames if f.get("event") == "final" and f.get("text")), None)
        history = host("agent/session.history", {"app_session_uuid": sid}, inv)
        listed = host("agent/session.list", {"include_expired": False, "limit": 10}, inv)
        host("agent/session.refresh", {"app_session_uuid": sid, "ttl_seconds": 600}, inv)
        host("agent/session.cancel", {"app_session_uuid": sid, "run_id": run.get("run_id")}, inv)
        return {"success": True, "data": {
            "answer": final or text,
            "frames": len(frames),
            "history_messages": len(history.get("messages") or []),
            "open_sessions": len(listed.get("sessions") or []),
        }}
    finally:
        host("agent/session.delete", {"app_session_uuid": sid}, inv)


def quick_answer(args, inv):
    reply = host("agent/complete", {"messages": [{"role": "user", "content": {"type": "text", "text": args["question"]}}], "maxTokens": 256}, inv)
    return {"success": True, "data": {"answer": (reply.get("content") or {}).get("text", ""), "model": reply.get("model")}}


CONTACT_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
    "required": ["name", "email"],
    "additionalProperties": False,
}


def extract_contact(args, inv):
    reply = host("sampling/createMessage", {
        "messages": [{"role": "user", "content": {"type": "text", "text": f"Extract the contact from:\n{args['text']}"}}],
        "maxTokens": 200,
        "temperature": 0,
        "responseFormat": {"type": "json_schema", "json_schema": {"name": "contact", "strict": True, "schema": CONTACT_SCHEMA}},
        "onUnsupported": "json_object",
    }, inv)
    meta = (reply.get("_meta") or {}).get("responseFormat") or {}
    try:
        contact = json.loads((reply.get("content") or {}).get("text", ""))
    except ValueError:
        return {"success": False, "error": "the model did not answer with JSON"}
    return {"success": True, "data": {"contact": contact, "structured_valid": meta.get("structuredValid"), "downgraded": meta.get("downgraded")}}


TOOLS = {"similar_words": similar_words, "research": research, "quick_answer": quick_answer, "extract_contact": extract_contact}


def check(tool, args):
    if not isinstance(args, dict):
        return "arguments must be an object"
    for p in tool["parameters"]:
        if p["name"] not in args:
            return f"missing argument '{p['name']}'"
        value = args[p["name"]]
        if p["type"] == "string" and not isinstance(value, str):
            return f"'{p['name']}' must be a string"
        if p["type"] == "array" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            return f"'{p['name']}' must be a list of strings"
    return None


def handle(msg):
    rid, method, params = msg.get("id"), msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        if offered == "2.0":
            _v2.set()
        else:
            _v2.clear()
        return write({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": "2.0" if offered == "2.0" else "1.1",
            "serverInfo": {"name": MANIFEST["display_name"], "version": MANIFEST["version"]},
            "client_capabilities": {"embeddings": {}, "agent": {"submodes": ["auto"]}, "sampling": {}} if offered == "2.0" else {},
            "capabilities": {},
        }})
    if method == "describe":
        return write({"jsonrpc": "2.0", "id": rid, "result": MANIFEST})
    if method == "health":
        return write({"jsonrpc": "2.0", "id": rid, "result": {"status": "ready", "message": "", "details": {}}})
    if method != "invoke":
        return write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})
    tool = next((t for t in MANIFEST["tools"] if t["name"] == params.get("tool")), None)
    if tool is None:
        return write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Unknown tool: {params.get('tool')}"}})
    args = params.get("arguments", {})
    problem = check(tool, args)
    if problem:
        return write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": problem}})
    inv = (params.get("context") or {}).get("invoke_id") or params.get("invoke_id") or ""
    try:
        write({"jsonrpc": "2.0", "id": rid, "result": TOOLS[tool["name"]](args, inv)})
    except HostError as e:
        write({"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e), **({"data": e.data} if e.data is not None else {})}})
    except Exception as e:  # noqa: BLE001
        write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": f"Tool execution failed: {e}"}})


def main():
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="invoke")
    for line in sys.stdin:
        if not line.strip():
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
            with _lock:
                fut = _pending.get(msg.get("id"))
            if fut is not None and not fut.done():
                if msg.get("error"):
                    e = msg["error"]
                    fut.set_exception(HostError(e.get("code"), e.get("message"), e.get("data")))
                else:
                    fut.set_result(msg.get("result") or {})
            continue
        if "id" not in msg:
            continue
        pool.submit(handle, msg)
    _closed.set()
    with _lock:
        for fut in _pending.values():
            if not fut.done():
                fut.set_exception(HostError(-32603, "the host closed stdin"))
    pool.shutdown(wait=True)


if __name__ == "__main__":
    main()
