import assert from "node:assert/strict";
import { delimiter, dirname } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Session } from "../host/index.js";
import { canonicalManifestJson } from "../protocol/index.js";
import { pathWithoutNode, verifyLaunch, wineGap } from "./verify.js";

const REFERENCE = {
  command: process.execPath,
  args: [fileURLToPath(new URL("../../../test/broken-plugins/node/reference.mjs", import.meta.url))],
};

async function servedManifestText(): Promise<string> {
  const session = new Session(REFERENCE);
  try {
    return canonicalManifestJson((await session.describe()).frame.result);
  } finally {
    await session.dispose();
  }
}

test("verifyLaunch: a conforming plugin whose describe equals manifest.json passes the conformance checks", {
  timeout: 120_000,
}, async () => {
  const result = await verifyLaunch(REFERENCE, await servedManifestText());
  assert.deepEqual(result.failures, []);
  assert.equal(result.ok, true);
});

test("verifyLaunch: describe that differs from manifest.json fails, named by its check", {
  timeout: 120_000,
}, async () => {
  const text = (await servedManifestText()).replace('"version": "', '"version": "9');
  const result = await verifyLaunch(REFERENCE, text);
  assert.equal(result.ok, false);
  assert.ok(
    result.failures.some((f) => f.startsWith("describe.manifest-text:")),
    result.failures.join("; "),
  );
});

test("PATH without node drops every folder that holds node", () => {
  const nodeDir = dirname(process.execPath);
  const path = pathWithoutNode([nodeDir, "/nonexistent"].join(delimiter));
  assert.equal(path, "/nonexistent");
});

test("Wine's own gaps are told apart from artifact failures", () => {
  assert.match(wineGap(["fatal error: bcryptprimitives.dll not found"]) ?? "", /bcryptprimitives/);
  assert.equal(wineGap(["describe does not equal manifest.json byte for byte"]), undefined);
});
