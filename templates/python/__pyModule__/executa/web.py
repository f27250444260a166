"""``web/search`` and ``web/fetch``: the host's web search and page extraction (``ctx.host.web``)."""

from __future__ import annotations

from typing import TypedDict


class WebSearchResult(TypedDict, total=False):
    """``{results: [{title, url, snippet, site, published_at, score}], provider_tier, quota_consumed}``."""

    results: list[dict]
    provider_tier: str
    quota_consumed: float


class WebFetchResult(TypedDict, total=False):
    """``{pages: [{url, ok, final_url, title, content, truncated, error}], quota_consumed}``: a page
    that failed has ``ok`` False and an ``error`` (``HTTP_404``, ``SSRF_BLOCKED``, ``TIMEOUT``, ...)."""

    pages: list[dict]
    quota_consumed: float


def _given(members: dict) -> dict:
    return {k: v for k, v in members.items() if v is not None}


def _non_empty(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


class Web:
    """``web/*`` (``ctx.host.web``). Errors raise :class:`~executa.errors.WebError`, named by the host's
    ``data.errorCode`` (``invalid_arg``, ``not_implemented``, ...). ``timeout`` is in seconds."""

    def __init__(self, r) -> None:
        self._r = r

    def search(
        self,
        query: str | None = None,
        *,
        max_results: int | None = None,
        search_depth: str | None = None,
        topic: str | None = None,
        time_range: str | None = None,
        region: str | None = None,
        include_domains: list[str] | None = None,
        exclude_domains: list[str] | None = None,
        timeout: float | None = None,
    ) -> WebSearchResult:
        """``web/search`` (needs ``web.search``).

        Args:
            query: What to search for (required).
            max_results: How many results (the host caps it).
            search_depth: ``"basic"`` or ``"advanced"``, where the host's provider has both.
            topic: ``"general"`` or ``"news"``.
            time_range: ``"day"``, ``"week"``, ``"month"`` or ``"year"``.
            region: A region code, e.g. ``"us-en"``.
            include_domains: Only these sites.
            exclude_domains: Never these sites.
            timeout: Seconds to wait; 30 by default.
        """
        method = "web/search"
        if not _non_empty(query):
            raise self._r.invalid(method, 'query is required: give the words to search for, e.g. web.search(query="executa plugins")')
        optional = {
            "max_results": max_results,
            "search_depth": search_depth,
            "topic": topic,
            "time_range": time_range,
            "region": region,
            "include_domains": include_domains,
            "exclude_domains": exclude_domains,
        }
        return self._r.call(method, {"query": query, **_given(optional)}, timeout)

    def fetch(
        self,
        url: str | None = None,
        *,
        urls: list[str] | None = None,
        format: str | None = None,
        max_chars: int | None = None,
        fetch_timeout_ms: int | None = None,
        timeout: float | None = None,
    ) -> WebFetchResult:
        """``web/fetch`` (needs ``web.fetch``): one page per URL; a failed page does not fail the others.

        Args:
            url: The page to fetch; or give ``urls`` (up to 10 pages at once).
            format: The text format the host extracts, e.g. ``"markdown"`` or ``"text"``.
            max_chars: The most characters of each page (20,000 by default).
            fetch_timeout_ms: How long the host may take to fetch each page (``timeout_ms`` on the wire).
            timeout: Seconds to wait for the host; 60 by default.
        """
        method = "web/fetch"
        pages = urls if urls is not None else (None if url is None else [url])
        if not isinstance(pages, (list, tuple)) or not pages:
            raise self._r.invalid(
                method, 'url is required: give the page to fetch, e.g. web.fetch(url="https://example.com"), or urls=[...]'
            )
        for i, page in enumerate(pages):
            if not _non_empty(page):
                raise self._r.invalid(method, f"urls[{i}] is not a URL: give each page as a non-empty string")
        optional = {"format": format, "max_chars": max_chars, "timeout_ms": fetch_timeout_ms}
        return self._r.call(method, {"urls": list(pages), **_given(optional)}, timeout)
