#!/usr/bin/env python3
"""sampling_threadpool.py: summarizes text with the host's LLM (protocol 2.0 sampling).

Written like the public sampling example, with the sampling client inlined: every stdin line is
handed to a ThreadPoolExecutor, sampling runs on an asyncio loop in its own thread, and the invoke
id is read from params.invoke_id and sent back only in metadata.executa_invoke_id.
"""
from __future__ import annotations

import asyncio
import json
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

MANIFEST = {
    "display_name": "Sampling Summarizer",
    "version": "0.1.0",
    "description": "Summarizes a passage of text by asking the host to sample an LLM.",
    "author": "Anna Developer",
    "host_capabilities": ["llm.sample"],
    "tools": [
        {
            "name": "summarize",
            "description": "Summarize the supplied text into one short paragraph.",
            "parameters": [
                {"name": "text", "type": "string", "description": "Text to summarize", "required": True},
                {"name": "max_words", "type": "integer", "description": "Approx max words in summary", "required": False, "default": 80},
            ],
        }
    ],
    "runtime": {"type": "uv", "min_version": "0.1.0"},
}

_stdout_lock = threading.Lock()


def _write_frame(msg: dict) -> None:
    payload = json.dumps(msg, ensure_ascii=False)
    with _stdout_lock:
        sys.stdout.write(payload + "\n")
        sys.stdout.flush()


class SamplingError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


class SamplingClient:
    def __init__(self):
        self._pending: dict[str, asyncio.Future] = {}
        self._disabled: str | None = None

    def disable(self, reason: str) -> None:
        self._disabled = reason

    async def create_message(self, **params) -> dict:
        if self._disabled:
            raise SamplingError(-32008, self._disabled)
        req_id = uuid.uuid4().hex
        fut = asyncio.get_running_loop().create_future()
        self._pending[req_id] = fut
        _write_frame({"jsonrpc": "2.0", "id": req_id, "method": "sampling/createMessage", "params": params})
        try:
            return await asyncio.wait_for(fut, timeout=90.0)
        finally:
            self._pending.pop(req_id, None)

    def dispatch_response(self, msg: dict) -> bool:
        fut = self._pending.get(msg.get("id"))
        if fut is None:
            return False
        if "error" in msg:
            err = msg["error"]
            _loop.call_soon_threadsafe(fut.set_exception, SamplingError(err.get("code"), err.get("message"), err.get("data")))
        else:
            _loop.call_soon_threadsafe(fut.set_result, msg.get("result"))
        return True


sampling = SamplingClient()
_loop = asyncio.new_event_loop()
threading.Thread(target=_loop.run_forever, daemon=True).start()


async def _summarize(text: str, max_words: int = 80, *, invoke_id: str) -> dict:
    if not text or not text.strip():
        return {"summary": "", "note": "empty input"}
    max_words = max(20, min(400, int(max_words)))
    result = await sampling.create_message(
        messages=[{"role": "user", "content": {"type": "text", "text": f"Summarize in at most {max_words} words:\n\n{text}"}}],
        maxTokens=max(64, min(1024, max_words * 5)),
        systemPrompt="You are a concise editorial assistant.",
        metadata={"executa_invoke_id": invoke_id, "tool": "summarize"},
    )
    content = result.get("content") or {}
    return {"summary": content.get("text", ""), "model": result.get("model"), "usage": result.get("usage")}


def _make_response(req_id, *, result=None, error=None) -> dict:
    out = {"jsonrpc": "2.0", "id": req_id}
    if error is not None:
        out["error"] = error
    else:
        out["result"] = result
    return out


def _handle_initialize(req_id, params: dict) -> dict:
    proto = (params or {}).get("protocolVersion") or "1.1"
    if proto != "2.0":
        sampling.disable(f"host did not negotiate v2 (offered protocolVersion={proto!r})")
    return _make_response(
        req_id,
        result={
            "protocolVersion": proto if proto in ("1.1", "2.0") else "2.0",
            "serverInfo": {"name": MANIFEST["display_name"], "version": MANIFEST["version"]},
            "client_capabilities": {"sampling": {}} if proto == "2.0" else {},
            "capabilities": {},
        },
    )


def _handle_invoke(req_id, params: dict) -> dict:
    tool = params.get("tool")
    args = params.get("arguments") or {}
    invoke_id = params.get("invoke_id") or ""
    if tool != "summarize":
        return _make_response(req_id, error={"code": -32601, "message": f"Unknown tool: {tool}"})
    fut = asyncio.run_coroutine_threadsafe(_summarize(invoke_id=invoke_id, **args), _loop)
    try:
        data = fut.result(timeout=120.0)
    except SamplingError as e:
        return _make_response(req_id, error={"code": e.code, "message": e.message, "data": e.data})
    except Exception as e:  # noqa: BLE001
        return _make_response(req_id, error={"code": -32603, "message": f"Tool execution failed: {e}"})
    return _make_response(req_id, result={"success": True, "tool": tool, "data": data})


def _handle_message(line: str) -> None:
    try:
        msg = json.loads(line)
    except json.JSONDecodeError:
        _write_frame(_make_response(None, error={"code": -32700, "message": "Parse error"}))
        return
    if "method" not in msg:
        if not sampling.dispatch_response(msg):
            print(f"⚠️  unmatched response id={msg.get('id')!r}", file=sys.stderr)
        return
    method = msg.get("method")
    req_id = msg.get("id")
    params = msg.get("params") or {}
    if method == "initialize":
        resp = _handle_initialize(req_id, params)
    elif method == "describe":
        resp = _make_response(req_id, result=MANIFEST)
    elif method == "invoke":
        resp = _handle_invoke(req_id, params)
    elif method == "health":
        resp = _make_response(req_id, result={"status": "healthy", "timestamp": datetime.now(timezone.utc).isoformat(), "version": MANIFEST["version"]})
    elif method == "shutdown":
        resp = _make_response(req_id, result={"ok": True})
    else:
        resp = _make_response(req_id, error={"code": -32601, "message": f"Method not found: {method}"})
    if req_id is not None:
        _write_frame(resp)


def main() -> None:
    print("🔌 sampling-summarizer plugin started", file=sys.stderr)
    pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="invoke")
    try:
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            pool.submit(_handle_message, line)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        _loop.call_soon_threadsafe(_loop.stop)


if __name__ == "__main__":
    main()
