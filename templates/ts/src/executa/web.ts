/** `web/search` and `web/fetch`: the host's web search and page extraction (needs `web.search` / `web.fetch`). */
import type { InvokeRequests } from "./host.js";

export interface WebSearchRequest {
  /** What to search for. */
  query: string;
  /** How many results (the host caps it; 5 by default on Anna's local-dev runtime). */
  maxResults?: number;
  /** `"basic"` or `"advanced"`, where the host's provider has both. */
  searchDepth?: string;
  /** `"general"` or `"news"`. */
  topic?: string;
  /** `"day"`, `"week"`, `"month"` or `"year"`. */
  timeRange?: string;
  /** A region code, e.g. `"us-en"`. */
  region?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** How long to wait for the host, in ms (30 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

export interface WebSearchHit {
  title: string;
  url: string;
  snippet: string;
  site?: string;
  published_at?: string | null;
  score?: number | null;
  [key: string]: unknown;
}

export interface WebSearchResult {
  results: WebSearchHit[];
  provider_tier?: string;
  quota_consumed?: number;
  [key: string]: unknown;
}

export interface WebFetchRequest {
  /** The page to fetch; or give `urls` (up to 10 pages at once). */
  url?: string;
  urls?: string[];
  /** The text format the host extracts, e.g. `"markdown"` or `"text"`. */
  format?: string;
  /** The most characters of each page (20,000 by default). */
  maxChars?: number;
  /** How long the host may take to fetch each page, in ms (`timeout_ms` on the wire). */
  fetchTimeoutMs?: number;
  /** How long to wait for the host, in ms (60 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

/** One fetched page: `ok` false with an `error` (`HTTP_404`, `SSRF_BLOCKED`, `TIMEOUT`, ...) when that page failed. */
export interface WebPage {
  url: string;
  ok: boolean;
  final_url?: string;
  title?: string | null;
  content?: string;
  truncated?: boolean;
  error?: string | null;
  [key: string]: unknown;
}

export interface WebFetchResult {
  pages: WebPage[];
  quota_consumed?: number;
  [key: string]: unknown;
}

export interface WebClient {
  /** `web/search` (needs `web.search`): `{results: [{title, url, snippet, ...}], provider_tier, quota_consumed}`. */
  search(request: WebSearchRequest): Promise<WebSearchResult>;
  /** `web/fetch` (needs `web.fetch`): one page per URL, each `{url, ok, title, content, ...}`; a failed page does not fail the others. */
  fetch(request: WebFetchRequest): Promise<WebFetchResult>;
}

/** The members that are given. */
const given = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined));
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

export function webClient(r: InvokeRequests): WebClient {
  return {
    search: async (o) => {
      const method = "web/search";
      if (!nonEmpty(o?.query)) throw r.invalid(method, "query is required: give the words to search for, e.g. web.search({query: \"executa plugins\"})");
      const params = given({
        query: o.query, max_results: o.maxResults, search_depth: o.searchDepth, topic: o.topic, time_range: o.timeRange,
        region: o.region, include_domains: o.includeDomains, exclude_domains: o.excludeDomains,
      });
      return (await r.call(method, params, o.timeoutMs)) as WebSearchResult;
    },
    fetch: async (o) => {
      const method = "web/fetch";
      const urls = o?.urls ?? (o?.url === undefined ? undefined : [o.url]);
      if (!Array.isArray(urls) || urls.length === 0) throw r.invalid(method, "url is required: give the page to fetch, e.g. web.fetch({url: \"https://example.com\"}), or urls: [...]");
      const bad = urls.findIndex((u) => !nonEmpty(u));
      if (bad >= 0) throw r.invalid(method, `urls[${bad}] is not a URL: give each page as a non-empty string`);
      const params = given({ urls, format: o.format, max_chars: o.maxChars, timeout_ms: o.fetchTimeoutMs });
      return (await r.call(method, params, o.timeoutMs)) as WebFetchResult;
    },
  };
}
