/** web/search and web/fetch: the platform's shapes and errors, deterministic answers, rules first. */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { MockHost, parseRules } from "../../../src/host/index.js";
import { call, error, result } from "./harness.js";

type Search = {
  results: { title: string; url: string; snippet: string; site: string; published_at: string | null; score: null }[];
  provider_tier: string;
  quota_consumed: number;
};
type Fetch = {
  pages: {
    url: string;
    ok: boolean;
    final_url?: string;
    title?: string;
    content?: string;
    truncated?: boolean;
    error: string | null;
  }[];
  quota_consumed: number;
};

const hosts: MockHost[] = [];
after(() => Promise.all(hosts.map((h) => h.close())));
const newHost = (...args: ConstructorParameters<typeof MockHost>) => {
  const host = new MockHost(...args);
  hosts.push(host);
  return host;
};

describe("web/search", () => {
  it("answers in the platform's shape, the same results for the same query, max_results capped at 20", async () => {
    const host = newHost();
    const r = result<Search>(await call(host, "web/search", { query: "executa plugins", max_results: 3 }));
    assert.equal(r.results.length, 3);
    assert.deepEqual(Object.keys(r.results[0]!).sort(), ["published_at", "score", "site", "snippet", "title", "url"]);
    assert.match(r.results[0]!.url, /^https:\/\/example\.com\/search\/executa-plugins\/1$/);
    assert.equal(r.provider_tier, "basic");
    assert.equal(r.quota_consumed, 0);
    assert.deepEqual(
      result<Search>(await call(host, "web/search", { query: "executa plugins", max_results: 3 })).results,
      r.results,
    );
    assert.equal(result<Search>(await call(host, "web/search", { query: "x" })).results.length, 5);
    assert.equal(result<Search>(await call(host, "web/search", { query: "x", max_results: 500 })).results.length, 20);
    assert.ok(result<Search>(await call(host, "web/search", { query: "x", topic: "news" })).results[0]!.published_at);
  });

  it("refuses a missing or blank query the way the platform does", async () => {
    const host = newHost();
    for (const params of [{}, { query: "  " }, { query: 42 }]) {
      const e = error(await call(host, "web/search", params));
      assert.deepEqual([e.code, e.message, e.data?.errorCode], [-32602, "query required", "invalid_arg"]);
    }
  });
});

describe("web/fetch", () => {
  it("answers a page per URL; what the platform's SSRF guard blocks is a failed page, not a failed request", async () => {
    const host = newHost();
    const r = result<Fetch>(
      await call(host, "web/fetch", {
        urls: ["https://example.org/a", "http://127.0.0.1/admin", "file:///etc/passwd", "http://localhost:3000/"],
        max_chars: 10,
      }),
    );
    assert.deepEqual(
      r.pages.map((p) => [p.ok, p.error]),
      [
        [true, null],
        [false, "SSRF_BLOCKED"],
        [false, "SSRF_BLOCKED"],
        [false, "SSRF_BLOCKED"],
      ],
    );
    assert.equal(r.pages[0]!.content!.length, 10);
    assert.equal(r.pages[0]!.truncated, true);
    assert.equal(r.pages[0]!.final_url, "https://example.org/a");
    assert.deepEqual(
      result<Fetch>(await call(host, "web/fetch", { urls: ["https://example.org/a"] })).pages[0]!.title,
      r.pages[0]!.title,
    );
  });

  it("refuses missing, empty or too many urls the way the platform does", async () => {
    const host = newHost();
    for (const params of [{}, { urls: [] }, { urls: "https://example.org" }]) {
      const e = error(await call(host, "web/fetch", params));
      assert.deepEqual(
        [e.code, e.message, e.data?.errorCode],
        [-32602, "urls must be a non-empty list", "invalid_arg"],
      );
    }
    const many = error(
      await call(host, "web/fetch", { urls: Array.from({ length: 11 }, (_, i) => `https://example.org/${i}`) }),
    );
    assert.equal(many.message, "too many urls (max 10)");
  });

  it("answers from mock rules first (a fixture of your own)", async () => {
    const rules = parseRules(
      '{"method": "web/search", "match": {"query": "weather"}, "result": {"results": [{"title": "Sunny", "url": "https://w.example/1"}], "provider_tier": "basic", "quota_consumed": 0}}',
      "web.jsonl",
    );
    const host = newHost({ rules });
    assert.equal(result<Search>(await call(host, "web/search", { query: "weather" })).results[0]!.title, "Sunny");
    assert.equal(result<Search>(await call(host, "web/search", { query: "other" })).results.length, 5);
    assert.deepEqual(host.unusedRules(), []);
  });
});
