#!/usr/bin/env node
// image-poster: makes posters with the host's image model (image/generate, image/edit) and hands
// files to the host (host/uploadFile inline, and negotiate + HTTP PUT + confirm for big ones).
// Every host call echoes the invoke's context.invoke_id, so concurrent invokes stay apart; a host
// refusal is passed on as the invoke's JSON-RPC error, as the public v2 examples do.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { deflateSync } from "node:zlib";

const MANIFEST = {
  name: "image-poster",
  display_name: "Image Poster",
  version: "0.3.0",
  description: "Generates a poster image, edits it, and uploads artifacts to the host.",
  author: "Anna Developer",
  host_capabilities: ["llm.image", "llm.image.edit", "host.upload"],
  tools: [
    {
      name: "make_poster",
      description: "Generate a poster from a prompt, add a banner, and upload a thumbnail.",
      parameters: [
        { name: "prompt", type: "string", description: "What the poster shows", required: true },
        { name: "size", type: "string", description: "Image size", required: false, default: "1024x1024", enum: ["1024x1024", "1024x1536", "1536x1024"] },
      ],
    },
    {
      name: "upload_artifact",
      description: "Upload a generated binary artifact of the given size through a presigned URL.",
      parameters: [{ name: "size_kib", type: "integer", description: "Size in KiB (1-1024)", required: false, default: 64 }],
    },
  ],
  runtime: { type: "node", min_version: "20.0.0" },
};

const write = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");

// ─── host calls ─────────────────────────────────────────────────────
const pending = new Map();
let negotiated = false;
let closed = false;

class HostError extends Error {
  constructor(code, message) {
    super(`[${code}] ${message}`);
    this.code = code;
  }
}

function hostRequest(method, params, invokeId) {
  if (!negotiated) return Promise.reject(new HostError(-32107, `${method} needs protocol 2.0`));
  if (closed) return Promise.reject(new HostError(-32603, "stdin closed"));
  const id = randomUUID();
  const request = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  write({ jsonrpc: "2.0", id, method, params: { ...params, context: { invoke_id: invokeId }, metadata: { executa_invoke_id: invokeId } } });
  return request;
}

// A small valid PNG (solid colour), so uploads carry a real image.
function png(width, height) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x7f)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

// ─── tools ──────────────────────────────────────────────────────────
async function makePoster({ prompt, size = "1024x1024" }, invokeId) {
  const generated = await hostRequest("image/generate", { prompt, n: 1, size }, invokeId);
  const first = generated.images?.[0];
  if (!first?.url) return { success: false, error: "the image model returned no image" };
  const edited = await hostRequest("image/edit", { image_url: first.url, prompt: "add a bold title banner at the top", n: 1, size }, invokeId);
  const thumb = png(16, 16);
  const upload = await hostRequest(
    "host/uploadFile",
    { mode: "inline", filename: "poster-thumb.png", mime_type: "image/png", content_b64: thumb.toString("base64"), purpose: "user_artifact" },
    invokeId,
  );
  return {
    success: true,
    data: { poster_url: edited.images?.[0]?.url ?? first.url, original_url: first.url, thumbnail_url: upload.download_url, model: generated.model },
  };
}

async function uploadArtifact({ size_kib = 64 }, invokeId) {
  const bytes = Buffer.alloc(Math.max(1, Math.min(1024, size_kib)) * 1024, 0x2a);
  const offer = await hostRequest("host/uploadFile", { mode: "negotiate", filename: "artifact.bin", mime_type: "application/octet-stream", size_bytes: bytes.length, purpose: "user_artifact" }, invokeId);
  const put = await fetch(offer.put_url, { method: "PUT", headers: offer.headers ?? {}, body: bytes });
  if (put.status !== 200 && put.status !== 201) return { success: false, error: `upload PUT answered HTTP ${put.status}` };
  const confirmed = await hostRequest("host/uploadFile", { mode: "confirm", r2_key: offer.r2_key }, invokeId);
  return { success: true, data: { download_url: confirmed.download_url, size_bytes: confirmed.size_bytes ?? bytes.length } };
}

const TOOLS = { make_poster: makePoster, upload_artifact: uploadArtifact };

function validate(tool, args) {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "arguments must be an object";
  for (const p of tool.parameters) {
    const v = args[p.name];
    if (v === undefined) {
      if (p.required) return `missing required argument '${p.name}'`;
    } else if (p.type === "integer" ? !Number.isInteger(v) : typeof v !== p.type) return `'${p.name}' must be ${p.type}`;
    else if (p.enum && !p.enum.includes(v)) return `'${p.name}' must be one of ${p.enum.join(", ")}`;
  }
  return undefined;
}

async function onRequest(msg) {
  const { id, method } = msg;
  const params = msg.params ?? {};
  if (method === "initialize") {
    negotiated = params.protocolVersion === "2.0";
    return write({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: negotiated ? "2.0" : "1.1",
        serverInfo: { name: MANIFEST.display_name, version: MANIFEST.version },
        client_capabilities: negotiated ? { image: {}, "image.edit": {}, upload: {} } : {},
        capabilities: {},
      },
    });
  }
  if (method === "describe") return write({ jsonrpc: "2.0", id, result: MANIFEST });
  if (method === "health") return write({ jsonrpc: "2.0", id, result: { status: "ready", message: "", details: {} } });
  if (method !== "invoke") return write({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  const tool = MANIFEST.tools.find((t) => t.name === params.tool);
  if (!tool) return write({ jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${params.tool}` } });
  const args = params.arguments ?? {};
  const problem = validate(tool, args);
  if (problem) return write({ jsonrpc: "2.0", id, error: { code: -32602, message: problem } });
  const invokeId = params.context?.invoke_id ?? params.invoke_id ?? "";
  const started = Date.now();
  let result;
  try {
    result = await TOOLS[tool.name](args, invokeId);
  } catch (err) {
    // Host refusals travel on as the invoke's error, with the host's code.
    if (err instanceof HostError) return write({ jsonrpc: "2.0", id, error: { code: err.code, message: err.message } });
    result = { success: false, error: err.message };
  }
  write({ jsonrpc: "2.0", id, result: { ...result, duration_ms: Date.now() - started } });
}

const inFlight = new Set();
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return write({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  if (!("method" in msg)) {
    const waiter = pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    return msg.error ? waiter.reject(new HostError(msg.error.code, msg.error.message)) : waiter.resolve(msg.result ?? {});
  }
  if (!("id" in msg)) return;
  if (typeof msg.method !== "string") return write({ jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "Invalid Request" } });
  const task = onRequest(msg).catch((err) => process.stderr.write(`image-poster: ${err.stack}\n`));
  inFlight.add(task);
  task.finally(() => inFlight.delete(task));
});
rl.on("close", async () => {
  closed = true;
  for (const waiter of pending.values()) waiter.reject(new HostError(-32603, "stdin closed"));
  pending.clear();
  await Promise.allSettled([...inFlight]);
  process.exit(0);
});
process.on("SIGTERM", () => process.exit(0));
