/**
 * `web/search` and `web/fetch`, offline and deterministic, in the platform's shapes
 * (anna-app-core's dispatcher, anna-app-runtime-local's web_local.py): search results built from
 * the query, fetched pages as short texts naming their URL, per-URL failures (`ok: false`) for
 * what the platform's SSRF guard blocks, and the platform's own errors for a missing query or
 * missing urls (-32602 with data.errorCode "invalid_arg"). Mock rules answer first.
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { RpcError } from "../../protocol/index.js";
import { ruleAnswer, type Call } from "./call.js";
import { refuse } from "./params.js";
import type { Answer } from "./types.js";

/** The platform's limits: results per search, URLs per fetch, characters per page, fetch timeout. */
export const WEB_LIMITS = {
  defaultResults: 5,
  maxResults: 20,
  maxUrls: 10,
  defaultChars: 20_000,
  maxChars: 100_000,
} as const;
const TIME_RANGES = ["day", "week", "month", "year"];
const ALLOWED_PORTS = new Set([80, 443, 8080, 8443]);
const BLOCKED_HOSTS = new Set(["localhost", "169.254.169.254", "metadata.google.internal", "metadata.goog"]);
const META = { provider: "executa-mock", dev: true } as const;

/** The platform's answer to a bad argument: `HostRpcError("invalid_arg", ...)` as the harness relays it. */
const invalidArg = (message: string) =>
  refuse(RpcError.InvalidParams, message, { errorCode: "invalid_arg", details: null });

function intOr(value: unknown, fallback: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function handleWeb(call: Call): Answer {
  return call.method === "web/search" ? search(call) : fetchPages(call);
}

function search(call: Call): Answer {
  const query = typeof call.params.query === "string" ? call.params.query.trim() : "";
  if (!query) throw invalidArg("query required");
  const rule = call.rule();
  if (rule) return ruleAnswer(rule);
  const count = Math.min(intOr(call.params.max_results, WEB_LIMITS.defaultResults), WEB_LIMITS.maxResults);
  const slug =
    query
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "q";
  const news = call.params.topic === "news";
  const range =
    typeof call.params.time_range === "string" && TIME_RANGES.includes(call.params.time_range)
      ? call.params.time_range
      : undefined;
  if (range) call.note(`time_range ${range}: the mock host's results are the same for every range`);
  const results = Array.from({ length: count }, (_, i) => {
    const url = `https://example.com/${news ? "news" : "search"}/${slug}/${i + 1}`;
    return {
      title: `${query} — result ${i + 1}`,
      url,
      snippet: `A canned ${news ? "news item" : "page"} about "${query}" from the executa mock host (result ${i + 1} of ${count}).`,
      site: "example.com",
      published_at: news ? new Date(Date.UTC(2026, 0, 1 + i)).toISOString() : null,
      score: null,
    };
  });
  return { result: { results, provider_tier: "basic", quota_consumed: 0, _meta: META } };
}

function fetchPages(call: Call): Answer {
  const urls = call.params.urls;
  if (!Array.isArray(urls) || urls.length === 0) throw invalidArg("urls must be a non-empty list");
  if (urls.length > WEB_LIMITS.maxUrls) throw invalidArg(`too many urls (max ${WEB_LIMITS.maxUrls})`);
  const rule = call.rule();
  if (rule) return ruleAnswer(rule);
  const maxChars = Math.min(intOr(call.params.max_chars, WEB_LIMITS.defaultChars), WEB_LIMITS.maxChars);
  const pages = urls.map((url) => page(String(url), maxChars));
  return { result: { pages, quota_consumed: 0, _meta: META } };
}

/** Why the platform's fetcher would refuse the URL before fetching it, if it would. */
function blocked(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return true;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return true;
  if (u.username || u.password || !u.hostname) return true;
  const port = u.port ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
  if (!ALLOWED_PORTS.has(port)) return true;
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (BLOCKED_HOSTS.has(host) || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && privateAddress(host);
}

function privateAddress(ip: string): boolean {
  if (ip.includes(":")) return ip === "::1" || ip === "::" || /^f[cd]|^fe[89ab]/i.test(ip);
  const [a, b] = ip.split(".").map(Number) as [number, number];
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function page(url: string, maxChars: number) {
  if (blocked(url)) return { url, ok: false, error: "SSRF_BLOCKED" };
  const id = createHash("sha256").update(url).digest("hex").slice(0, 8);
  const content = `Canned page ${id} for ${url}, from the executa mock host. It stands for the page's main text, extracted as the platform's fetcher would.`;
  return {
    url,
    ok: true,
    final_url: url,
    title: `Page ${id}`,
    content: content.slice(0, maxChars),
    truncated: content.length > maxChars,
    error: null,
  };
}
