"""Bytes to the host: ``host/uploadFile`` (transient uploads, inline or negotiate + PUT + confirm)
and ``files/*`` (object storage: upload_begin + PUT + upload_complete, download URLs, list,
delete). The PUT goes to the presigned URL the host gave, with urllib.request."""

from __future__ import annotations

import base64
import json
import re
from typing import TypedDict, Union

from .errors import STORAGE_UPSTREAM, UPLOAD_STORAGE_ERROR
from .namespaces import PUT_TIMEOUT_S
from .storage import StorageScope, scope_of

# The most bytes an inline upload carries (8 MiB); larger goes negotiate + PUT + confirm.
INLINE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024

Bytes = Union[bytes, bytearray, memoryview, str]  # a str is sent as its UTF-8


class UploadResult(TypedDict, total=False):
    download_url: str
    r2_key: str
    expires_at: str
    size_bytes: int


class DownloadUrl(TypedDict):
    url: str
    expires_at: str


class FilesList(TypedDict, total=False):
    items: list  # [{path, size_bytes, content_type, updated_at}]
    next_cursor: str | None


def _bytes(data: Bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def _given(members: dict) -> dict:
    return {k: v for k, v in members.items() if v is not None}


def _put(r, method: str, fail_code: int, offer: dict, data: bytes, timeout: float | None) -> str | None:
    """PUTs the bytes to the offer's ``put_url`` with its ``headers``, within the PUT timeout and the
    deadline. A status other than 200 or 201, or no answer, fails with ``fail_code`` (the
    namespace's TIMEOUT when the wait ran out). Returns the response's ETag header."""
    url = offer.get("put_url")
    if not isinstance(url, str) or not re.match(r"https?://", url, re.IGNORECASE):
        raise r.error(method, fail_code, f"the host's put_url is not an http(s) URL: {json.dumps(url)}")
    given = offer.get("headers")
    headers = {k: v for k, v in given.items() if isinstance(v, str)} if isinstance(given, dict) else {}
    if not any(k.lower() == "content-type" for k in headers):
        headers["Content-Type"] = "application/octet-stream"  # else urllib sends a form's content type
    wait = min(PUT_TIMEOUT_S if timeout is None else timeout, r.seconds_left())
    if wait <= 0:
        raise r.timeout(method, "the PUT of the bytes", wait)
    import urllib.error  # only for a PUT: keeps start-up light
    import urllib.request

    request = urllib.request.Request(url, data=data, headers=headers, method="PUT")
    try:
        with urllib.request.urlopen(request, timeout=wait) as response:
            response.read()
            status, etag = response.status, response.headers.get("ETag")
    except urllib.error.HTTPError as err:
        status, etag = err.code, None
        err.close()
    except TimeoutError:
        raise r.timeout(method, "the PUT of the bytes", wait) from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        if isinstance(reason, TimeoutError):
            raise r.timeout(method, "the PUT of the bytes", wait) from None
        raise r.error(method, fail_code, f"the PUT of the bytes failed: {reason}") from None
    if status not in (200, 201):
        raise r.error(method, fail_code, f"the PUT of the bytes was answered HTTP {status}")
    return etag


def upload(
    r,
    data: Bytes,
    *,
    filename: str,
    mime_type: str,
    purpose: str | None = None,
    metadata: dict | None = None,
    timeout: float | None = None,
) -> UploadResult:
    """``host/uploadFile``: inline up to 8 MiB, else negotiate, PUT and confirm."""
    method = "host/uploadFile"
    data = _bytes(data)
    common = {"filename": filename, "mime_type": mime_type, **_given({"purpose": purpose, "metadata": metadata})}
    if len(data) <= INLINE_UPLOAD_MAX_BYTES:
        content_b64 = base64.b64encode(data).decode("ascii")
        return r.call(method, {"mode": "inline", **common, "content_b64": content_b64}, timeout)
    offer = r.call(method, {"mode": "negotiate", **common, "size_bytes": len(data)}, timeout)
    _put(r, method, UPLOAD_STORAGE_ERROR, offer, data, timeout)
    return r.call(method, {"mode": "confirm", "r2_key": offer.get("r2_key")}, timeout)


class Files:
    """``files/*``: the host's object storage (``ctx.host.files``; needs ``aps.files`` or
    ``aps.scope.admin``). No scope is sent unless given (the host's default, ``"app"``, applies),
    as for storage. ``timeout`` is in seconds: upload_begin and upload_complete wait 60 s by
    default, the others 30 s, the PUT 120 s."""

    def __init__(self, r) -> None:
        self._r = r

    def upload(
        self,
        path: str,
        data: Bytes,
        *,
        scope: StorageScope | None = None,
        content_type: str | None = None,
        metadata: dict | None = None,
        timeout: float | None = None,
    ) -> dict:
        """``files/upload_begin``, a PUT of the bytes, ``files/upload_complete``; returns the host's confirmation."""
        data = _bytes(data)
        begin = "files/upload_begin"
        where = {"path": path, **scope_of(self._r, begin, scope)}
        content = _given({"content_type": content_type})
        offer = self._r.call(begin, {**where, "size_bytes": len(data), **content, **_given({"metadata": metadata})}, timeout)
        etag = _put(self._r, begin, STORAGE_UPSTREAM, offer, data, timeout)
        complete = {**where, **_given({"etag": etag}), "size_bytes": len(data), **content}
        return self._r.call("files/upload_complete", complete, timeout)

    def download_url(
        self, path: str, *, scope: StorageScope | None = None, expires_in: int | None = None, timeout: float | None = None
    ) -> DownloadUrl:
        """``files/download_url``: ``{url, expires_at}``, a URL that reads the file for ``expires_in`` seconds."""
        method = "files/download_url"
        expires = _given({"expires_in": expires_in, "ttl_seconds": expires_in})
        a = self._r.call(method, {"path": path, **scope_of(self._r, method, scope), **expires}, timeout)
        return {"url": a["url"] if isinstance(a.get("url"), str) else a.get("get_url"), "expires_at": a.get("expires_at")}

    def list(
        self,
        *,
        scope: StorageScope | None = None,
        prefix: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        timeout: float | None = None,
    ) -> FilesList:
        """``files/list``: ``{items: [{path, size_bytes, content_type, updated_at}], next_cursor}``."""
        method = "files/list"
        params = {**scope_of(self._r, method, scope), **_given({"prefix": prefix, "cursor": cursor, "limit": limit})}
        return self._r.call(method, params, timeout)

    def delete(self, path: str, *, scope: StorageScope | None = None, timeout: float | None = None) -> dict:
        """``files/delete``: ``{deleted: True}``."""
        method = "files/delete"
        return self._r.call(method, {"path": path, **scope_of(self._r, method, scope)}, timeout)
