"""The host channel: reverse requests (plugin -> host) on behalf of one invoke, correlated by id,
each stamped with the invoke's id and bounded by its deadline. The typed helpers built on it are
in client.py."""

from __future__ import annotations

import threading
import time

from .deep import MAX_DEPTH
from .errors import INTERNAL_ERROR, HostError
from .ids import random_hex
from .namespaces import INVOKE_ID_METADATA, host_error, local_data, rule_for
from .validate import json_type

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    from .client import HostClient

_HOST_GONE = INTERNAL_ERROR


class _Pending:
    __slots__ = ("done", "result", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: object = None
        self.error: tuple | None = None  # (code, message, data)


class HostChannel:
    """The plugin's side of reverse RPC: the pending table and the negotiated state."""

    def __init__(self, manifest: dict, writer, log, before_wait=None) -> None:
        """
        Args:
            before_wait: Called before a request waits for its answer (the reading may not wait with it).
        """
        # Why reverse requests are refused locally ('this host's initialize offered protocolVersion "1.1"'),
        # or None: no initialize came (Anna's hosts send none, and speak 2.0) or the last one offered 2.x.
        self.declined: str | None = None if writer is not None else "this context has no host (the tool was called outside an invoke)"
        self._capabilities = frozenset(manifest.get("host_capabilities") or ())
        self._writer = writer
        self._log = log
        self._before_wait = before_wait
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Lock()
        self._closed = False  # stdin closed: the host can answer nothing any more

    def waits_for(self, id) -> bool:
        """True while a request with this id waits for its answer."""
        with self._lock:
            return isinstance(id, str) and id in self._pending

    def settle(self, frame: dict) -> None:
        """A response frame from the host: settles the pending request with its id."""
        if "result" not in frame and "error" not in frame:
            self._malformed_answer(frame.get("id"), "has neither result nor error")
            return
        entry = self._take(frame.get("id"))
        if entry is None:
            return
        if "error" in frame:
            error = frame["error"] if isinstance(frame["error"], dict) else {}
            code, message = error.get("code"), error.get("message")
            if isinstance(code, int) and not isinstance(code, bool) and isinstance(message, str):
                entry.error = (code, message, error.get("data"))
            else:
                entry.error = (INTERNAL_ERROR, "the host answered with an error", error.get("data"))
        else:
            entry.result = frame.get("result")
        entry.done.set()

    def too_deep(self, id) -> None:
        """A response nested too deep to read: the request it names fails now. Nothing is written back."""
        self._malformed_answer(id, f"nests deeper than {MAX_DEPTH} levels")

    def _malformed_answer(self, id, what: str) -> None:
        entry = self._take(id)
        if entry is not None:
            entry.error = (INTERNAL_ERROR, f"MALFORMED_RESULT: the host's answer {what}", None)
            entry.done.set()

    def _take(self, id) -> _Pending | None:
        """The pending request with this id, removed from the table; None (logged) when there is none."""
        with self._lock:
            entry = self._pending.pop(id, None) if isinstance(id, str) else None
        if entry is None:
            import json

            self._log(f"executa: response for unknown request id {json.dumps(id)} ignored")
        return entry

    def request(self, invoke_id: str, deadline_ms: float, method: str, params: dict | None = None, timeout: float | None = None):
        params = dict(params or {})
        rule = rule_for(method, params)
        ns = rule.namespace

        def fail(code: int, message: str, data=None) -> HostError:
            return host_error(ns, method, code, message, data)

        refusal = "NOT_GRANTED" if ns.error_codes else ns.names[ns.refusal_code]
        refused = local_data(ns, "refusal")
        if self.declined is not None:
            raise fail(ns.refusal_code, f"{refusal}: {method} needs Executa protocol 2.0, and {self.declined}", refused)
        if rule.capabilities and not any(c in self._capabilities for c in rule.capabilities):
            raise fail(
                ns.refusal_code,
                f'{refusal}: {method} needs "{rule.capabilities[0]}" in host_capabilities (executa.json), '
                "then run `executa manifest`",
                refused,
            )
        wait = min(rule.timeout_s if timeout is None else timeout, deadline_ms / 1000 - time.time())

        def timed_out() -> HostError:
            return fail(ns.timeout_code, f"TIMEOUT: no answer to {method} within {max(0, round(wait * 1000))} ms", local_data(ns, "timeout"))

        if wait <= 0:
            raise timed_out()
        context = params.get("context")
        params["context"] = {**(context if isinstance(context, dict) else {}), "invoke_id": invoke_id}
        if method in INVOKE_ID_METADATA:
            metadata = params.get("metadata")
            params["metadata"] = {**(metadata if isinstance(metadata, dict) else {}), "executa_invoke_id": invoke_id}

        id = random_hex()
        entry = _Pending()
        with self._lock:
            if self._closed:
                raise fail(_HOST_GONE, f"HOST_GONE: stdin closed before the host answered {method}")
            self._pending[id] = entry
        if self._before_wait is not None:
            self._before_wait()
        self._writer.request(id, method, params)
        if not entry.done.wait(wait):
            with self._lock:
                self._pending.pop(id, None)
            if not entry.done.is_set():
                raise timed_out()
        if entry.error is not None:
            raise fail(*entry.error)
        return entry.result

    def progress(self, invoke_id: str, type: str, data: dict) -> None:
        """``executa/progress`` for one invoke: needs no capability, and no answer comes."""
        if self._writer is not None:
            self._writer.notify("executa/progress", {"context": {"invoke_id": invoke_id}, "type": type, "data": data})

    def close(self) -> None:
        """stdin closed: every request still waiting fails now (its answer can never come), and so does every new one."""
        with self._lock:
            self._closed = True
            waiting = list(self._pending.values())
            self._pending.clear()
        for entry in waiting:
            entry.error = (_HOST_GONE, "HOST_GONE: stdin closed before the host answered the request", None)
            entry.done.set()

    def client(self, invoke_id: str, deadline_ms: float, log) -> HostClient:
        """The host client of one invoke (``ctx.host``)."""
        from .client import HostClient  # the helpers load on a tool's first ctx.host: start-up stays light

        return HostClient(InvokeRequests(self, invoke_id, deadline_ms, log))


class InvokeRequests:
    """What the typed helpers build on: one invoke's reverse requests, its deadline and its log."""

    def __init__(self, channel: HostChannel, invoke_id: str, deadline_ms: float, log) -> None:
        self._channel = channel
        self._invoke_id = invoke_id
        self.deadline_ms = deadline_ms
        self.log = log

    def request(self, method: str, params: dict | None = None, timeout: float | None = None):
        """Sends one reverse request and waits for its result (``host.request``)."""
        return self._channel.request(self._invoke_id, self.deadline_ms, method, params, timeout)

    def call(self, method: str, params: dict | None = None, timeout: float | None = None) -> dict:
        """A typed helper's request: the host's result must be an object (else MALFORMED_RESULT)."""
        result = self.request(method, params, timeout)
        if type(result) is not dict:
            raise self.malformed(method, f"must be an object, got {json_type(result)}")
        return result

    def malformed(self, method: str, what: str) -> HostError:
        """MALFORMED_RESULT (-32603): the host's result of the method is not of the shape the helper reads, ``what`` says how."""
        return self.error(method, INTERNAL_ERROR, f"MALFORMED_RESULT: the host's result {what}")

    def error(self, method: str, code: int, message: str, data: object = None) -> HostError:
        """A HostError in the method's namespace, its code named."""
        return host_error(rule_for(method).namespace, method, code, message, data)

    def invalid(self, method: str, message: str) -> HostError:
        """The namespace's INVALID_REQUEST, for what the host would refuse (raised before sending)."""
        ns = rule_for(method).namespace
        return self.error(method, ns.invalid_code, f"INVALID_REQUEST: {message}", local_data(ns, "invalid"))

    def timeout(self, method: str, what: str, seconds: float) -> HostError:
        """The namespace's TIMEOUT."""
        ns = rule_for(method).namespace
        ms = max(0, round(seconds * 1000))
        return self.error(method, ns.timeout_code, f"TIMEOUT: no answer to {what} within {ms} ms", local_data(ns, "timeout"))

    def seconds_left(self) -> float:
        """Seconds until the invoke's deadline (negative once it passed)."""
        return self.deadline_ms / 1000 - time.time()
