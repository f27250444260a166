"""``storage/*``: the host's key-value store, in the host's default scope or the tool, user or app scope."""

from __future__ import annotations

import json
from typing import Literal, TypedDict

StorageScope = Literal["tool", "user", "app"]
SCOPES = ("tool", "user", "app")


class StorageValue(TypedDict, total=False):
    value: object  # None for a missing key
    etag: str
    exists: bool


class StorageWritten(TypedDict, total=False):
    etag: str
    generation: int
    size_bytes: int


class StorageList(TypedDict, total=False):
    items: list
    next_cursor: str | None


def scope_of(r, method: str, scope: str | None) -> dict:
    """``{"scope": scope}`` to send, or ``{}`` when not given (the host's default applies); a scope
    outside tool, user and app is refused with the namespace's INVALID_REQUEST."""
    if scope is None:
        return {}
    if scope not in SCOPES:
        raise r.invalid(method, f'scope must be "tool", "user" or "app", got {json.dumps(scope)}')
    return {"scope": scope}


class Storage:
    """``storage/*`` (``ctx.host.storage``; needs ``aps.kv``, or an ``aps.scope.*`` capability).

    No scope is sent unless given: the host's default applies (``"app"``, the plugin's own app
    scope). Scopes: ``"tool"`` (private to this user and plugin), ``"user"`` (the user's drive,
    shared by every plugin they grant) and ``"app"`` (shared by the installs of one Anna App).
    Every call waits 30 s by default (``timeout``, in seconds).
    """

    def __init__(self, r) -> None:
        self._r = r

    def _call(self, name: str, params: dict, scope: str, timeout: float | None, **optional):
        method = f"storage/{name}"
        params.update((k, v) for k, v in optional.items() if v is not None)
        params.update(scope_of(self._r, method, scope))
        return self._r.call(method, params, timeout)

    def get(self, key: str, *, scope: StorageScope | None = None, timeout: float | None = None) -> StorageValue:
        """``{value, etag, exists}``; a missing key is ``{value: None, exists: False}``, not an error."""
        return self._call("get", {"key": key}, scope, timeout)

    def set(
        self,
        key: str,
        value,
        *,
        scope: StorageScope | None = None,
        if_match: str | None = None,
        ttl_seconds: int | None = None,
        timeout: float | None = None,
    ) -> StorageWritten:
        """``{etag, generation, size_bytes}``; -32023 PRECONDITION_FAILED when ``if_match`` is not the current etag."""
        return self._call("set", {"key": key, "value": value}, scope, timeout, if_match=if_match, ttl_seconds=ttl_seconds)

    def delete(self, key: str, *, scope: StorageScope | None = None, if_match: str | None = None, timeout: float | None = None) -> dict:
        """``{deleted: True}``, also for a key that did not exist."""
        return self._call("delete", {"key": key}, scope, timeout, if_match=if_match)

    def list(
        self,
        *,
        scope: StorageScope | None = None,
        prefix: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        kind: Literal["kv", "file"] | None = None,
        timeout: float | None = None,
    ) -> StorageList:
        """``{items: [...], next_cursor}``."""
        return self._call("list", {}, scope, timeout, prefix=prefix, cursor=cursor, limit=limit, kind=kind)
