/**
 * `executa build` leaves net/http out of a Go plugin whose manifest.json grants no capability
 * that uploads (goBuildTags): the runtime would refuse every PUT anyway, and net/http with the
 * TLS and crypto code it brings is half the binary and a sixth of its memory.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { goBuild, goBuildTags, goTagsFlag, NO_HTTP_TAG, PUT_METHODS } from "../../src/builder/go.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import { TEMPLATES } from "../runtimes/helpers.js";
import { scaffoldProject } from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

function withCapabilities(dir: string, capabilities: string[]): void {
  const file = join(dir, "manifest.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), host_capabilities: capabilities }));
}

test("PUT_METHODS are the methods the Go runtime PUTs bytes for", () => {
  const runtime = join(TEMPLATES, "go", "internal", "executa");
  const methods = readdirSync(runtime).flatMap((file) => {
    const source = readFileSync(join(runtime, file), "utf8");
    return [...source.matchAll(/\bh\.put\(ctx, (\w+),/g)].map(([, name]) => {
      const value = new RegExp(`const ${name} = "([^"]+)"`).exec(source);
      assert.ok(value, `${file}: h.put's method ${name} is not a constant of the file`);
      return value[1]!;
    });
  });
  assert.deepEqual(methods.sort(), [...PUT_METHODS].sort());
});

test("only a manifest that grants an upload keeps net/http", requires("go"), async () => {
  const dir = await scaffoldProject("go", "go-http");
  made.push(dir);
  const cases: [string[], string[]][] = [
    [[], [NO_HTTP_TAG]],
    [["llm.sample", "aps.kv"], [NO_HTTP_TAG]],
    [["host.upload"], []],
    [["aps.files"], []],
    [["aps.scope.admin"], []],
  ];
  for (const [capabilities, tags] of cases) {
    withCapabilities(dir, capabilities);
    assert.deepEqual(goBuildTags(dir), tags, capabilities.join());
  }
  assert.deepEqual(goBuildTags(join(dir, "no-such-folder")), [], "no manifest.json: no tags");
  withCapabilities(dir, []);
  assert.deepEqual(goTagsFlag(dir, "-mod=mod -tags=netgo,osusergo"), ["-tags", `netgo,osusergo,${NO_HTTP_TAG}`]);
  assert.deepEqual(goTagsFlag(dir, ""), ["-tags", NO_HTTP_TAG]);

  const linksNetHTTP = async (capabilities: string[]) => {
    withCapabilities(dir, capabilities);
    const out = join(dir, `plugin-${capabilities.length}`);
    await goBuild(dir, hostPlatformKey()!, out);
    return readFileSync(out).includes("net/http.init");
  };
  assert.equal(await linksNetHTTP([]), false, "built without an upload capability, the binary has no net/http");
  assert.equal(await linksNetHTTP(["host.upload"]), true, "with host.upload it has");
});
