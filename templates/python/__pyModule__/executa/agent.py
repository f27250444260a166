"""``agent/*``: one-shot completions, and agent sessions (create, run, cancel, history, refresh,
delete, list) with buffered runs."""

from __future__ import annotations

from typing import Literal, TypedDict

from .sampling import SampleResult, request_params, sample

SYSTEM_PROMPT_MAX_CHARS = 4000
LIST_LIMIT = range(1, 101)


class AgentWarning(TypedDict):
    code: str  # e.g. NO_TOOLS_AVAILABLE
    message: str


class AgentRun(TypedDict, total=False):
    """A finished (buffered) run: the host's ``{run_id, stream_id, frames, final}`` and what the runtime reads from it."""

    run_id: str
    stream_id: str
    frames: list  # each {event, ...}: run_meta, token / delta / message (with text), tool_call, tool_result, final, complete
    final: dict | None
    meta: dict | None  # the run_meta frame, when the host sent one
    warnings: list[AgentWarning]  # meta's warnings (each is also written once to the tool's log)
    text: str  # the final frame's text, else the token / delta / message texts joined


def _given(members: dict) -> dict:
    """The members that are given (the host takes a missing member and a null alike)."""
    return {k: v for k, v in members.items() if v is not None}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _str(value) -> str:
    return value if isinstance(value, str) else ""


def _run_of(r: dict, log) -> AgentRun:
    frames = [f for f in _list(r.get("frames")) if isinstance(f, dict)]
    meta = next((f for f in frames if f.get("event") == "run_meta"), None)
    warnings: list = [w for w in _list(meta.get("warnings") if meta else None) if isinstance(w, dict)]
    run_id = _str(r.get("run_id"))
    for w in warnings:
        log(f"agent run {run_id}: warning {w.get('code')}: {w.get('message')}")
    final = r.get("final")
    if not isinstance(final, dict):
        final = next((f for f in reversed(frames) if f.get("event") == "final"), None)
    if final is not None and isinstance(final.get("text"), str):
        text = final["text"]
    else:
        text = "".join(
            f["text"] for f in frames if f.get("event") in ("token", "delta", "message") and isinstance(f.get("text"), str)
        )
    return {
        **r,
        "run_id": run_id,
        "stream_id": _str(r.get("stream_id")),
        "frames": frames,
        "final": final,
        "meta": meta,
        "warnings": warnings,
        "text": text,
    }


class AgentSession:
    """An agent session of the host, by its uuid (needs ``llm.agent.auto``).

    Attributes:
        uuid: The session's ``app_session_uuid``.
        info: What ``agent/session.create`` (or the latest refresh) answered; only the uuid for
            ``host.agent.session(uuid)``.
    """

    def __init__(self, r, uuid: str, info: dict) -> None:
        self._r = r
        self.uuid = uuid
        self.info = info

    def _call(self, method: str, params: dict, timeout: float | None):
        return self._r.call(f"agent/session.{method}", {"app_session_uuid": self.uuid, **_given(params)}, timeout)

    def run(
        self,
        content: str,
        *,
        attachments: list | None = None,
        recursion_limit: int | None = None,
        run_id: str | None = None,
        system_prompt: str | None = None,
        timeout: float | None = None,
    ) -> AgentRun:
        """``agent/session.run``: one turn, buffered until it finishes.

        Args:
            content: The user's message.
            attachments: ``[{type, url}, ...]``.
            recursion_limit: The most agent steps of this turn.
            run_id: An id of your own for the run (to cancel it from another invoke).
            system_prompt: A system prompt for this turn only.
            timeout: Seconds to wait; 300 by default.
        """
        params = {
            "content": content,
            "attachments": attachments,
            "recursion_limit": recursion_limit,
            "run_id": run_id,
            "systemPrompt": system_prompt,
        }
        return _run_of(self._call("run", params, timeout), self._r.log)

    def cancel(self, run_id: str, *, timeout: float | None = None) -> dict:
        """``agent/session.cancel``: ``{cancelled, run_id}``."""
        return self._call("cancel", {"run_id": run_id}, timeout)

    def history(self, *, timeout: float | None = None) -> dict:
        """``agent/session.history``: ``{messages: [{role, content}]}``."""
        return self._call("history", {}, timeout)

    def refresh(self, *, ttl_seconds: int | None = None, timeout: float | None = None) -> dict:
        """``agent/session.refresh``: extends the session; returns its lifecycle fields (also merged into ``info``)."""
        result = self._call("refresh", {"ttl_seconds": ttl_seconds}, timeout)
        self.info = {**self.info, **result}
        return result

    def delete(self, *, timeout: float | None = None) -> dict:
        """``agent/session.delete``: ``{deleted: True}``."""
        return self._call("delete", {}, timeout)


class AgentClient:
    """``agent/*`` (``ctx.host.agent``)."""

    def __init__(self, r) -> None:
        self._r = r

    def complete(
        self,
        messages: list | None = None,
        *,
        prompt: str | None = None,
        max_tokens: int = 1024,
        system_prompt: str | None = None,
        temperature: float | None = None,
        stop_sequences: list[str] | None = None,
        model_preferences: dict | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> SampleResult:
        """``agent/complete``: a one-shot completion (needs ``llm.sample``); the arguments and the
        result are those of ``host.sample`` without structured output. Waits 120 s by default."""
        optional = {
            "systemPrompt": system_prompt,
            "temperature": temperature,
            "stopSequences": stop_sequences,
            "modelPreferences": model_preferences,
            "metadata": metadata,
        }
        method = "agent/complete"
        return sample(self._r, method, request_params(self._r, method, messages, prompt, max_tokens, optional), timeout)

    def create(
        self,
        *,
        kind: Literal["agent"] = "agent",
        submode: Literal["auto", "fixed"] | None = None,
        fixed_client_id: str | None = None,
        label: str | None = None,
        quota_caps: dict | None = None,
        system_prompt: str | None = None,
        ttl_seconds: int | None = None,
        inherit_host_tools: bool | None = None,
        granted_tools: list[str] | None = None,
        timeout: float | None = None,
    ) -> AgentSession:
        """``agent/session.create`` (needs ``llm.agent.auto``): a new session.

        Args:
            kind: ``"agent"``, the one kind there is.
            submode: ``"auto"`` or ``"fixed"`` (``agent_submode``).
            fixed_client_id: The client of a ``"fixed"`` session.
            label: A name to find the session by in ``list``.
            quota_caps: Limits of the session's spending.
            system_prompt: At most 4,000 characters.
            ttl_seconds: How long the session lives while idle.
            inherit_host_tools: Let the agent use the host's tools.
            granted_tools: The tools the agent may call.
            timeout: Seconds to wait; 30 by default.
        """
        if system_prompt is not None and len(system_prompt) > SYSTEM_PROMPT_MAX_CHARS:
            raise self._r.invalid(
                "agent/session.create",
                f"system_prompt is {len(system_prompt)} characters; the host accepts at most {SYSTEM_PROMPT_MAX_CHARS}",
            )
        params = _given(
            {
                "kind": kind,
                "agent_submode": submode,
                "fixed_client_id": fixed_client_id,
                "label": label,
                "quota_caps": quota_caps,
                "system_prompt": system_prompt,
                "ttl_seconds": ttl_seconds,
                "inherit_host_tools": inherit_host_tools,
                "granted_tools": granted_tools,
            }
        )
        method = "agent/session.create"
        info = self._r.call(method, params, timeout)
        if not isinstance(info.get("app_session_uuid"), str):
            raise self._r.malformed(method, "has no app_session_uuid string")
        return AgentSession(self._r, info["app_session_uuid"], info)

    def list(self, *, include_expired: bool | None = None, limit: int | None = None, timeout: float | None = None) -> dict:
        """``agent/session.list``: ``{sessions: [...]}``; ``limit`` 1 to 100 (50 by default)."""
        if limit is not None and (type(limit) is not int or limit not in LIST_LIMIT):
            raise self._r.invalid("agent/session.list", f"limit must be an integer from 1 to 100, got {limit!r}")
        return self._r.call("agent/session.list", _given({"include_expired": include_expired, "limit": limit}), timeout)

    def session(self, uuid: str) -> AgentSession:
        """A session created earlier (by this or another invoke), by its uuid."""
        return AgentSession(self._r, uuid, {"app_session_uuid": uuid})
