#!/usr/bin/env node
// files-backup: backs up text to the user's Anna drive with files/* (upload_begin, an HTTP PUT to
// the presigned URL, upload_complete, download_url, list, delete). Each host call echoes the
// invoke's context.invoke_id; a host refusal becomes the invoke's JSON-RPC error.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";

const MANIFEST = {
  name: "files-backup",
  display_name: "Files Backup",
  version: "1.4.2",
  description: "Backs up text files to your Anna drive and lists or removes them.",
  author: "backup-co",
  homepage: "https://example.com/files-backup",
  host_capabilities: ["aps.files"],
  tools: [
    {
      name: "backup_text",
      description: "Store a text file on the drive and return a download link.",
      parameters: [
        { name: "text", type: "string", description: "The file's content", required: true },
        { name: "path", type: "string", description: "Where to store it", required: false, default: "backups/note.txt" },
      ],
    },
    {
      name: "list_backups",
      description: "List stored backups under a folder.",
      parameters: [{ name: "prefix", type: "string", description: "Folder prefix", required: false, default: "backups/" }],
    },
    {
      name: "remove_backup",
      description: "Delete a stored backup.",
      parameters: [{ name: "path", type: "string", description: "The backup's path", required: true }],
    },
  ],
  runtime: { type: "node", min_version: "20.0.0" },
};

const send = (frame) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...frame })}\n`);
const waiting = new Map();
let v2 = false;
let eof = false;

class HostError extends Error {
  constructor(code, message, data) {
    super(message);
    Object.assign(this, { code, data });
  }
}

function host(method, params, invokeId) {
  if (!v2) return Promise.reject(new HostError(-32021, `${method} needs protocol 2.0`));
  if (eof) return Promise.reject(new HostError(-32603, "stdin closed"));
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    send({ id, method, params: { scope: "user", ...params, context: { invoke_id: invokeId } } });
  });
}

const tools = {
  async backup_text({ text, path = "backups/note.txt" }, invokeId) {
    const body = Buffer.from(text, "utf8");
    const begin = await host("files/upload_begin", { path, size_bytes: body.length, content_type: "text/plain" }, invokeId);
    const put = await fetch(begin.put_url, { method: "PUT", headers: begin.headers ?? {}, body });
    if (put.status !== 200 && put.status !== 201) return { success: false, error: `the storage PUT answered HTTP ${put.status}` };
    const etag = put.headers.get("etag") ?? undefined;
    await host("files/upload_complete", { path, etag, size_bytes: body.length, content_type: "text/plain" }, invokeId);
    const link = await host("files/download_url", { path, expires_in: 600, ttl_seconds: 600 }, invokeId);
    return { success: true, data: { path, bytes: body.length, url: link.url ?? link.get_url } };
  },
  async list_backups({ prefix = "backups/" }, invokeId) {
    const page = await host("files/list", { prefix, limit: 50 }, invokeId);
    return { success: true, data: { files: (page.items ?? []).map((i) => ({ path: i.path, size_bytes: i.size_bytes })) } };
  },
  async remove_backup({ path }, invokeId) {
    await host("files/delete", { path }, invokeId);
    return { success: true, data: { deleted: path } };
  },
};

async function invoke(id, params) {
  const tool = MANIFEST.tools.find((t) => t.name === params.tool);
  if (!tool) return send({ id, error: { code: -32601, message: `Unknown tool: ${params.tool}` } });
  const args = params.arguments ?? {};
  const bad = tool.parameters.filter((p) => (args[p.name] === undefined ? p.required : typeof args[p.name] !== "string")).map((p) => p.name);
  if (typeof args !== "object" || Array.isArray(args) || bad.length) {
    return send({ id, error: { code: -32602, message: `Invalid params: ${bad.join(", ") || "arguments must be an object"}` } });
  }
  try {
    send({ id, result: await tools[tool.name](args, params.context?.invoke_id ?? params.invoke_id) });
  } catch (err) {
    // A host refusal is the invoke's error, passed on with the host's code.
    if (err instanceof HostError) send({ id, error: { code: err.code, message: err.message, ...(err.data && { data: err.data }) } });
    else send({ id, result: { success: false, error: err.message } });
  }
}

const running = new Set();
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return send({ id: null, error: { code: -32600, message: "Invalid Request" } });
  if (msg.method === undefined) {
    const w = waiting.get(msg.id);
    if (w) {
      waiting.delete(msg.id);
      if (msg.error) w.reject(new HostError(msg.error.code, msg.error.message, msg.error.data));
      else w.resolve(msg.result ?? {});
    }
    return;
  }
  if (msg.id === undefined) return;
  let work;
  switch (msg.method) {
    case "initialize":
      v2 = msg.params?.protocolVersion === "2.0";
      return send({ id: msg.id, result: { protocolVersion: v2 ? "2.0" : "1.1", serverInfo: { name: MANIFEST.display_name, version: MANIFEST.version }, client_capabilities: v2 ? { storage: { files: true } } : {} } });
    case "describe":
      return send({ id: msg.id, result: MANIFEST });
    case "health":
      return send({ id: msg.id, result: { status: "ready", message: "", details: {} } });
    case "invoke":
      work = invoke(msg.id, msg.params ?? {});
      running.add(work);
      work.finally(() => running.delete(work));
      return;
    default:
      return send({ id: msg.id, error: { code: -32601, message: "Method not found" } });
  }
});
rl.on("close", async () => {
  eof = true;
  for (const w of waiting.values()) w.reject(new Error("stdin closed"));
  waiting.clear();
  await Promise.allSettled([...running]);
  process.exit(0);
});
process.on("SIGTERM", () => process.exit(0));
