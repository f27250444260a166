/**
 * The facts the runtimes repeat are create-executa's own (src/protocol): the capability table
 * (played against each runtime, one capability at a time), the capabilities that unlock each
 * namespace, and the error codes (read from each runtime's source).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { runVectors, type Vector } from "../../src/conform/vectors.js";
import {
  AgentError, capabilitiesForMethod, clientCapabilitiesFor, EmbeddingsError, HOST_CAPABILITIES, ImageError, RpcError, SamplingError, StorageError, UploadError,
} from "../../src/protocol/index.js";
import { goPlugin, pythonPlugin, TEMPLATES, tsPlugin } from "./helpers.js";

const CAPABILITIES = Object.keys(HOST_CAPABILITIES);
const have = (program: string, arg = "--version") => spawnSync(program, [arg]).status === 0;

const RUNTIMES = [
  { name: "TypeScript", launch: tsPlugin, skip: false as string | false, errors: "ts/src/executa/errors.ts", host: "ts/src/executa/host.ts" },
  { name: "Python", launch: pythonPlugin, skip: !have("python3") && "python3 is not installed", errors: "python/__pyModule__/executa/errors.py", host: "python/__pyModule__/executa/host.py" },
  { name: "Go", launch: goPlugin, skip: !have("go", "version") && "go is not installed", errors: "go/internal/executa/errors.go", host: "go/internal/executa/namespaces.go" },
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

/** `CodeSamplingNotGranted`, `SamplingNotGranted`, `SAMPLING_NOT_GRANTED` -> `SAMPLING_NOT_GRANTED`; `ImageNUnsupported` -> `IMAGE_N_UNSUPPORTED`. */
const constantName = (name: string) => name.replace(/^Code/, "").replace(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, "_").toUpperCase();

function codesIn(source: string): [string, number][] {
  return [...source.matchAll(/^\s*(?:export\s+const\s+)?([A-Za-z_]\w*)\s*[:=]\s*(-32\d{3}),?\s*(?:\/\/.*|#.*)?$/gm)].map((m) => [constantName(m[1]!), Number(m[2])]);
}

/** The capability names on the line of a runtime's namespace table that unlocks `method`'s family. */
function namespaceCapabilities(source: string, first: string): string[] {
  const line = source.split("\n").find((l) => l.includes(`"${first}"`));
  assert.ok(line, `no namespace table line with "${first}"`);
  return [...line.matchAll(/"([a-z]+\.[a-z.]+)"/g)].map((m) => m[1]!).sort();
}

for (const runtime of RUNTIMES) {
  describe(`${runtime.name} runtime: the tables are create-executa's`, { skip: runtime.skip }, () => {
    test("every error code it names is the protocol's", () => {
      const found = codesIn(readFileSync(join(TEMPLATES, runtime.errors), "utf8"));
      assert.ok(found.length >= 8, `read only ${found.length} codes from ${runtime.errors}`);
      for (const [name, code] of found) assert.equal(code, PROTOCOL_CODES.get(name), `${runtime.errors}: ${name} = ${code}`);
    });

    test("the capabilities that unlock sampling and storage are the protocol's", () => {
      const source = readFileSync(join(TEMPLATES, runtime.host), "utf8");
      assert.deepEqual(namespaceCapabilities(source, "aps.kv"), capabilitiesForMethod("storage/get").sort());
      assert.deepEqual(namespaceCapabilities(source, "llm.sample"), capabilitiesForMethod("sampling/createMessage").sort());
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
          { expect: { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2.0", serverInfo: "$object", capabilities: {}, client_capabilities: clientCapabilitiesFor([capability]) } } },
        ],
      }));
      const results = await runVectors(vectors, runtime.launch(), { concurrency: 4 });
      const failed = [...results.values()].filter((r) => !r.ok).map((r) => r.failure);
      assert.deepEqual(failed, []);
    });
  });
}
