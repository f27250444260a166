/**
 * The Go runtime names each code of a namespace (HostError.CodeName) by a table in
 * namespaces.go: every name there is src/protocol's name for that code, and every code of the
 * namespace is named.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  AgentError,
  EmbeddingsError,
  ImageError,
  SamplingError,
  StorageError,
  UploadError,
} from "../../../src/protocol/index.js";
import { TEMPLATES } from "../helpers.js";

const RUNTIME = join(TEMPLATES, "go", "internal", "executa");
const PROTOCOL: Record<string, Record<string, number>> = {
  Sampling: SamplingError,
  Storage: StorageError,
  Agent: AgentError,
  Image: ImageError,
  Upload: UploadError,
  Embeddings: EmbeddingsError,
};

/** `CodeStoragePreconditionFailed` -> ["Storage", "PRECONDITION_FAILED"]. */
function split(constant: string): [string, string] {
  const m = /^Code(Sampling|Storage|Agent|Image|Upload|Embeddings)(\w+)$/.exec(constant);
  assert.ok(m, `${constant} is not a namespace code constant`);
  return [m[1]!, m[2]!.replace(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, "_").toUpperCase()];
}

/** Namespace variable -> its [constant, name] pairs, read from namespaces.go. */
function nameTables(): Map<string, [string, string][]> {
  const source = readFileSync(join(RUNTIME, "namespaces.go"), "utf8");
  const tables = new Map<string, [string, string][]>();
  for (const m of source.matchAll(
    /^var (\w+)Namespace = &namespace\{\n\tnames: map\[int\]string\{\n([\s\S]*?)\n\t\},/gm,
  )) {
    tables.set(
      m[1]!,
      [...m[2]!.matchAll(/(Code\w+): "([A-Z_]+)"/g)].map((p) => [p[1]!, p[2]!]),
    );
  }
  return tables;
}

test("every code name in the Go runtime's namespace tables is the protocol's name for the code", () => {
  const tables = nameTables();
  assert.deepEqual([...tables.keys()].sort(), ["agent", "embeddings", "image", "sampling", "storage", "upload"]);
  for (const [namespace, pairs] of tables) {
    for (const [constant, name] of pairs) {
      const [family, constantName] = split(constant);
      assert.equal(name, constantName, `${namespace}: ${constant} is named ${name}`);
      assert.ok(Object.hasOwn(PROTOCOL[family]!, name), `${namespace}: ${family} has no code ${name}`);
    }
  }
});

test("each namespace names every code of its family (agent also sampling's TIMEOUT and NOT_NEGOTIATED)", () => {
  const tables = nameTables();
  const expected: Record<string, string[]> = {
    sampling: Object.keys(SamplingError).map((k) => `Sampling ${k}`),
    agent: [...Object.keys(AgentError).map((k) => `Agent ${k}`), "Sampling TIMEOUT", "Sampling NOT_NEGOTIATED"],
    storage: Object.keys(StorageError).map((k) => `Storage ${k}`),
    image: Object.keys(ImageError).map((k) => `Image ${k}`),
    upload: Object.keys(UploadError).map((k) => `Upload ${k}`),
    embeddings: Object.keys(EmbeddingsError).map((k) => `Embeddings ${k}`),
  };
  for (const [namespace, names] of Object.entries(expected)) {
    const got = (tables.get(namespace) ?? []).map(([constant]) => split(constant).join(" "));
    assert.deepEqual(got.sort(), names.sort(), `${namespace}Namespace's names`);
  }
});
