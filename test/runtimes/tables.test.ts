/**
 * The facts the runtimes repeat are create-executa's own (src/protocol): the capability table
 * and the capabilities that unlock each reverse-RPC method (played against each runtime, one
 * capability at a time), the error codes (read from each runtime's source), and the limits the
 * helpers check before sending (played at each limit and one past it).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { runVectors, type Step, type Vector } from "../../src/conform/vectors.js";
import { REVERSE_METHODS } from "../../src/host/index.js";
import {
  AgentError,
  capabilitiesForMethod,
  clientCapabilitiesFor,
  EmbeddingsError,
  HOST_CAPABILITIES,
  ImageError,
  INLINE_UPLOAD_MAX_BYTES,
  MAX_RESULT_BYTES,
  RESULT_TOO_LARGE,
  RpcError,
  SamplingError,
  SCHEMA_LIMITS,
  StorageError,
  UploadError,
} from "../../src/protocol/index.js";
import { goPlugin, pythonPlugin, TEMPLATES, tsPlugin } from "./helpers.js";
import { requires } from "../support/requires.js";

const CAPABILITIES = Object.keys(HOST_CAPABILITIES);
/** Every reverse-RPC method: the mock host's, and every exact method the capability table names (web/*). */
const METHODS = [
  ...new Set([
    ...Object.keys(REVERSE_METHODS),
    ...Object.values(HOST_CAPABILITIES).flatMap((c) =>
      (c.methods as readonly string[]).filter((m) => !/[/.]$/.test(m)),
    ),
  ]),
];

const RUNTIMES = [
  {
    name: "TypeScript",
    launch: tsPlugin,
    needs: requires(),
    errors: "ts/src/executa/errors.ts",
    writer: "ts/src/executa/writer.ts",
  },
  {
    name: "Python",
    launch: pythonPlugin,
    needs: requires("python3"),
    errors: "python/__pyModule__/executa/errors.py",
    writer: "python/__pyModule__/executa/writer.py",
  },
  {
    name: "Go",
    launch: goPlugin,
    needs: requires("go"),
    errors: "go/internal/executa/errors.go",
    writer: "go/internal/executa/writer.go",
  },
];

/** Every error code a runtime may name, in the runtime's naming (SAMPLING_NOT_GRANTED), from src/protocol. */
const PROTOCOL_CODES = new Map<string, number>([
  ["PARSE_ERROR", RpcError.ParseError],
  ["INVALID_REQUEST", RpcError.InvalidRequest],
  ["METHOD_NOT_FOUND", RpcError.MethodNotFound],
  ["INVALID_PARAMS", RpcError.InvalidParams],
  ["INTERNAL_ERROR", RpcError.InternalError],
  ["SHUTTING_DOWN", RpcError.ShuttingDown],
  ...Object.entries(SamplingError).map(([k, v]) => [`SAMPLING_${k}`, v] as [string, number]),
  ...Object.entries(StorageError).map(([k, v]) => [`STORAGE_${k}`, v] as [string, number]),
  ...Object.entries(AgentError).map(([k, v]) => [`AGENT_${k}`, v] as [string, number]),
  ...Object.entries(ImageError).map(([k, v]) => [`IMAGE_${k}`, v] as [string, number]),
  ...Object.entries(UploadError).map(([k, v]) => [`UPLOAD_${k}`, v] as [string, number]),
  ...Object.entries(EmbeddingsError).map(([k, v]) => [`EMBEDDINGS_${k}`, v] as [string, number]),
]);

/** Every namespace's codes, each under its runtime name: a runtime's table that names them all has this many. */
const NAMESPACE_CODES = [...PROTOCOL_CODES.keys()].filter((k) =>
  /^(SAMPLING|STORAGE|AGENT|IMAGE|UPLOAD|EMBEDDINGS)_/.test(k),
);

/** `CodeSamplingNotGranted`, `SamplingNotGranted`, `SAMPLING_NOT_GRANTED` -> `SAMPLING_NOT_GRANTED`; `ImageNUnsupported` -> `IMAGE_N_UNSUPPORTED`. */
const constantName = (name: string) =>
  name
    .replace(/^Code/, "")
    .replace(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, "_")
    .toUpperCase();

function codesIn(source: string): [string, number][] {
  return [
    ...source.matchAll(/^\s*(?:export\s+const\s+)?([A-Za-z_]\w*)\s*[:=]\s*(-32\d{3}),?\s*(?:\/\/.*|#.*)?$/gm),
  ].map((m) => [constantName(m[1]!), Number(m[2])]);
}

const init = [
  { send: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2.0" } } },
  { expect: { jsonrpc: "2.0", id: 0, result: "$object" } },
];
const invoke = (id: number, tool: string, args: Record<string, unknown>) => ({
  send: { jsonrpc: "2.0", id, method: "invoke", params: { tool, arguments: args, context: { invoke_id: "inv-1" } } },
});
const sent = (method: string, params: Record<string, unknown> = {}) => ({
  expect: { jsonrpc: "2.0", id: { $match: "^[0-9a-f]{32}$" }, method, params: { ...params, $partial: true } },
});
const answered = (id: number, data: unknown) => ({
  expect: { jsonrpc: "2.0", id, result: { success: true, data, duration_ms: "$integer" } },
});

/**
 * With only `capability` in host_capabilities, every reverse-RPC method the host implements is
 * sent when the capability unlocks it (capabilities.ts), and refused locally otherwise.
 */
function capabilityVector(capability: string | undefined, i: number): Vector {
  const methods = METHODS;
  return {
    id: `reverse.unlocks-${i}`,
    row: "reverse",
    title: `host_capabilities [${capability ?? ""}] unlocks exactly the methods capabilities.ts says`,
    tools: ["host_call"],
    capabilities: capability === undefined ? [] : [capability],
    host: methods.map((method) => ({ method, result: { ok: true } })),
    line: 0,
    steps: [
      ...init,
      ...methods.flatMap((method, n): Step[] => {
        const id = n + 1;
        const call = invoke(id, "host_call", { method, params: {} });
        if (capability !== undefined && (capabilitiesForMethod(method) as string[]).includes(capability)) {
          return [call, sent(method), answered(id, { ok: true })];
        }
        const error = {
          $match: `^${method.replace(/[./]/g, "\\$&")} failed: \\[-32\\d{3} (NOT_NEGOTIATED|NOT_GRANTED|permission_denied)\\] `,
        };
        return [call, { expect: { jsonrpc: "2.0", id, result: { success: false, error, duration_ms: "$integer" } } }];
      }),
    ],
  };
}

/** A schema of exactly `bytes` bytes of compact JSON. */
function schemaOfBytes(bytes: number): Record<string, unknown> {
  const empty = JSON.stringify({ type: "object", description: "" }).length;
  return { type: "object", description: "d".repeat(bytes - empty) };
}
const schemaOfDepth = (depth: number): Record<string, unknown> =>
  depth === 1 ? { type: "string" } : { type: "object", properties: { a: schemaOfDepth(depth - 1) } };
const schemaOfNodes = (nodes: number) => ({
  type: "object",
  properties: Object.fromEntries(Array.from({ length: nodes - 1 }, (_, i) => [`p${i}`, {}])),
});

/** At each limit the helper sends; one past it, it refuses locally with the namespace's INVALID_REQUEST. */
function limitsVector(): Vector {
  const longest = "a-_"
    .repeat(SCHEMA_LIMITS.maxBytes)
    .slice(0, Number(/\{1,(\d+)\}/.exec(SCHEMA_LIMITS.name.source)![1]));
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["name", { name: longest, schema: { type: "object" } }, { name: `${longest}a`, schema: { type: "object" } }],
    [
      "bytes",
      { name: "s", schema: schemaOfBytes(SCHEMA_LIMITS.maxBytes) },
      { name: "s", schema: schemaOfBytes(SCHEMA_LIMITS.maxBytes + 1) },
    ],
    [
      "depth",
      { name: "s", schema: schemaOfDepth(SCHEMA_LIMITS.maxDepth) },
      { name: "s", schema: schemaOfDepth(SCHEMA_LIMITS.maxDepth + 1) },
    ],
    [
      "nodes",
      { name: "s", schema: schemaOfNodes(SCHEMA_LIMITS.maxNodes) },
      { name: "s", schema: schemaOfNodes(SCHEMA_LIMITS.maxNodes + 1) },
    ],
  ];
  let id = 0;
  const sample = (json_schema: Record<string, unknown>) =>
    invoke(++id, "service", {
      call: "sample",
      args: { prompt: "x", responseFormat: { type: "json_schema", json_schema } },
    });
  const upload = (size: number) =>
    invoke(++id, "service", {
      call: "upload",
      args: { size, filename: "f.bin", mimeType: "application/octet-stream" },
    });
  const refused = (code: number) => answered(id, { error: { code, code_name: "INVALID_REQUEST", message: "$string" } });
  return {
    id: "reverse.limits",
    row: "reverse",
    title: "the schema limits and the inline upload cap are src/protocol/limits.ts's",
    tools: ["service"],
    capabilities: ["llm.sample", "host.upload"],
    host: [
      {
        method: "sampling/createMessage",
        result: { role: "assistant", content: { type: "text", text: "{}" }, model: "m" },
      },
      { method: "host/uploadFile", params: { mode: "inline", $partial: true }, result: { uploaded: "inline" } },
      {
        method: "host/uploadFile",
        params: { mode: "negotiate", $partial: true },
        error: { code: UploadError.PRESIGN_FAILED, message: "stop here" },
      },
    ],
    line: 0,
    steps: [
      ...init,
      ...cases.flatMap(([, at, past]) => [
        sample(at),
        sent("sampling/createMessage"),
        answered(id, { result: { text: "{}", structured_valid: false, downgraded: false, parsed: null } }),
        sample(past),
        refused(SamplingError.INVALID_REQUEST),
      ]),
      upload(INLINE_UPLOAD_MAX_BYTES),
      { ...sent("host/uploadFile", { mode: "inline" }), within_ms: 20_000 },
      answered(id, { result: { uploaded: "inline" } }),
      upload(INLINE_UPLOAD_MAX_BYTES + 1),
      sent("host/uploadFile", { mode: "negotiate", size_bytes: INLINE_UPLOAD_MAX_BYTES + 1 }),
      answered(id, { error: { code: UploadError.PRESIGN_FAILED, code_name: "PRESIGN_FAILED", message: "stop here" } }),
    ],
  };
}

/** The value of a constant `MAX_RESULT_BYTES` / `MaxResultBytes` written as a product (`4 * 1024 * 1024`). */
function resultLimitIn(source: string): number | undefined {
  const m = /(?:MAX_RESULT_BYTES|MaxResultBytes)\s*=\s*([\d\s*]+?)\s*(?:;|\n)/.exec(source);
  return m ? m[1]!.split("*").reduce((product, n) => product * Number(n.trim()), 1) : undefined;
}

/** Just under the result limit a result goes inline; just over it, it is RESULT_TOO_LARGE with the limit in its data. */
function resultLimitVector(): Vector {
  const big = (id: number, bytes: number) => ({
    send: { jsonrpc: "2.0", id, method: "invoke", params: { tool: "big", arguments: { bytes } } },
  });
  return {
    id: "results.limit",
    row: "results",
    title: "the result limit is src/protocol/limits.ts's MAX_RESULT_BYTES",
    tools: ["big"],
    line: 0,
    steps: [
      big(1, MAX_RESULT_BYTES - 200),
      {
        expect: {
          jsonrpc: "2.0",
          id: 1,
          result: { success: true, data: { $repeat: "x", count: MAX_RESULT_BYTES - 200 }, duration_ms: "$integer" },
        },
        within_ms: 20_000,
      },
      big(2, MAX_RESULT_BYTES),
      {
        expect: {
          jsonrpc: "2.0",
          id: 2,
          error: {
            code: RpcError.InternalError,
            message: "$string",
            data: { errorCode: RESULT_TOO_LARGE, result_size_bytes: "$integer", max_payload_bytes: MAX_RESULT_BYTES },
          },
        },
        within_ms: 20_000,
      },
    ],
  };
}

for (const runtime of RUNTIMES) {
  describe(`${runtime.name} runtime: the tables are create-executa's`, runtime.needs, () => {
    test("every error code it names is the protocol's", () => {
      const found = codesIn(readFileSync(join(TEMPLATES, runtime.errors), "utf8"));
      for (const [name, code] of found)
        assert.equal(code, PROTOCOL_CODES.get(name), `${runtime.errors}: ${name} = ${code}`);
      const named = new Set(found.map(([name]) => name));
      assert.deepEqual(
        NAMESPACE_CODES.filter((name) => !named.has(name)),
        [],
        `${runtime.errors} names every code of every namespace`,
      );
    });

    test("every reverse-RPC method is unlocked by exactly the capabilities the protocol says", async () => {
      const vectors = [undefined, ...CAPABILITIES].map(capabilityVector);
      const results = await runVectors(vectors, runtime.launch(), { concurrency: 4 });
      assert.deepEqual(
        [...results.values()].filter((r) => !r.ok).map((r) => r.failure),
        [],
      );
    });

    test("its result limit is the protocol's MAX_RESULT_BYTES", async () => {
      assert.equal(
        resultLimitIn(readFileSync(join(TEMPLATES, runtime.writer), "utf8")),
        MAX_RESULT_BYTES,
        `${runtime.writer}: MAX_RESULT_BYTES`,
      );
      const results = await runVectors([resultLimitVector()], runtime.launch(), { concurrency: 1 });
      assert.deepEqual(
        [...results.values()].filter((r) => !r.ok).map((r) => r.failure),
        [],
      );
    });

    test("the helpers check the protocol's schema limits and inline upload cap", async () => {
      const results = await runVectors([limitsVector()], runtime.launch(), { concurrency: 1 });
      assert.deepEqual(
        [...results.values()].filter((r) => !r.ok).map((r) => r.failure),
        [],
      );
    });

    test("initialize advertises each host capability as protocol/capabilities.ts says", async () => {
      const vectors: Vector[] = CAPABILITIES.map((capability, i) => ({
        id: `methods.capability-${i}`,
        row: "methods",
        title: `host_capabilities [${capability}]`,
        tools: [],
        capabilities: [capability],
        line: 0,
        steps: [
          { send: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2.0" } } },
          {
            expect: {
              jsonrpc: "2.0",
              id: 0,
              result: {
                protocolVersion: "2.0",
                serverInfo: "$object",
                capabilities: {},
                client_capabilities: clientCapabilitiesFor([capability]),
              },
            },
          },
        ],
      }));
      const all: Vector = {
        id: "methods.capability-all",
        row: "methods",
        title: "every host capability at once: merged as clientCapabilitiesFor merges them",
        tools: [],
        capabilities: CAPABILITIES,
        line: 0,
        steps: [
          { send: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2.0" } } },
          {
            expect: {
              jsonrpc: "2.0",
              id: 0,
              result: {
                protocolVersion: "2.0",
                serverInfo: "$object",
                capabilities: {},
                client_capabilities: clientCapabilitiesFor(CAPABILITIES),
              },
            },
          },
        ],
      };
      const results = await runVectors([...vectors, all], runtime.launch(), { concurrency: 4 });
      const failed = [...results.values()].filter((r) => !r.ok).map((r) => r.failure);
      assert.deepEqual(failed, []);
    });
  });
}
