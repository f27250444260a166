"""A small, complete Executa plugin (protocol 1.1 + 2.0) used by the conformance tests.

Each broken plugin beside it is this plugin with one fault switched on; reference.py has none.
"""
import hashlib
import hmac
import json
import os
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time

MANIFEST = {
    "name": "conform-reference-py",
    "display_name": "Conform Reference (Python)",
    "version": "1.0.0",
    "description": "A correct plugin that passes every conformance check.",
    "tools": [
        {
            "name": "echo",
            "description": "Echo a text, optionally repeated.",
            "parameters": [
                {"name": "text", "type": "string", "description": "The text.", "required": True},
                {"name": "times", "type": "integer", "description": "Repeat count.", "required": False, "default": 1},
                {"name": "tags", "type": "array", "description": "Tags.", "required": False, "items": {"type": "string"}},
            ],
        },
        {
            "name": "sign",
            "description": "Sign a message with the REF_SECRET credential.",
            "parameters": [{"name": "message", "type": "string", "description": "The message.", "required": True}],
        },
        {
            "name": "ask",
            "description": "Ask the host's model a question.",
            "timeout": 30,
            "parameters": [{"name": "question", "type": "string", "description": "The question.", "required": True}],
        },
    ],
    "credentials": [{"name": "REF_SECRET", "display_name": "Secret", "description": "Signing key.", "required": False, "sensitive": True}],
    "host_capabilities": ["llm.sample"],
}

MAX_FRAME = 16 * 1024 * 1024
FILE_THRESHOLD = 512 * 1024
TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def serve(manifest=None, banner=False, crash_on_bad_json=False, no_invoke_id=False, leave_file=False):
    manifest = MANIFEST if manifest is None else manifest
    out = sys.stdout.buffer
    lock = threading.Lock()
    # Host services are on unless an initialize offers another version (Anna's local-dev runtime sends none).
    state = {"v2": True, "in_flight": 0}
    pending = {}

    def write(frame):
        text = json.dumps(frame, ensure_ascii=False)
        data = text.encode("utf-8")
        # Inline, as the platform reads it; only the leave_file fault still writes file transport.
        if leave_file and len(data) > FILE_THRESHOLD and "id" in frame and "method" not in frame:
            fd, path = tempfile.mkstemp(prefix="executa-resp-", suffix=".json")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            if leave_file:
                shutil.copyfile(path, path + ".bak")  # the fault: a backup copy nobody removes
            data = json.dumps({"jsonrpc": "2.0", "id": frame["id"], "__file_transport": path}).encode()
        with lock:
            out.write(data + b"\n")
            out.flush()

    def result(id_, value):
        write({"jsonrpc": "2.0", "id": id_, "result": value})

    def error(id_, code, message, data=None):
        err = {"code": code, "message": message}
        if data is not None:
            err["data"] = data
        write({"jsonrpc": "2.0", "id": id_, "error": err})

    def host_request(method, params, invoke_id, timeout=30):
        if not state["v2"]:
            raise RuntimeError("[-32008] protocol 2.0 not negotiated")
        rid = secrets.token_hex(16)
        event = threading.Event()
        slot = {"event": event}
        pending[rid] = slot
        p = dict(params)
        if not no_invoke_id:
            p["context"] = {"invoke_id": invoke_id}
        if state.get("stdin_closed"):
            pending.pop(rid, None)
            raise RuntimeError("[-32603] stdin closed before the host answered")
        write({"jsonrpc": "2.0", "id": rid, "method": method, "params": p})
        if not event.wait(timeout):
            pending.pop(rid, None)
            raise RuntimeError("[-32005] timeout")
        if "error" in slot:
            raise RuntimeError("[%s] %s" % (slot["error"].get("code"), slot["error"].get("message")))
        return slot["result"]

    def tool_echo(a, ctx):
        return {"text": " ".join([a["text"]] * a.get("times", 1)), "tags": a.get("tags") or []}

    def tool_sign(a, ctx):
        secret = ctx["credentials"].get("REF_SECRET") or os.environ.get("REF_SECRET")
        if not secret:
            return {"__tool_error": "REF_SECRET is not configured"}
        return {"signature": hmac.new(secret.encode(), a["message"].encode(), hashlib.sha256).hexdigest()}

    def tool_ask(a, ctx):
        write({"jsonrpc": "2.0", "method": "executa/progress", "params": {"context": {"invoke_id": ctx["invoke_id"]}, "type": "progress", "data": {"step": "asking the host"}}})
        try:
            r = host_request("sampling/createMessage", {"messages": [{"role": "user", "content": {"type": "text", "text": a["question"]}}], "maxTokens": 64}, ctx["invoke_id"])
        except RuntimeError as e:
            return {"__tool_error": "sampling failed: %s" % e}
        return {"answer": (r.get("content") or {}).get("text", "")}

    tools = {"echo": tool_echo, "sign": tool_sign, "ask": tool_ask}

    def check_args(tool, args):
        errors = []
        params = tool.get("parameters", [])
        for p in params:
            v = args.get(p["name"])
            if v is None:
                if p.get("required", True):
                    errors.append({"parameter": p["name"], "message": "required"})
                elif "default" in p:
                    args[p["name"]] = p["default"]
                continue
            if not TYPES[p["type"]](v):
                errors.append({"parameter": p["name"], "message": "expected %s, got %s" % (p["type"], _type_name(v))})
            elif p["type"] == "array":
                it = (p.get("items") or {}).get("type") or p.get("items_type") or "string"
                for i, x in enumerate(v):
                    if not TYPES[it](x):
                        errors.append({"parameter": p["name"], "message": "item %d: expected %s, got %s" % (i, it, _type_name(x))})
        names = {p["name"] for p in params}
        for k in args:
            if k not in names:
                errors.append({"parameter": k, "message": "unknown parameter"})
        return errors

    def run_invoke(id_, tool, args, ctx):
        started = time.time()
        try:
            value = tools[tool["name"]](args, ctx)
        except Exception as e:  # noqa: BLE001
            print("tool failed: %r" % e, file=sys.stderr)
            error(id_, -32603, "Tool '%s' failed unexpectedly; see the plugin's stderr" % tool["name"])
            return
        finally:
            state["in_flight"] -= 1
        ms = int((time.time() - started) * 1000)
        if isinstance(value, dict) and "__tool_error" in value:
            result(id_, {"success": False, "error": value["__tool_error"], "duration_ms": ms})
        else:
            result(id_, {"success": True, "data": value, "duration_ms": ms})

    def invoke(id_, params):
        if not isinstance(params, dict) or not isinstance(params.get("tool"), str):
            return error(id_, -32602, "Missing 'tool' in params")
        tool = next((t for t in manifest["tools"] if t["name"] == params["tool"]), None)
        if tool is None:
            return error(id_, -32601, "Unknown tool: %s" % params["tool"], {"available_tools": [t["name"] for t in manifest["tools"]]})
        args = params.get("arguments", {})
        if not isinstance(args, dict):
            return error(id_, -32602, "'arguments' must be an object")
        errors = check_args(tool, args)
        if errors:
            return error(id_, -32602, "Invalid arguments for tool '%s'" % tool["name"], {"errors": errors})
        context = params.get("context") or {}
        ctx = {"credentials": context.get("credentials") or {}, "invoke_id": context.get("invoke_id") or params.get("invoke_id") or ""}
        state["in_flight"] += 1
        threading.Thread(target=run_invoke, args=(id_, tool, args, ctx), daemon=True).start()

    def handle(line):
        try:
            frame = json.loads(line)
        except ValueError as e:
            if crash_on_bad_json:
                raise
            return error(None, -32700, "Parse error: %s" % e)
        if not isinstance(frame, dict):
            return error(None, -32600, "Invalid Request: not an object")
        has_id = "id" in frame
        fid = frame.get("id")
        ok_id = fid is None or isinstance(fid, str) or (isinstance(fid, (int, float)) and not isinstance(fid, bool))
        if "method" not in frame:
            if has_id and ("result" in frame or "error" in frame):
                slot = pending.pop(fid, None) if isinstance(fid, str) else None
                if slot is None:
                    print("unmatched response id=%r" % (fid,), file=sys.stderr)
                    return
                if "error" in frame:
                    slot["error"] = frame["error"]
                else:
                    slot["result"] = frame["result"]
                slot["event"].set()
                return
            return error(fid if has_id and ok_id else None, -32600, "Invalid Request: no 'method'")
        if not has_id:
            return
        if not ok_id:
            return error(None, -32600, "Invalid Request: bad id")
        if frame.get("jsonrpc") != "2.0":
            return error(fid, -32600, "Invalid Request: 'jsonrpc' must be \"2.0\"")
        method = frame["method"]
        if not isinstance(method, str):
            return error(fid, -32600, "Invalid Request: 'method' must be a string")
        if method == "describe":
            return result(fid, manifest)
        if method == "health":
            return result(fid, {"status": "ready", "message": "", "details": {"tools": len(manifest["tools"]), "in_flight": state["in_flight"]}})
        if method == "initialize":
            asked = (frame.get("params") or {}).get("protocolVersion") if isinstance(frame.get("params"), dict) else None
            state["v2"] = isinstance(asked, str) and asked.startswith("2.")
            return result(fid, {
                "protocolVersion": "2.0" if state["v2"] else "1.1",
                "serverInfo": {"name": manifest["display_name"], "version": manifest["version"]},
                "capabilities": {},
                "client_capabilities": {"sampling": {}} if "llm.sample" in manifest.get("host_capabilities", []) else {},
            })
        if method == "shutdown":
            result(fid, {"ok": True})
            raise SystemExit(0)
        if method == "invoke":
            return invoke(fid, frame.get("params"))
        return error(fid, -32601, "Method not found: %s" % method)

    def on_sigterm(_signum, _frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_sigterm)
    if banner:
        out.write(b"conform-reference-py 1.0.0 starting up\n")
        out.flush()
    stdin = sys.stdin.buffer
    try:
        while True:
            raw = stdin.readline(MAX_FRAME + 2)
            if not raw:
                break
            if len(raw) > MAX_FRAME + 1 or (len(raw) == MAX_FRAME + 2 and not raw.endswith(b"\n")):
                while raw and not raw.endswith(b"\n"):
                    raw = stdin.readline(MAX_FRAME)
                error(None, -32600, "Frame exceeds 16 MiB")
                continue
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError as e:
                error(None, -32700, "Parse error: %s" % e)
                continue
            if line:
                handle(line)
    except SystemExit:
        pass
    # stdin is closed: the host can no longer answer, so pending host requests fail now and their tools answer.
    state["stdin_closed"] = True
    for slot in list(pending.values()):
        slot["error"] = {"code": -32603, "message": "stdin closed before the host answered"}
        slot["event"].set()
    deadline = time.time() + 3
    while state["in_flight"] > 0 and time.time() < deadline:
        time.sleep(0.01)
    sys.stdout.flush()
    os._exit(0)
