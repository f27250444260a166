"""The dispatcher: one decoded frame -> the right answer (or none), per the runtime contract."""

import json
import time

from .context import ToolContext
from .errors import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, HostError, ToolError
from .validate import check_arguments, json_type

# manifest host_capabilities -> initialize client_capabilities
CLIENT_CAPABILITIES = {
    "llm.sample": {"sampling": {}},
    "llm.agent.auto": {"agent": {"submodes": ["auto"]}},
    "aps.kv": {"storage": {"kv": True}},
    "aps.files": {"storage": {"files": True}},
    "host.upload": {"upload": {}},
    "llm.image": {"image": {}},
    "llm.image.edit": {"image.edit": {}},
    "llm.embed": {"embeddings": {}},
}

_CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect


def client_capabilities(host_capabilities) -> dict:
    out: dict = {}
    for name in host_capabilities or ():
        for key, value in CLIENT_CAPABILITIES.get(name, {}).items():
            out[key] = {**out.get(key, {}), **value}
    return out


def _is_id(value) -> bool:
    return value is None or type(value) is str or ((type(value) is int or type(value) is float))


def _describe_function(fn):
    """(fn, declares ctx, is async) for a tool function."""
    target = fn
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    code = getattr(target, "__code__", None)
    if code is None:
        import inspect

        try:
            parameters = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            return fn, False, False
        wants_ctx = "ctx" in parameters
        return fn, wants_ctx, inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    wants_ctx = "ctx" in names
    return fn, wants_ctx, bool(code.co_flags & _CO_COROUTINE)


def _run_coroutine(awaitable):
    import asyncio

    async def wait():
        return await awaitable

    return asyncio.run(wait())


class Dispatcher:
    def __init__(self, manifest: dict, bindings: dict, writer, channel, stopper, log, execute) -> None:
        """
        Args:
            execute: ``execute(job, synchronous)`` runs one invoke's job (on the reading thread or a worker).
        """
        self._manifest = manifest
        self._tools = {t["name"]: t for t in manifest.get("tools") or ()}
        self._bindings = bindings
        self._writer = writer
        self._channel = channel
        self._stopper = stopper
        self._log = log
        self._execute = execute
        self._loaded: dict = {}
        self._describe_json = None
        for name in bindings:
            if name not in self._tools:
                log(f"executa: binding {json.dumps(name)} is not a tool in manifest.json; run `executa manifest`")

    def parse_error(self, message: str) -> None:
        self._writer.error(None, -32700, message)

    def frame(self, frame) -> None:
        if type(frame) is not dict:
            what = "batches are not supported" if type(frame) is list else f"expected an object, got {json_type(frame)}"
            self._writer.error(None, INVALID_REQUEST, f"Invalid Request: {what}")
            return
        has_id = "id" in frame
        raw_id = frame.get("id")
        id = raw_id if has_id and _is_id(raw_id) else None
        if "method" not in frame:
            if has_id and ("result" in frame or "error" in frame):
                self._channel.settle(frame)
            else:
                self._writer.error(id, INVALID_REQUEST, "Invalid Request: no 'method'")
            return
        if not has_id:
            return  # a notification: never answered
        if self._stopper.stopping:
            self._log(f"executa: stopping; request {_show(raw_id)} not taken")
            return
        method = frame["method"]
        if not _is_id(raw_id) or type(raw_id) is bool:
            self._writer.error(None, INVALID_REQUEST, "Invalid Request: 'id' must be a string, a number or null")
        elif frame.get("jsonrpc") != "2.0":
            self._writer.error(id, INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\"")
        elif type(method) is not str:
            self._writer.error(id, INVALID_REQUEST, "Invalid Request: 'method' must be a string")
        elif method == "invoke":
            self._invoke(id, frame.get("params"))
        elif method == "describe":
            if self._describe_json is None:
                from .writer import to_json_bytes

                self._describe_json = to_json_bytes(self._manifest)
            self._writer.raw_result(id, self._describe_json)
        elif method == "initialize":
            self._writer.result(id, self._initialize(frame.get("params")))
        elif method == "health":
            details = {"tools": len(self._tools), "in_flight": self._stopper.running}
            self._writer.result(id, {"status": "ready", "message": "", "details": details})
        elif method == "shutdown":
            self._writer.result(id, {"ok": True})
            self._stopper.begin("shutdown")
        else:
            self._writer.error(id, METHOD_NOT_FOUND, f"Method not found: {method}")

    def _initialize(self, params) -> dict:
        asked = params.get("protocolVersion") if type(params) is dict else None
        v2 = type(asked) is str and (asked == "2.0" or asked.startswith("2."))
        self._channel.v2 = v2
        m = self._manifest
        return {
            "protocolVersion": "2.0" if v2 else "1.1",
            "serverInfo": {"name": m.get("display_name") or m.get("name"), "version": m.get("version")},
            "capabilities": {},
            "client_capabilities": client_capabilities(m.get("host_capabilities")),
        }

    def _invoke(self, id, params) -> None:
        if type(params) is not dict or type(params.get("tool")) is not str:
            self._writer.error(id, INVALID_PARAMS, "Missing 'tool' in params")
            return
        name = params["tool"]
        tool = self._tools.get(name)
        if tool is None:
            self._writer.error(id, METHOD_NOT_FOUND, f"Unknown tool: {name}", {"available_tools": list(self._tools)})
            return
        given = params["arguments"] if "arguments" in params else {}
        if type(given) is not dict:
            self._writer.error(id, INVALID_PARAMS, "'arguments' must be an object")
            return
        args, problems = check_arguments(tool, given)
        if problems:
            self._writer.error(id, INVALID_PARAMS, f"Invalid arguments for tool '{name}'", {"errors": problems})
            return
        entry = self._loaded.get(name)
        if entry is None:
            entry = self._load(id, name)
            if entry is None:
                return
        self._stopper.started()
        self._execute(lambda: self._call(id, name, tool, params, args, entry), not entry[2])

    def _load(self, id, name):
        binding = self._bindings.get(name)
        if binding is None:
            self._log(f"executa: tool '{name}' is in manifest.json but has no binding; run `executa manifest`")
            self._writer.error(id, INTERNAL_ERROR, f"Tool '{name}' failed unexpectedly; see the plugin's stderr")
            return None
        try:
            entry = _describe_function(binding())
        except Exception:
            import traceback

            self._log(f"executa: could not load tool '{name}':\n{traceback.format_exc().rstrip()}")
            self._writer.error(id, INTERNAL_ERROR, f"Tool '{name}' failed unexpectedly; see the plugin's stderr")
            return None
        self._loaded[name] = entry
        return entry

    def _call(self, id, name, tool, params, args, entry) -> None:
        fn, wants_ctx, is_async = entry
        start = time.perf_counter()
        try:
            if wants_ctx:
                value = fn(**args, ctx=ToolContext.from_invoke(tool, params, self._channel))
            else:
                value = fn(**args)
            if is_async or hasattr(type(value), "__await__"):
                value = _run_coroutine(value)
        except ToolError as err:
            result = {"success": False, "error": str(err), "duration_ms": _ms_since(start)}
        except HostError as err:
            error = f"{err.method} failed: [{err.code}] {err.message}"
            result = {"success": False, "error": error, "duration_ms": _ms_since(start)}
        except BaseException:
            import traceback

            self._log(f"executa: tool '{name}' raised:\n{traceback.format_exc().rstrip()}")
            self._writer.error(id, INTERNAL_ERROR, f"Tool '{name}' failed unexpectedly; see the plugin's stderr")
            self._stopper.finished()
            return
        else:
            result = {"success": True, "data": value, "duration_ms": _ms_since(start)}
        try:
            self._writer.result(id, result)
        finally:
            self._stopper.finished()


def _ms_since(start: float) -> int:
    return int((time.perf_counter() - start) * 1000 + 0.5)


def _show(id) -> str:
    try:
        return json.dumps(id)
    except (TypeError, ValueError):
        return repr(id)
