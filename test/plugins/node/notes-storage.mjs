#!/usr/bin/env node
// notes-storage: keeps notes in the host's persistent storage (storage/* reverse requests, three
// scopes, optimistic writes with if_match, drafts with ttl_seconds). A careful v2 plugin: every
// host call carries the invoke's context.invoke_id, and nothing is left waiting at EOF. Like the
// official SDKs, it asks the host unless an initialize offered another protocol version.
import { randomUUID } from "node:crypto";
import readline from "node:readline";

const SCOPES = ["tool", "user", "app"];
const MANIFEST = {
  name: "notes-storage",
  display_name: "Notes",
  version: "2.1.0",
  description: "Save, list and delete short notes in your Anna storage.",
  author: "Notes Team",
  license: "MIT",
  host_capabilities: ["aps.kv"],
  tools: [
    {
      name: "save_note",
      description: "Save a note under a title (overwrites a note with the same title).",
      parameters: [
        { name: "title", type: "string", description: "The note's title", required: true },
        { name: "body", type: "string", description: "The note's text", required: true },
        { name: "scope", type: "string", description: "Where to keep it", required: false, default: "tool", enum: SCOPES },
        { name: "draft", type: "boolean", description: "Drafts expire after a day", required: false, default: false },
      ],
    },
    {
      name: "list_notes",
      description: "List the titles of saved notes.",
      parameters: [{ name: "scope", type: "string", description: "Which storage to list", required: false, default: "tool", enum: SCOPES }],
    },
    {
      name: "delete_note",
      description: "Delete a note by title.",
      parameters: [
        { name: "title", type: "string", description: "The note's title", required: true },
        { name: "scope", type: "string", description: "Where it is kept", required: false, default: "tool", enum: SCOPES },
      ],
    },
  ],
  runtime: { type: "node", min_version: "20.0.0" },
};

const write = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");
const reply = (id, result) => write({ jsonrpc: "2.0", id, result });
const replyError = (id, code, message, data) => write({ jsonrpc: "2.0", id, error: { code, message, ...(data && { data }) } });

// ─── host calls ─────────────────────────────────────────────────────
let v2 = true;
let stdinClosed = false;
const pending = new Map();

class HostError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function hostCall(method, params, invokeId) {
  if (!v2) return Promise.reject(new HostError(-32021, "storage needs Executa protocol 2.0"));
  if (stdinClosed) return Promise.reject(new HostError(-32603, "the host closed stdin"));
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    write({ jsonrpc: "2.0", id, method, params: { ...params, context: { invoke_id: invokeId } } });
  });
}

// ─── tools ──────────────────────────────────────────────────────────
const noteKey = (title) => `note:${title}`;

async function saveNote({ title, body, scope = "tool", draft = false }, invokeId) {
  const current = await hostCall("storage/get", { key: noteKey(title), scope }, invokeId);
  const params = { key: noteKey(title), value: { title, body, saved_at: new Date().toISOString() }, scope };
  if (current.exists) params.if_match = current.etag;
  if (draft) params.ttl_seconds = 86_400;
  try {
    const saved = await hostCall("storage/set", params, invokeId);
    return { success: true, data: { saved: title, scope, etag: saved.etag, replaced: Boolean(current.exists) } };
  } catch (err) {
    if (err.code === -32023) return { success: false, error: `the note "${title}" changed while saving; try again` };
    throw err;
  }
}

async function listNotes({ scope = "tool" }, invokeId) {
  const page = await hostCall("storage/list", { scope, prefix: "note:", limit: 100 }, invokeId);
  return { success: true, data: { scope, titles: (page.items || []).map((i) => String(i.key).slice(5)) } };
}

async function deleteNote({ title, scope = "tool" }, invokeId) {
  await hostCall("storage/delete", { key: noteKey(title), scope }, invokeId);
  return { success: true, data: { deleted: title, scope } };
}

const TOOLS = { save_note: saveNote, list_notes: listNotes, delete_note: deleteNote };

function checkArguments(tool, args) {
  const problems = [];
  for (const p of tool.parameters) {
    const value = args[p.name];
    if (value === undefined) {
      if (p.required) problems.push({ name: p.name, problem: "missing" });
      continue;
    }
    const ok = p.type === "boolean" ? typeof value === "boolean" : typeof value === "string";
    if (!ok) problems.push({ name: p.name, problem: `expected ${p.type}` });
    else if (p.enum && !p.enum.includes(value)) problems.push({ name: p.name, problem: `one of ${p.enum.join(", ")}` });
  }
  return problems;
}

async function invoke(id, params) {
  const tool = MANIFEST.tools.find((t) => t.name === params.tool);
  if (!tool) return replyError(id, -32601, `Unknown tool: ${params.tool}`, { available_tools: Object.keys(TOOLS) });
  const args = params.arguments ?? {};
  if (typeof args !== "object" || Array.isArray(args) || args === null) return replyError(id, -32602, "arguments must be an object");
  const problems = checkArguments(tool, args);
  if (problems.length) return replyError(id, -32602, "Invalid params", { problems });
  const invokeId = params.context?.invoke_id ?? params.invoke_id ?? "";
  const started = Date.now();
  try {
    const result = await TOOLS[tool.name](args, invokeId);
    reply(id, { ...result, duration_ms: Date.now() - started });
  } catch (err) {
    if (err instanceof HostError) reply(id, { success: false, error: `storage: ${err.message} (${err.code})`, duration_ms: Date.now() - started });
    else replyError(id, -32603, `Tool execution failed: ${err.message}`);
  }
}

function initialize(id, params) {
  v2 = params?.protocolVersion === "2.0";
  reply(id, {
    protocolVersion: v2 ? "2.0" : "1.1",
    serverInfo: { name: MANIFEST.display_name, version: MANIFEST.version },
    client_capabilities: v2 ? { storage: { kv: true } } : {},
    capabilities: {},
  });
}

async function handle(msg) {
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return replyError(null, -32600, "Invalid Request");
  if (!("method" in msg)) {
    const waiter = pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new HostError(msg.error.code, msg.error.message));
    else waiter.resolve(msg.result);
    return;
  }
  const isNotification = !("id" in msg);
  if (msg.jsonrpc !== "2.0" || typeof msg.method !== "string") return isNotification ? undefined : replyError(msg.id ?? null, -32600, "Invalid Request");
  if (isNotification) return;
  const params = msg.params ?? {};
  switch (msg.method) {
    case "describe":
      return reply(msg.id, MANIFEST);
    case "health":
      return reply(msg.id, { status: "ready", message: "", details: {} });
    case "initialize":
      return initialize(msg.id, params);
    case "invoke":
      return invoke(msg.id, params);
    default:
      return replyError(msg.id, -32601, "Method not found");
  }
}

const inFlight = new Set();
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return replyError(null, -32700, "Parse error");
  }
  const task = handle(msg).catch((err) => process.stderr.write(`notes: ${err.stack}\n`));
  inFlight.add(task);
  task.finally(() => inFlight.delete(task));
});
rl.on("close", async () => {
  stdinClosed = true;
  for (const waiter of pending.values()) waiter.reject(new HostError(-32603, "the host closed stdin"));
  pending.clear();
  await Promise.allSettled([...inFlight]);
  process.exit(0);
});
process.on("SIGTERM", () => process.exit(0));
process.stderr.write("notes-storage ready\n");
