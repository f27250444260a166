// A small, complete Executa plugin (protocol 1.1 + 2.0) used by the conformance tests. Each
// broken plugin beside it is this plugin with one fault switched on; reference.mjs has none.
import { randomBytes } from "node:crypto";
import { createHmac } from "node:crypto";
import { writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MANIFEST = {
  name: "conform-reference",
  display_name: "Conform Reference",
  version: "1.0.0",
  description: "A correct plugin that passes every conformance check.",
  tools: [
    {
      name: "echo",
      description: "Echo a text, optionally repeated.",
      parameters: [
        { name: "text", type: "string", description: "The text.", required: true },
        { name: "times", type: "integer", description: "Repeat count.", required: false, default: 1 },
        { name: "loud", type: "boolean", description: "Upper-case it.", required: false, default: false },
        { name: "tags", type: "array", description: "Tags.", required: false, items: { type: "string" } },
        { name: "mode", type: "string", description: "Joiner.", required: false, default: "space", enum: ["space", "comma"] },
      ],
    },
    {
      name: "sign",
      description: "Sign a message with the REF_SECRET credential.",
      parameters: [{ name: "message", type: "string", description: "The message.", required: true }],
    },
    {
      name: "ask",
      description: "Ask the host's model a question.",
      timeout: 30,
      parameters: [{ name: "question", type: "string", description: "The question.", required: true }],
    },
  ],
  credentials: [{ name: "REF_SECRET", display_name: "Secret", description: "Signing key.", required: false, sensitive: true }],
  host_capabilities: ["llm.sample"],
};

const MAX_FRAME = 16 * 1024 * 1024;
const FILE_THRESHOLD = 512 * 1024;
const TYPES = {
  string: (v) => typeof v === "string",
  integer: (v) => typeof v === "number" && Number.isInteger(v),
  number: (v) => typeof v === "number",
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
};
const typeName = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" && Number.isInteger(v) ? "integer" : typeof v);

export function serve(fault = {}) {
  const manifest = fault.manifest ?? MANIFEST;
  const out = process.stdout;
  // Host services are on unless an initialize offers another version (Anna's local-dev runtime sends none).
  let v2 = true;
  let inFlight = 0;
  let stopping = false;
  let answered = 0;
  const pending = new Map();

  const writeLine = (line) => out.write(line + "\n");
  const write = (frame) => {
    let text = JSON.stringify(frame);
    // Inline, as the platform reads it; only the leaveFileBehind fault still writes file transport.
    if (fault.leaveFileBehind && Buffer.byteLength(text) > FILE_THRESHOLD && "id" in frame && !("method" in frame)) {
      const path = join(tmpdir(), `executa-resp-${randomBytes(16).toString("hex")}.json`);
      if (fault.leaveFileBehind) {
        // The fault: an "atomic" write through a temp copy that is never removed.
        writeFileSync(path + ".partial", text, { mode: 0o600 });
        copyFileSync(path + ".partial", path);
      } else {
        writeFileSync(path, text, { mode: 0o600, flag: "wx" });
      }
      text = JSON.stringify({ jsonrpc: "2.0", id: frame.id, __file_transport: path });
    }
    writeLine(text);
    if (!("method" in frame)) {
      answered++;
      if (fault.exitAfterOneResponse) process.exit(0);
    }
  };
  const result = (id, value) => write({ jsonrpc: "2.0", id, result: value });
  const error = (id, code, message, data) => write({ jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined && { data }) } });

  const hostRequest = (method, params, invokeId) =>
    new Promise((resolve, reject) => {
      if (!v2) return reject(Object.assign(new Error("protocol 2.0 not negotiated"), { code: -32008 }));
      const id = randomBytes(16).toString("hex");
      pending.set(id, { resolve, reject });
      const context = fault.noInvokeIdEcho ? {} : { context: { invoke_id: invokeId } };
      write({ jsonrpc: "2.0", id, method, params: { ...params, ...context } });
    });

  const tools = {
    echo: (a) => {
      let t = a.text;
      if (a.loud) t = t.toUpperCase();
      return { text: Array(a.times ?? 1).fill(t).join(a.mode === "comma" ? "," : " "), tags: a.tags ?? [] };
    },
    sign: (a, ctx) => {
      const secret = ctx.credentials.REF_SECRET ?? process.env.REF_SECRET;
      if (!secret) return { toolError: "REF_SECRET is not configured" };
      return { signature: createHmac("sha256", secret).update(a.message).digest("hex") };
    },
    ask: async (a, ctx) => {
      write({ jsonrpc: "2.0", method: "executa/progress", params: { context: { invoke_id: ctx.invokeId }, type: "progress", data: { step: "asking the host" } } });
      try {
        const r = await hostRequest("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: a.question } }], maxTokens: 64 }, ctx.invokeId);
        return { answer: r.content?.text ?? "" };
      } catch (e) {
        return { toolError: `sampling failed: [${e.code}] ${e.message}` };
      }
    },
  };

  const checkArgs = (tool, args) => {
    const errors = [];
    const params = tool.parameters ?? [];
    for (const p of params) {
      const v = args[p.name];
      if (v === undefined || v === null) {
        if (p.required !== false) errors.push({ parameter: p.name, message: "required" });
        else if (p.default !== undefined) args[p.name] = p.default;
        continue;
      }
      if (!TYPES[p.type](v)) errors.push({ parameter: p.name, message: `expected ${p.type}, got ${typeName(v)}` });
      else if (p.enum && !p.enum.includes(v)) errors.push({ parameter: p.name, message: `must be one of: ${p.enum.join(", ")}` });
      else if (p.type === "array") {
        const it = p.items?.type ?? p.items_type ?? "string";
        v.forEach((x, i) => { if (!TYPES[it](x)) errors.push({ parameter: p.name, message: `item ${i}: expected ${it}, got ${typeName(x)}` }); });
      }
    }
    for (const k of Object.keys(args)) if (!params.some((p) => p.name === k)) errors.push({ parameter: k, message: "unknown parameter" });
    return errors;
  };

  const invoke = async (id, params) => {
    if (!params || typeof params !== "object" || Array.isArray(params) || typeof params.tool !== "string") return error(id, -32602, "Missing 'tool' in params");
    const tool = manifest.tools.find((t) => t.name === params.tool);
    if (!tool) return error(id, -32601, `Unknown tool: ${params.tool}`, { available_tools: manifest.tools.map((t) => t.name) });
    const args = params.arguments === undefined ? {} : params.arguments;
    if (!args || typeof args !== "object" || Array.isArray(args)) return error(id, -32602, "'arguments' must be an object");
    const errors = checkArgs(tool, args);
    if (errors.length) return error(id, -32602, `Invalid arguments for tool '${tool.name}'`, { errors });
    const context = params.context ?? {};
    const ctx = { credentials: context.credentials ?? {}, invokeId: context.invoke_id ?? params.invoke_id ?? "" };
    const started = Date.now();
    inFlight++;
    try {
      const value = await tools[tool.name](args, ctx);
      if (value && value.toolError) result(id, { success: false, error: value.toolError, duration_ms: Date.now() - started });
      else result(id, { success: true, data: value ?? null, duration_ms: Date.now() - started });
    } catch (e) {
      process.stderr.write(`tool ${tool.name} failed: ${e.stack}\n`);
      error(id, -32603, `Tool '${tool.name}' failed unexpectedly; see the plugin's stderr`);
    } finally {
      inFlight--;
      if (stopping && inFlight === 0) process.exit(0);
    }
  };

  const handle = (line) => {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch (e) {
      if (fault.crashOnBadJson) throw e;
      return error(null, -32700, `Parse error: ${e.message}`);
    }
    if (!frame || typeof frame !== "object" || Array.isArray(frame)) return error(null, -32600, "Invalid Request: not an object");
    const hasId = Object.hasOwn(frame, "id");
    const fid = hasId ? frame.id : null;
    const okId = fid === null || typeof fid === "string" || typeof fid === "number";
    if (!Object.hasOwn(frame, "method")) {
      if (hasId && ("result" in frame || "error" in frame)) {
        const p = pending.get(frame.id);
        if (!p) return process.stderr.write(`unmatched response id=${frame.id}\n`);
        pending.delete(frame.id);
        if (frame.error) p.reject(Object.assign(new Error(frame.error.message), { code: frame.error.code }));
        else p.resolve(frame.result);
        return;
      }
      return error(hasId && okId ? frame.id : null, -32600, "Invalid Request: no 'method'");
    }
    if (!hasId && !fault.answerNotifications) return;
    const id = hasId ? frame.id : null;
    if (!okId) return error(null, -32600, "Invalid Request: bad id");
    if (frame.jsonrpc !== "2.0") return error(id, -32600, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    if (typeof frame.method !== "string") return error(id, -32600, "Invalid Request: 'method' must be a string");
    switch (frame.method) {
      case "describe":
        if (fault.slowDescribeMs) return void setTimeout(() => result(id, manifest), fault.slowDescribeMs);
        return result(id, manifest);
      case "health":
        return result(id, fault.healthStatus ? { status: fault.healthStatus } : { status: "ready", message: "", details: { tools: manifest.tools.length, in_flight: inFlight } });
      case "initialize": {
        const asked = frame.params?.protocolVersion;
        v2 = typeof asked === "string" && asked.startsWith("2.");
        return result(id, {
          protocolVersion: v2 ? "2.0" : "1.1",
          serverInfo: { name: manifest.display_name, version: manifest.version },
          capabilities: {},
          client_capabilities: (manifest.host_capabilities ?? []).includes("llm.sample") ? { sampling: {} } : {},
        });
      }
      case "shutdown":
        result(id, { ok: true });
        return stop();
      case "invoke":
        return void invoke(id, frame.params);
      default:
        return error(id, -32601, `Method not found: ${frame.method}`);
    }
  };

  const stop = () => {
    stopping = true;
    if (inFlight === 0) process.exit(0);
    setTimeout(() => process.exit(0), 3000).unref();
  };

  if (fault.bannerOnStdout) writeLine("conform-reference 1.0.0 ready");
  if (fault.ignoreSigterm) process.on("SIGTERM", () => process.stderr.write("SIGTERM ignored\n"));
  else process.on("SIGTERM", stop);

  let chunks = [];
  let size = 0;
  let oversized = false;
  process.stdin.on("data", (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      const tooLong = oversized || size + piece.length > MAX_FRAME;
      const line = tooLong ? null : Buffer.concat([...chunks, piece]).toString("utf8").trim();
      chunks = [];
      size = 0;
      oversized = false;
      if (tooLong) error(null, -32600, "Frame exceeds 16 MiB");
      else if (line) handle(line);
    }
    const rest = chunk.subarray(start);
    if (rest.length) {
      if (size + rest.length > MAX_FRAME) { oversized = true; chunks = []; size = 0; }
      else if (!oversized) { chunks.push(rest); size += rest.length; }
    }
  });
  process.stdin.on("end", () => {
    // stdin is closed: the host can no longer answer, so pending host requests fail now and their tools answer.
    for (const p of pending.values()) p.reject(Object.assign(new Error("stdin closed before the host answered"), { code: -32603 }));
    pending.clear();
    stop();
  });
  void answered;
}
