#!/usr/bin/env python3
"""negotiated_only.py: drafts a reply with the host's LLM (protocol 2.0 sampling).

Written like the runtimes before issue 19: host services stay off until an initialize negotiates
protocol 2.0, so under a host that never sends initialize (Anna's local-dev runtime) every tool
answers NOT_NEGOTIATED without asking the host. Its progress habits are sloppy too: the invoke id
in its notifications is the JSON-RPC request id, its data a bare string, and a last "done" goes
out after the response.
"""
from __future__ import annotations

import json
import signal
import sys
import threading
import uuid

MANIFEST = {
    "name": "negotiated-only",
    "display_name": "Reply Drafter",
    "version": "0.3.0",
    "description": "Drafts a short reply to a message with the host's model.",
    "host_capabilities": ["llm.sample"],
    "tools": [
        {
            "name": "draft_reply",
            "description": "Draft a short, polite reply to a message.",
            "parameters": [{"name": "message", "type": "string", "description": "The message to answer", "required": True}],
        }
    ],
}

lock = threading.Lock()
negotiated = False
waiting: dict[str, dict] = {}
workers: list[threading.Thread] = []
state = threading.Lock()
closed = False


def write(msg: dict) -> None:
    with lock:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()


def progress(request_id, data) -> None:
    write({"jsonrpc": "2.0", "method": "executa/progress", "params": {"context": {"invoke_id": str(request_id)}, "type": "progress", "data": data}})


def sample(prompt: str, invoke_id: str) -> str:
    if not negotiated:
        raise RuntimeError("NOT_NEGOTIATED: sampling/createMessage needs Executa protocol 2.0, and this host did not negotiate it")
    rid = str(uuid.uuid4())
    slot = {"event": threading.Event()}
    with state:
        if closed:
            raise RuntimeError("the host closed stdin")
        waiting[rid] = slot
    write({"jsonrpc": "2.0", "id": rid, "method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 200, "context": {"invoke_id": invoke_id}}})
    slot["event"].wait(60)
    answer = slot.get("answer") or {}
    if "error" in answer:
        raise RuntimeError(answer["error"].get("message", "sampling failed"))
    return answer.get("result", {}).get("content", {}).get("text", "")


def invoke(request_id, params: dict) -> None:
    if params.get("tool") != "draft_reply":
        return write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "unknown tool"}})
    message = (params.get("arguments") or {}).get("message")
    if not isinstance(message, str):
        return write({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "message is required"}})
    progress(request_id, "drafting")
    try:
        text = sample(f"Draft a short reply to: {message}", (params.get("context") or {}).get("invoke_id", ""))
        write({"jsonrpc": "2.0", "id": request_id, "result": {"success": True, "data": {"reply": text}}})
    except RuntimeError as e:
        write({"jsonrpc": "2.0", "id": request_id, "result": {"success": False, "error": str(e)}})
    progress(request_id, {"done": True})


def handle(msg: dict) -> None:
    global negotiated
    method, rid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if method is None:
        slot = waiting.pop(rid, None)
        if slot:
            slot["answer"] = msg
            slot["event"].set()
        return
    if rid is None:
        return
    if method == "initialize":
        negotiated = params.get("protocolVersion") == "2.0"
        return write({"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": "2.0" if negotiated else "1.1", "client_capabilities": {"sampling": {}} if negotiated else {}}})
    if method == "describe":
        return write({"jsonrpc": "2.0", "id": rid, "result": MANIFEST})
    if method == "health":
        return write({"jsonrpc": "2.0", "id": rid, "result": {"status": "ready"}})
    if method == "invoke":
        worker = threading.Thread(target=invoke, args=(rid, params), daemon=True)
        workers.append(worker)
        return worker.start()
    write({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}})


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            continue
        if not isinstance(msg, dict):
            write({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            continue
        handle(msg)
    # stdin closed: no host answer can come any more; let every invoke answer before exiting.
    global closed
    with state:
        closed = True
        for slot in waiting.values():
            slot["answer"] = {"error": {"message": "the host closed stdin before it answered"}}
            slot["event"].set()
    for worker in workers:
        worker.join(5)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    main()
