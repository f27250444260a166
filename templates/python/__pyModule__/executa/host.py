"""The host client: reverse requests (plugin -> host) on behalf of one invoke, correlated by id,
each stamped with the invoke's id and bounded by its deadline."""

from __future__ import annotations

import threading
import time

from .errors import (
    SAMPLING_NOT_NEGOTIATED,
    SAMPLING_TIMEOUT,
    STORAGE_NOT_GRANTED,
    STORAGE_TIMEOUT,
    HostError,
)
from .ids import random_hex


class _Namespace:
    def __init__(self, capabilities, timeout_s, timeout_code, refusal_code, refusal):
        self.capabilities = capabilities  # manifest host_capabilities, any of which unlocks the method
        self.timeout_s = timeout_s
        self.timeout_code = timeout_code
        self.refusal_code = refusal_code  # the code of a local refusal (not negotiated, or no capability)
        self.refusal = refusal


_SAMPLING = _Namespace(("llm.sample",), 90.0, SAMPLING_TIMEOUT, SAMPLING_NOT_NEGOTIATED, "NOT_NEGOTIATED")
_STORAGE = _Namespace(
    ("aps.kv", "storage.user", "storage.app", "storage.tool"), 30.0, STORAGE_TIMEOUT, STORAGE_NOT_GRANTED, "NOT_GRANTED"
)
_OTHER = _Namespace((), 90.0, SAMPLING_TIMEOUT, SAMPLING_NOT_NEGOTIATED, "NOT_NEGOTIATED")


def _namespace_of(method: str) -> _Namespace:
    if method.startswith("sampling/") or method == "agent/complete":
        return _SAMPLING
    if method.startswith("storage/"):
        return _STORAGE
    return _OTHER


class _Pending:
    __slots__ = ("done", "result", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result = None
        self.error = None


def _host_gone(method: str) -> HostError:
    return HostError(-32603, f"HOST_GONE: stdin closed before the host answered {method}", method=method)


class HostChannel:
    """The plugin's side of reverse RPC: the pending table and the negotiated state."""

    def __init__(self, manifest: dict, writer, log) -> None:
        self.v2 = False  # True once initialize was answered "2.0"
        self._capabilities = frozenset(manifest.get("host_capabilities") or ())
        self._writer = writer
        self._log = log
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Lock()
        self._closed = False  # stdin closed: the host can answer nothing any more

    def settle(self, frame: dict) -> None:
        """A response frame from the host: settles the pending request with its id."""
        id = frame.get("id")
        with self._lock:
            entry = self._pending.pop(id, None) if isinstance(id, str) else None
        if entry is None:
            import json

            self._log(f"executa: response for unknown request id {json.dumps(id)} ignored")
            return
        if "error" in frame:
            error = frame["error"] if isinstance(frame["error"], dict) else {}
            code = error.get("code")
            message = error.get("message")
            entry.error = (
                code if isinstance(code, int) and not isinstance(code, bool) else -32603,
                message if isinstance(message, str) else "the host answered with an error",
                error.get("data"),
            )
        else:
            entry.result = frame.get("result")
        entry.done.set()

    def request(self, invoke_id: str, deadline_ms: float, method: str, params: dict | None = None, timeout: float | None = None):
        ns = _namespace_of(method)
        if not self.v2:
            raise HostError(
                ns.refusal_code,
                f"{ns.refusal}: {method} needs Executa protocol 2.0, and this host did not negotiate it "
                '(it sent no initialize with protocolVersion "2.0")',
                method=method,
            )
        if ns.capabilities and not any(c in self._capabilities for c in ns.capabilities):
            raise HostError(
                ns.refusal_code,
                f'{ns.refusal}: {method} needs "{ns.capabilities[0]}" in host_capabilities (executa.json), '
                "then run `executa manifest`",
                method=method,
            )
        wait = min(ns.timeout_s if timeout is None else timeout, deadline_ms / 1000 - time.time())

        def timed_out() -> HostError:
            ms = max(0, round(wait * 1000))
            return HostError(ns.timeout_code, f"TIMEOUT: no answer to {method} within {ms} ms", method=method)

        if wait <= 0:
            raise timed_out()
        params = dict(params or {})
        metadata = params.get("metadata")
        context = params.get("context")
        params["context"] = {**(context if isinstance(context, dict) else {}), "invoke_id": invoke_id}
        params["metadata"] = {**(metadata if isinstance(metadata, dict) else {}), "executa_invoke_id": invoke_id}

        id = random_hex()
        entry = _Pending()
        with self._lock:
            if self._closed:
                raise _host_gone(method)
            self._pending[id] = entry
        self._writer.request(id, method, params)
        if not entry.done.wait(wait):
            with self._lock:
                self._pending.pop(id, None)
            if not entry.done.is_set():
                raise timed_out()
        if entry.error is not None:
            code, message, data = entry.error
            raise HostError(code, message, data, method=method)
        return entry.result

    def close(self) -> None:
        """stdin closed: every request still waiting fails now (its answer can never come), and so does every new one."""
        with self._lock:
            self._closed = True
            waiting = list(self._pending.values())
            self._pending.clear()
        for entry in waiting:
            entry.error = (-32603, "HOST_GONE: stdin closed before the host answered the request", None)
            entry.done.set()

    def client(self, invoke_id: str, deadline_ms: float) -> HostClient:
        return HostClient(self, invoke_id, deadline_ms)


class HostClient:
    """Reverse requests on behalf of one invoke (``ctx.host``). Every call blocks until the host
    answers, the call's timeout passes or the invoke's deadline comes, whichever is first.

    Raises HostError on an error answer, on a timeout (sampling -32005, storage -32030), and
    locally, without sending anything, when the host did not negotiate protocol 2.0 or the
    manifest lacks the capability (sampling -32008 NOT_NEGOTIATED, storage -32021 NOT_GRANTED).
    """

    def __init__(self, channel: HostChannel, invoke_id: str, deadline_ms: float) -> None:
        self._channel = channel
        self._invoke_id = invoke_id
        self._deadline_ms = deadline_ms
        self.storage = Storage(self)

    def request(self, method: str, params: dict | None = None, timeout: float | None = None):
        """Any reverse request; returns the host's ``result``.

        Args:
            method: e.g. ``sampling/createMessage``.
            params: The request's params; ``context.invoke_id`` and ``metadata.executa_invoke_id`` are added.
            timeout: Seconds to wait (sampling 90, storage 30 by default), never past the invoke's deadline.
        """
        return self._channel.request(self._invoke_id, self._deadline_ms, method, params, timeout)

    def sample(
        self,
        messages: list | None = None,
        *,
        prompt: str | None = None,
        max_tokens: int = 1024,
        system_prompt: str | None = None,
        temperature: float | None = None,
        stop_sequences: list | None = None,
        model_preferences: dict | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> dict:
        """``sampling/createMessage``: asks the host's language model; returns its result
        (``{role, content: {type, text}, model, stopReason, usage}``).

        Args:
            messages: ``[{"role": "user", "content": {"type": "text", "text": ...}}]``; or give ``prompt``.
            prompt: A single user message, when ``messages`` is not given.
            max_tokens: ``maxTokens`` (the host caps it at 8192).
            system_prompt: ``systemPrompt``.
            temperature: The sampling temperature (the host uses 0.7 when omitted).
            stop_sequences: ``stopSequences``.
            model_preferences: ``modelPreferences``: ``{hints: [{name}], costPriority, ...}``.
            metadata: Extra ``metadata``, e.g. ``{"tool": "summarize"}``.
            timeout: Seconds to wait; 90 by default.
        """
        if messages is None:
            messages = [{"role": "user", "content": {"type": "text", "text": prompt or ""}}]
        params: dict = {"messages": messages, "maxTokens": max_tokens}
        for key, value in (
            ("systemPrompt", system_prompt),
            ("temperature", temperature),
            ("stopSequences", stop_sequences),
            ("modelPreferences", model_preferences),
            ("metadata", metadata),
        ):
            if value is not None:
                params[key] = value
        return self.request("sampling/createMessage", params, timeout)


class Storage:
    """``storage/*``: the host's key-value store, scope ``"tool"`` (private to this plugin and user) by default."""

    def __init__(self, host: HostClient) -> None:
        self._host = host

    def _call(self, method: str, params: dict, scope: str, timeout: float | None, **optional):
        params.update((k, v) for k, v in optional.items() if v is not None)
        params["scope"] = scope
        return self._host.request(f"storage/{method}", params, timeout)

    def get(self, key: str, *, scope: str = "tool", timeout: float | None = None) -> dict:
        """``{value, etag, exists}``; a missing key is ``{value: None, exists: False}``."""
        return self._call("get", {"key": key}, scope, timeout)

    def set(
        self,
        key: str,
        value,
        *,
        scope: str = "tool",
        if_match: str | None = None,
        ttl_seconds: int | None = None,
        timeout: float | None = None,
    ) -> dict:
        """``{etag, generation, size_bytes}``."""
        return self._call("set", {"key": key, "value": value}, scope, timeout, if_match=if_match, ttl_seconds=ttl_seconds)

    def delete(self, key: str, *, scope: str = "tool", if_match: str | None = None, timeout: float | None = None) -> dict:
        """``{deleted: True}``, also for a key that did not exist."""
        return self._call("delete", {"key": key}, scope, timeout, if_match=if_match)

    def list(
        self,
        *,
        scope: str = "tool",
        prefix: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        kind: str | None = None,
        timeout: float | None = None,
    ) -> dict:
        """``{items: [...], next_cursor}``."""
        return self._call("list", {}, scope, timeout, prefix=prefix, cursor=cursor, limit=limit, kind=kind)
