/**
 * `executa manifest` on TypeScript projects that call the host: a helper whose capability
 * executa.json lacks is a warning at the call (an error, exit 2, under --strict), found also
 * through the project's own functions, destructuring, sessions and the runtime's types; a declared
 * capability no tool needs is a warning on executa.json, except beside a computed request method.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "../../src/common/package-info.js";
import { generateManifest } from "../../src/manifest/index.js";
import { formatDiagnostic } from "../../src/protocol/index.js";
import { executaJson, whereIs, writeProject } from "./helpers.js";

const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

const TOOLS = `import type { ToolContext } from "./executa/index.js";
import { remember } from "./memory.js";

/**
 * Summarize a text with the host's language model.
 * @tool
 */
export async function summarize({ text }: {
  /** The text to summarize. */
  text: string;
}, ctx: ToolContext): Promise<string> {
  const result = await ctx.host.sample({ prompt: \`Summarize in one line: \${text}\` });
  return result.content.text ?? "";
}

/**
 * Save a note for later.
 * @tool
 */
export async function save_note(
  {
    key,
    text,
  }: {
    /** Where to keep it. */
    key: string;
    /** What to keep. */
    text: string;
  },
  ctx: ToolContext,
): Promise<{ saved: boolean }> {
  await remember(ctx, key, text);
  return { saved: true };
}
`;

const MEMORY = `import type { HostClient, ToolContext } from "./executa/index.js";

export async function remember(ctx: ToolContext, key: string, text: string): Promise<void> {
  const { host } = ctx;
  await store(host, key, text);
}

async function store(host: HostClient, key: string, value: string): Promise<void> {
  await host.storage.set(\`notes/\${key}\`, value, { scope: "user" });
}
`;

/** A project with the real vendored runtime of the TS template. */
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>, capabilities?: string[]): string {
  const dir = writeProject({
    "executa.json": executaJson("node", capabilities ? { host_capabilities: capabilities } : {}),
    "package.json": JSON.stringify({ name: "notes", version: "1.0.0", type: "module" }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true },
    }),
    ...files,
  });
  made.push(dir);
  cpSync(join(TEMPLATES_DIR, "ts", "src", "executa"), join(dir, "src", "executa"), { recursive: true });
  return dir;
}

function manifest(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "manifest", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function warnings(dir: string): Promise<string[]> {
  return (await generateManifest(dir)).diagnostics.map(formatDiagnostic);
}

const needs = (tool: string, helper: string, method: string, capability: string) =>
  `${tool} calls ${helper} (${method}), which needs ${capability} in host_capabilities; add it to executa.json and run executa manifest`;

test("ts: sampling without llm.sample is a warning at the call, and under --strict an error with exit 2; a storage call two functions away is found too", () => {
  const dir = project({ "src/tools.ts": TOOLS, "src/memory.ts": MEMORY });
  const sample = `${whereIs("src/tools.ts", TOOLS, "ctx.host.sample(")}: warning: ${needs("summarize", "ctx.host.sample", "sampling/createMessage", '"llm.sample"')}`;
  const storage = `${whereIs("src/memory.ts", MEMORY, "host.storage.set(")}: warning: ${needs("save_note", "host.storage.set", "storage/set", '"aps.kv" (or an "aps.scope.*" capability)')}`;

  const plain = manifest(dir);
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(plain.stderr.trimEnd().split("\n"), [sample, storage]);

  const strict = manifest(dir, "--strict");
  assert.equal(strict.code, 2);
  assert.deepEqual(strict.stderr.trimEnd().split("\n"), [
    sample.replace(": warning: ", ": error: "),
    storage.replace(": warning: ", ": error: "),
    "executa: error: manifest.json was not written (2 errors)",
  ]);
});

test("ts: a declared capability no tool needs is a warning on executa.json; the right ones are silent", async () => {
  const files = { "src/tools.ts": TOOLS, "src/memory.ts": MEMORY };
  const extra = project(files, ["llm.sample", "aps.scope.user.write", "aps.files"]);
  const json = executaJson("node", { host_capabilities: ["llm.sample", "aps.scope.user.write", "aps.files"] });
  assert.deepEqual(await warnings(extra), [
    `${whereIs("executa.json", json, '"aps.files"')}: warning: host_capabilities declares "aps.files", but no tool calls a helper that sends files/*; remove it from executa.json and run executa manifest (executa follows each tool into its own project's functions only: a call in another package, or through a function kept in a variable, goes unseen)`,
  ]);
  assert.deepEqual(await warnings(project(files, ["llm.sample", "aps.scope.user.write"])), []);
});

test("ts: a request whose method is computed keeps every capability; a constant method is checked like a helper", async () => {
  const tools = `import type { ToolContext } from "./executa/index.js";

const GENERATE = "image/generate";

/**
 * Forward a request to the host.
 * @tool
 */
export async function forward({ method }: {
  /** The method. */
  method: string;
}, ctx: ToolContext): Promise<unknown> {
  return ctx.host.request(method, {});
}

/**
 * Draw a picture.
 * @tool
 */
export async function draw({ prompt }: {
  /** What to draw. */
  prompt: string;
}, ctx: ToolContext): Promise<unknown> {
  const host = ctx.host;
  return host.request(GENERATE, { prompt });
}
`;
  const dir = project({ "src/tools.ts": tools }, ["aps.files", "llm.embed"]);
  assert.deepEqual(await warnings(dir), [
    `${whereIs("src/tools.ts", tools, "host.request(GENERATE")}: warning: ${needs("draw", "host.request", "image/generate", '"llm.image"')}`,
  ]);
});

test("ts: agent sessions, found by what the code does and by the runtime's AgentSession type", async () => {
  // The runtime's types as docs/host-services.md names them (the helpers beyond sampling and storage).
  const runtime = `export interface ToolContext { readonly host: HostClient; credential(name: string): string | undefined }
export interface AgentSession { readonly uuid: string; run(content: string): Promise<{ text: string }>; delete(): Promise<unknown> }
export interface HostClient {
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  readonly agent: { create(options?: { label?: string }): Promise<AgentSession>; session(uuid: string): AgentSession };
}
export type Bindings = Record<string, unknown>;
`;
  const tools = `import type { AgentSession, ToolContext } from "./executa/index.js";

async function openSession(ctx: ToolContext): Promise<AgentSession> {
  return ctx.host.agent.create({ label: "research" });
}

/**
 * Research a question with an agent.
 * @tool
 */
export async function research({ question }: {
  /** The question. */
  question: string;
}, ctx: ToolContext): Promise<string> {
  const session = await openSession(ctx);
  const answer = await session.run(question);
  await ctx.host.agent.session(session.uuid).delete();
  const vectors = await (ctx.host as any).embeddings.create([answer.text]);
  return answer.text + vectors.length;
}
`;
  const dir = writeProject({
    "executa.json": executaJson("node", { host_capabilities: ["llm.embed"] }),
    "package.json": JSON.stringify({ name: "agent", version: "1.0.0", type: "module" }),
    "src/executa/index.ts": runtime,
    "src/tools.ts": tools,
  });
  made.push(dir);
  const agent = '"llm.agent.auto" (or "llm.agent.fixed")';
  assert.deepEqual(await warnings(dir), [
    `${whereIs("src/tools.ts", tools, "session.run(")}: warning: ${needs("research", "session.run", "agent/session.run", agent)}`,
    `${whereIs("src/tools.ts", tools, "ctx.host.agent.session(")}: warning: ${needs("research", "ctx.host.agent.session(session.uuid).delete", "agent/session.delete", agent)}`,
    `${whereIs("src/tools.ts", tools, "ctx.host.agent.create(")}: warning: ${needs("research", "ctx.host.agent.create", "agent/session.create", agent)}`,
  ]);
  assert.equal(existsSync(join(dir, "manifest.json")), false, "generateManifest writes nothing");
});

test("ts: without the runtime's types (not vendored yet), the calls are traced from the ctx parameter", async () => {
  const tools = `import type { ToolContext } from "./executa/index.js";

/**
 * Load a note.
 * @tool
 * @param key - Where it is kept.
 */
export async function load_note(key: string, ctx: ToolContext): Promise<unknown> {
  const { storage } = ctx.host;
  return (await storage.get(key)).value;
}
`;
  const dir = writeProject({
    "executa.json": executaJson("node", { host_capabilities: ["llm.sample"] }),
    "package.json": JSON.stringify({ name: "bare", version: "1.0.0", type: "module" }),
    "src/tools.ts": tools,
  });
  made.push(dir);
  const found = await warnings(dir);
  assert.deepEqual(
    found.map((w) => w.split(",")[0]),
    [
      `${whereIs("src/tools.ts", tools, "storage.get(")}: warning: load_note calls storage.get (storage/get)`,
      `${whereIs("executa.json", executaJson("node", { host_capabilities: ["llm.sample"] }), '"llm.sample"')}: warning: host_capabilities declares "llm.sample"`,
    ],
  );
});
