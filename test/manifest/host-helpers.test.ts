/**
 * The helper table of src/manifest/host-helpers.ts is docs/host-services.md's, read from the page;
 * every capability the page names is one the validator knows and unlocks the methods the page
 * says; and the pieces of the check: resolving raw calls, the warnings, locating executa.json items.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { HOST_HELPERS, resolveHostCalls, type RawHostCall } from "../../src/manifest/host-helpers.js";
import { hostUsageDiagnostics, locateArrayItem } from "../../src/manifest/host-usage.js";
import type { HostCall } from "../../src/manifest/model.js";
import {
  capabilitiesForMethod,
  HOST_CAPABILITIES,
  isHostCapability,
  validateManifest,
  type Manifest,
} from "../../src/protocol/index.js";
import type { Language } from "../../src/project/index.js";

const PAGE = readFileSync(join(PACKAGE_ROOT, "docs", "host-services.md"), "utf8");
const COLUMNS: Record<string, Language> = { TS: "ts", Python: "python", Go: "go" };

const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const cellsOf = (line: string) =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

interface PageTable {
  heading: string;
  header: string[];
  rows: string[][];
}

function pageTables(): PageTable[] {
  const tables: PageTable[] = [];
  let heading = "";
  let current: PageTable | undefined;
  for (const line of PAGE.split("\n")) {
    if (line.startsWith("## ")) heading = line;
    if (!line.startsWith("|")) {
      current = undefined;
      continue;
    }
    if (!current) tables.push((current = { heading, header: cellsOf(line), rows: [] }));
    else if (!/^\|[-| ]+\|$/.test(line)) current.rows.push(cellsOf(line));
  }
  return tables;
}

/** Per language, what the page's helper tables say: helper -> method, session method -> method, the session factories. */
function pageHelpers() {
  const out = new Map<
    Language,
    { host: Map<string, string | null>; session: Map<string, string>; factories: string[] }
  >();
  for (const lang of Object.values(COLUMNS)) out.set(lang, { host: new Map(), session: new Map(), factories: [] });
  for (const table of pageTables()) {
    if (!table.header.includes("TS")) continue;
    const headingMethods = codes(table.heading).filter((c) => c.includes("/"));
    if (headingMethods.length === 0) continue; // _display: not a host method
    for (const row of table.rows) {
      let method: string | null;
      if (table.header[0] === "method") {
        const named = codes(row[0]!).filter((c) => c.includes("/"));
        // A row of several steps of one helper (files upload) sends the heading's family.
        method = named.length === 1 ? named[0]! : codes(row[0]!).length ? headingMethods[0]!.replace(/\*$/, "") : null;
      } else method = headingMethods[0]!;
      table.header.forEach((column, i) => {
        const lang = COLUMNS[column];
        if (!lang) return;
        const call = codes(row[i]!)[0]!.replace(/^await /, "");
        const callee = call.slice(0, call.indexOf("("));
        const entry = out.get(lang)!;
        const host = /^(?:ctx\.host|inv\.Host)\.(.+)$/.exec(callee);
        const session = /^session\.(.+)$/.exec(callee);
        // Progress is a notification of the invoke, not a host helper.
        if (/^(?:ctx\.progress|inv\.(?:Progress|ToolUpdate|ProgressAs))$/.test(callee)) return;
        if (host) {
          entry.host.set(host[1]!, method);
          if (method === "agent/session.create" || method === null) entry.factories.push(host[1]!);
        } else if (session && method) entry.session.set(session[1]!, method);
        else assert.fail(`unexpected helper on the page: ${call}`);
      });
    }
  }
  return out;
}

test("the helper table is docs/host-services.md's, in every language", () => {
  const page = pageHelpers();
  for (const [lang, expected] of page) {
    const table = HOST_HELPERS[lang];
    assert.ok(expected.host.size >= 16, `${lang}: the page lists the helpers (${expected.host.size})`);
    assert.deepEqual(new Map([...table.host].sort()), new Map([...expected.host].sort()), `${lang}: host helpers`);
    assert.deepEqual(
      new Map([...table.session].sort()),
      new Map([...expected.session].sort()),
      `${lang}: agent session helpers`,
    );
    assert.deepEqual(
      [...table.sessionFactories].sort(),
      expected.factories.sort(),
      `${lang}: the helpers that give a session`,
    );
  }
  // The generic helper: `host.request(method, params, timeout)` (Go `Host.Request(ctx, method, params)`).
  for (const [pattern, langs] of [
    [/`host\.request\(([^)]*)\)`/, ["ts", "python"]],
    [/`Host\.Request\(([^)]*)\)`/, ["go"]],
  ] as const) {
    const params = pattern.exec(PAGE)?.[1]?.split(/,\s*/);
    assert.ok(params, `the page names ${pattern}`);
    for (const lang of langs) {
      assert.equal(HOST_HELPERS[lang].request.name, lang === "go" ? "Request" : "request");
      assert.equal(HOST_HELPERS[lang].request.argument, params.indexOf("method"));
    }
  }
});

test("every capability the page names is known to the validator and unlocks the methods the page says", () => {
  const table = pageTables().find(
    (t) => t.header[0] === "namespace" && t.header.some((h) => h.startsWith("capability")),
  );
  assert.ok(table, "the page's namespace table");
  const column = table.header.findIndex((h) => h.startsWith("capability"));
  const all = new Set<string>();
  for (const row of table.rows) {
    const named = codes(row[column]!);
    assert.ok(named.length > 0, row.join(" | "));
    // `aps.scope.*` on the page stands for every allow-listed name under it.
    const capabilities = named.flatMap((c) =>
      c.endsWith(".*") ? Object.keys(HOST_CAPABILITIES).filter((k) => k.startsWith(c.slice(0, -1))) : [c],
    );
    for (const cap of capabilities) {
      assert.ok(isHostCapability(cap), `${cap} is in HOST_CAPABILITIES`);
      all.add(cap);
    }
    for (const method of codes(row[1]!)) {
      const concrete = method.replace(/\*$/, "probe");
      assert.deepEqual(
        capabilitiesForMethod(concrete).sort(),
        [...capabilities].sort(),
        `${method} needs any of ${capabilities.join(", ")}`,
      );
    }
  }
  assert.equal(all.size, 18);
  const manifest = {
    name: "p",
    version: "1.0.0",
    description: "d",
    display_name: "P",
    tools: [{ name: "t", description: "d", parameters: [] }],
    host_capabilities: [...all],
  };
  assert.deepEqual(
    validateManifest(manifest).filter((d) => d.path?.startsWith("$.host_capabilities")),
    [],
  );
  const unknown = validateManifest({ ...manifest, host_capabilities: ["llm.telepathy"] }).find(
    (d) => d.path === "$.host_capabilities[0]",
  );
  assert.match(unknown?.message ?? "", /not on the platform.s allow-list/);
});

const raw = (
  root: RawHostCall["root"],
  path: string[],
  args: (string | null)[] = [],
  extra: Partial<RawHostCall> = {},
): RawHostCall => ({
  file: "src/tools.ts",
  line: 3,
  column: 9,
  root,
  path,
  args,
  callee: ["ctx.host", ...path].join("."),
  ...extra,
});

test("raw calls resolve to the helpers' methods; what is not a helper is dropped", () => {
  const methods = (lang: Language, calls: RawHostCall[]) =>
    resolveHostCalls(lang, calls).map((c) => c.method ?? "(dynamic)");
  assert.deepEqual(
    methods("ts", [
      raw("host", ["sample"]),
      raw("host", ["agent", "create", "()", "run"]),
      raw("host", ["agent", "session", "()", "history"]),
      raw("session", ["refresh"]),
      raw("host", ["files", "downloadUrl"]),
      raw("host", ["request"], ["image/edit", null]),
      raw("host", ["request"], [null]),
      raw("host", ["agent", "session"]), // sends nothing
      raw("host", ["sample", "()", "content"]), // a result's member
      raw("host", ["storage", "constructor"]),
      raw("host", ["files", "download_url"]), // Python's name
    ]),
    [
      "sampling/createMessage",
      "agent/session.run",
      "agent/session.history",
      "agent/session.refresh",
      "files/download_url",
      "image/edit",
      "(dynamic)",
    ],
  );
  assert.deepEqual(
    methods("python", [
      raw("host", ["files", "download_url"]),
      raw("host", ["request"], [], { keywords: { method: "storage/get" } }),
    ]),
    ["files/download_url", "storage/get"],
  );
  assert.deepEqual(
    methods("go", [
      raw("host", ["Request"], [null, "embeddings/create"]),
      raw("host", ["AgentCreate", "()", "Run"]),
      raw("host", ["FilesUpload"]),
      raw("host", ["sample"]),
    ]),
    ["embeddings/create", "agent/session.run", "files/"],
  );
  const [go] = resolveHostCalls("go", [
    raw("host", ["Sample"], [], { callee: "executa.FromContext(ctx).Host.Sample" }),
  ]);
  assert.equal(go!.helper, "Host.Sample");
});

const manifest = (capabilities?: unknown[]): Manifest => ({
  name: "p",
  version: "1.0.0",
  description: "d",
  tools: [
    { name: "summarize", description: "d" },
    { name: "save", description: "d" },
  ],
  ...(capabilities && { host_capabilities: capabilities as string[] }),
});
const call = (method: string | undefined, helper = "ctx.host.x", line = 4): HostCall => ({
  file: "src/tools.ts",
  line,
  column: 11,
  method,
  helper,
});
const EXECUTA_JSON = `{
  "tool_id": "p",
  "host_capabilities": [
    "llm.sample",
    "aps.files"
  ]
}
`;

test("the warnings: a call no declared capability unlocks, a declared capability no call needs", () => {
  const calls = [[call("sampling/createMessage", "ctx.host.sample")], [call("storage/set", "ctx.host.storage.set", 9)]];
  const found = hostUsageDiagnostics(manifest(["llm.sample", "aps.files"]), calls, EXECUTA_JSON);
  assert.deepEqual(found, [
    {
      severity: "warning",
      message:
        'save calls ctx.host.storage.set (storage/set), which needs "aps.kv" (or an "aps.scope.*" capability) in host_capabilities; add it to executa.json and run executa manifest',
      file: "src/tools.ts",
      line: 9,
      column: 11,
    },
    {
      severity: "warning",
      message:
        'host_capabilities declares "aps.files", but no tool calls a helper that sends files/*; remove it from executa.json and run executa manifest',
      hint: found[1]!.hint,
      path: "$.host_capabilities[1]",
      file: "executa.json",
      line: 5,
      column: 5,
    },
  ]);
  // Any one of the storage capabilities will do, and each is used by a storage call.
  assert.deepEqual(
    hostUsageDiagnostics(manifest(["llm.sample", "aps.scope.user.write", "aps.kv"]), calls, undefined),
    [],
  );
  // A request whose method is computed: no capability is unused, the literal ones still count.
  const dynamic = hostUsageDiagnostics(
    manifest(["aps.files"]),
    [[call(undefined, "ctx.host.request")], [call("image/generate", "ctx.host.request")]],
    EXECUTA_JSON,
  );
  assert.deepEqual(
    dynamic.map((d) => d.message.slice(0, 40)),
    ["save calls ctx.host.request (image/gener"],
  );
  // A tool left out for a source error may be the one that uses a capability: only missing ones are reported.
  assert.deepEqual(
    hostUsageDiagnostics(manifest(["aps.files"]), calls, EXECUTA_JSON, false).map((d) => d.message.split(" (")[0]),
    ["summarize calls ctx.host.sample", "save calls ctx.host.storage.set"],
  );
  // The extractor did not look: nothing to say.
  assert.deepEqual(hostUsageDiagnostics(manifest(["aps.files"]), undefined, EXECUTA_JSON), []);
  // No host_capabilities at all: every helper call is reported, once per place.
  const none = hostUsageDiagnostics(
    manifest(),
    [[call("files/", "ctx.host.files.upload"), call("files/", "ctx.host.files.upload")], []],
    undefined,
  );
  assert.deepEqual(
    none.map((d) => d.message.split(",")[0]),
    ["summarize calls ctx.host.files.upload (files/*)"],
  );
});

test("an item of executa.json's host_capabilities is located, also on one line; the file alone when it cannot be", () => {
  assert.deepEqual(locateArrayItem(EXECUTA_JSON, "host_capabilities", 0), { file: "executa.json", line: 4, column: 5 });
  const inline =
    '{"name": "host_capabilities", "x": {"host_capabilities": ["no"]}, "host_capabilities": ["aps.kv", "llm.embed"]}';
  assert.deepEqual(locateArrayItem(inline, "host_capabilities", 1), { file: "executa.json", line: 1, column: 99 });
  assert.deepEqual(locateArrayItem(inline, "host_capabilities", 2), { file: "executa.json" });
  assert.deepEqual(locateArrayItem(undefined, "host_capabilities", 0), { file: "executa.json" });
  assert.deepEqual(locateArrayItem('{"host_capabilities": "aps.kv"}', "host_capabilities", 0), {
    file: "executa.json",
  });
});

test("the web helpers send web/search and web/fetch, which web.search and web.fetch unlock", () => {
  const methods = (lang: Language, calls: RawHostCall[]) => resolveHostCalls(lang, calls).map((c) => c.method);
  assert.deepEqual(methods("ts", [raw("host", ["web", "search"]), raw("host", ["web", "fetch"])]), [
    "web/search",
    "web/fetch",
  ]);
  assert.deepEqual(methods("python", [raw("host", ["web", "search"]), raw("host", ["web", "fetch"])]), [
    "web/search",
    "web/fetch",
  ]);
  assert.deepEqual(methods("go", [raw("host", ["WebSearch"]), raw("host", ["WebFetch"])]), ["web/search", "web/fetch"]);
  const calls = [[call("web/search", "ctx.host.web.search")], [call("web/fetch", "ctx.host.web.fetch", 9)]];
  assert.deepEqual(hostUsageDiagnostics(manifest(["web.search", "web.fetch"]), calls, undefined), []);
  assert.deepEqual(
    hostUsageDiagnostics(manifest(["web.search"]), calls, undefined).map((d) => d.message),
    [
      'save calls ctx.host.web.fetch (web/fetch), which needs "web.fetch" in host_capabilities; add it to executa.json and run executa manifest',
    ],
  );
});
