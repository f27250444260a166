"""The dispatcher: one decoded frame -> the right answer (or none), per the runtime contract."""

import json
import time

from .context import ToolContext
from .deep import MAX_DEPTH
from .errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SHUTTING_DOWN,
    HostError,
    ToolError,
)
from .validate import Parameters, check_arguments, json_type
from .writer import NotJson, to_json_bytes

# manifest host_capabilities -> initialize client_capabilities: create-executa's protocol/capabilities.ts (the platform's allow-list)
_KV = {"storage": {"kv": True}}
CLIENT_CAPABILITIES = {
    "aps.files": {"storage": {"files": True}},
    "aps.kv": _KV,
    "aps.scope.admin": {"storage": {"kv": True, "files": True}},
    "aps.scope.app.read": _KV,
    "aps.scope.app.write": _KV,
    "aps.scope.tool.read": _KV,
    "aps.scope.tool.write": _KV,
    "aps.scope.user.read": _KV,
    "aps.scope.user.write": _KV,
    "host.upload": {"upload": {}},
    "llm.agent.auto": {"agent": {"submodes": ["auto"]}},
    "llm.agent.fixed": {"agent": {"submodes": ["fixed"]}},
    "llm.embed": {"embeddings": {}},
    "llm.image": {"image": {}},
    "llm.image.edit": {"image.edit": {}},
    "llm.sample": {"sampling": {}},
    "web.fetch": {"web": {"fetch": True}},
    "web.search": {"web": {"search": True}},
}

MAX_SAFE_INTEGER = 2**53 - 1
BAD_ID = "Invalid Request: id must be a string, an integer within ±(2^53−1), or null"
_CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect
_NO_ID = object()
# Types a tool's value has that are never awaitable: checked first, as hasattr on a type that
# lacks the attribute raises an AttributeError and clears it.
_JSON_TYPES = frozenset((dict, list, str, int, float, bool, type(None)))


def client_capabilities(host_capabilities) -> dict:
    """The client capabilities of these host capabilities, merged (lists are joined, each item once)."""
    out: dict = {}
    for name in host_capabilities or ():
        for key, value in CLIENT_CAPABILITIES.get(name, {}).items() if type(name) is str else ():
            merged = dict(out.get(key, {}))
            for k, v in value.items():
                before = merged.get(k)
                merged[k] = before + [x for x in v if x not in before] if isinstance(before, list) and isinstance(v, list) else v
            out[key] = merged
    return out


def _offered(params) -> str:
    """What an initialize offered, for the refusal of a reverse request: 'protocolVersion "1.1"'."""
    if type(params) is not dict or "protocolVersion" not in params:
        return "no protocolVersion"
    asked = params["protocolVersion"]
    if type(asked) is str:
        return "protocolVersion " + json.dumps(asked[:40], ensure_ascii=False)
    return f"a protocolVersion that is not a string ({json_type(asked)})"


def request_id(value):
    """The id to answer with: a string, an integer within ±(2^53−1) (1.0 is 1) or None; _NO_ID for anything else."""
    kind = type(value)
    if value is None or kind is str:
        return value
    if kind is int:
        return value if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else _NO_ID
    if kind is float and value.is_integer() and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return int(value)
    return _NO_ID


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
    def __init__(self, manifest: dict, bindings: dict, writer, channel, stopper, log, submit) -> None:
        """
        Args:
            submit: ``submit(job)`` runs one invoke's job on a worker thread.
        """
        self._manifest = manifest
        self._tools = {t["name"]: t for t in manifest.get("tools") or ()}
        self._bindings = bindings
        self._writer = writer
        self._channel = channel
        self._stopper = stopper
        self._log = log
        self._submit = submit
        self._loaded: dict = {}
        self._parameters: dict = {}  # tool name -> Parameters(its tool)
        self._describe_json = None
        for name in bindings:
            if name not in self._tools:
                log(f"executa: binding {json.dumps(name)} is not a tool in manifest.json; run `executa manifest`")

    def parse_error(self, message: str) -> None:
        self._writer.error(None, PARSE_ERROR, message)

    def too_deep(self, id, response: bool) -> None:
        """Valid JSON nested too deep to take; ``id`` is its top-level id, if a shallow scan found one.
        A response is never answered: the reverse request it names fails instead."""
        if response:
            self._channel.too_deep(id)
            return
        id = request_id(id)
        self._writer.error(None if id is _NO_ID else id, INVALID_PARAMS, f"Invalid params: JSON nests deeper than {MAX_DEPTH} levels")

    def frame(self, frame) -> None:
        if type(frame) is not dict:
            self._writer.error(None, INVALID_REQUEST, f"Invalid Request: expected a JSON object, got {json_type(frame)}")
            return
        has_id = "id" in frame
        id = request_id(frame.get("id"))
        answer_id = None if id is _NO_ID else id
        if "method" not in frame:
            if has_id and ("result" in frame or "error" in frame or self._channel.waits_for(frame["id"])):
                self._channel.settle(frame)
            else:
                self._writer.error(answer_id, INVALID_REQUEST, "Invalid Request: no 'method'")
            return
        if not has_id:
            return  # a notification: never answered
        method = frame["method"]
        if id is _NO_ID:
            self._writer.error(None, INVALID_REQUEST, BAD_ID)
        elif frame.get("jsonrpc") != "2.0":
            self._writer.error(id, INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\"")
        elif type(method) is not str:
            self._writer.error(id, INVALID_REQUEST, "Invalid Request: 'method' must be a string")
        elif self._stopper.stopping:
            self._writer.error(id, SHUTTING_DOWN, "Shutting down")
        elif method == "invoke":
            self._invoke(id, frame.get("params"))
        elif method == "describe":
            if self._describe_json is None:
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
        self._channel.declined = None if v2 else "this host's initialize offered " + _offered(params)
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
        parameters = self._parameters.get(name)
        if parameters is None:
            parameters = self._parameters[name] = Parameters(tool)
        args, problems = check_arguments(parameters, given)
        if problems:
            self._writer.error(id, INVALID_PARAMS, f"Invalid arguments for tool '{name}'", {"errors": problems})
            return
        entry = self._loaded.get(name)
        if entry is None:
            entry = self._load(id, name)
            if entry is None:
                return
        self._stopper.started()
        self._submit(lambda: self._run(id, name, tool, params, args, entry))

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

    def _run(self, id, name, tool, params, args, entry) -> None:
        """Runs one invoke and answers it; the in-flight count always goes down."""
        fn, wants_ctx, is_async = entry
        stopper = self._stopper
        answered = False
        try:
            start = time.perf_counter()
            ctx = ToolContext.from_invoke(tool, params, self._channel) if wants_ctx else None
            try:
                value = fn(**args, ctx=ctx) if wants_ctx else fn(**args)
                if is_async or (type(value) not in _JSON_TYPES and hasattr(type(value), "__await__")):
                    value = _run_coroutine(value)
                outcome = "ok"
            except ToolError as err:
                outcome, value = "tool_error", err
            except HostError as err:
                outcome, value = "host_error", err
            except BaseException as err:
                outcome, value = "raised", err
            if ctx is not None:
                ctx.finish()  # the invoke is answered next: progress after this is refused
            duration_ms = int((time.perf_counter() - start) * 1000 + 0.5)
            stopper.answering()
            answered = True
            self._answer(id, name, outcome, value, duration_ms)
        except BaseException:
            if not answered:
                stopper.answering()
            self._fail(id, name, "could not be answered")
        finally:
            stopper.finished()

    def _answer(self, id, name, outcome, value, duration_ms) -> None:
        if outcome == "ok":
            try:
                self._writer.tool_result(id, value, duration_ms)
            except NotJson:
                self._writer.error(id, INTERNAL_ERROR, f"Tool '{name}' returned a value that is not valid JSON (NaN or Infinity)")
            except (TypeError, ValueError, RecursionError):
                self._fail(id, name, "returned a value that is not valid JSON", f"Tool '{name}' returned a value that is not valid JSON; see the plugin's stderr")
        elif outcome == "raised":
            self._fail(id, name, "raised", exc=value)
        else:
            error = value.message if outcome == "tool_error" else f"{value.method} failed: [{value.code} {value.code_name}] {value.message}"
            self._writer.result(id, {"success": False, "error": str(error), "duration_ms": duration_ms})

    def _fail(self, id, name, what, message=None, exc=None) -> None:
        import traceback

        try:
            trace = "".join(traceback.format_exception(exc)) if exc is not None else traceback.format_exc()
        except BaseException:
            trace = "(a value that cannot be shown)\n"
        self._log(f"executa: tool '{name}' {what}:\n{trace.rstrip()}")
        self._writer.error(id, INTERNAL_ERROR, message or f"Tool '{name}' failed unexpectedly; see the plugin's stderr")
