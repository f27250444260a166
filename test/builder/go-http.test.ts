/**
 * `executa build` leaves net/http out of a Go plugin whose manifest.json grants no capability
 * that uploads (goBuildTags): the runtime would refuse every PUT anyway, and net/http with the
 * TLS and crypto code it brings is half the binary and a sixth of its memory.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { goBuildTags, goTagsFlag, NO_HTTP_TAG, PUT_METHODS } from "../../src/builder/go.js";
import { build } from "../../src/builder/index.js";
import { TEMPLATES } from "../runtimes/helpers.js";
import { regenerateManifest, scaffoldProject } from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

/** executa.json's host_capabilities set to `capabilities`, and the manifest regenerated. */
async function withCapabilities(dir: string, capabilities: string[]): Promise<void> {
  const file = join(dir, "executa.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), host_capabilities: capabilities }));
  await regenerateManifest(dir);
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

test("only host capabilities that grant an upload keep net/http; GOFLAGS' own tags are kept", () => {
  const cases: [string[], string[]][] = [
    [[], [NO_HTTP_TAG]],
    [["llm.sample", "aps.kv"], [NO_HTTP_TAG]],
    [["host.upload"], []],
    [["aps.files"], []],
    [["aps.scope.admin"], []],
  ];
  for (const [capabilities, tags] of cases) assert.deepEqual(goBuildTags(capabilities), tags, capabilities.join());
  assert.deepEqual(goBuildTags(undefined), [NO_HTTP_TAG], "a manifest without host_capabilities grants none");
  assert.deepEqual(goBuildTags("host.upload"), [NO_HTTP_TAG], "host_capabilities that are not a list grant none");
  assert.deepEqual(goBuildTags(7), [NO_HTTP_TAG], "host_capabilities that are not a list grant none");
  assert.deepEqual(goTagsFlag([NO_HTTP_TAG], "-mod=mod -tags=netgo,osusergo"), [
    "-tags",
    `netgo,osusergo,${NO_HTTP_TAG}`,
  ]);
  assert.deepEqual(goTagsFlag([NO_HTTP_TAG], ""), ["-tags", NO_HTTP_TAG]);
  assert.deepEqual(goTagsFlag([], "-tags=netgo"), [], "no tag of ours: GOFLAGS applies as it is");
});

test("executa build links net/http only into a plugin whose manifest grants an upload", {
  ...requires("go"),
  timeout: 5 * 60_000,
}, async () => {
  const dir = await scaffoldProject("go", "go-http");
  made.push(dir);
  const linksNetHTTP = async (capabilities: string[]) => {
    await withCapabilities(dir, capabilities);
    const report = await build({ projectDir: dir, verify: false, outDir: join(dir, `out-${capabilities.length}`) });
    return readFileSync(join(report.dist, report.targets[0]!.file)).includes("net/http.init");
  };
  assert.equal(await linksNetHTTP([]), false, "built without an upload capability, the binary has no net/http");
  assert.equal(await linksNetHTTP(["host.upload"]), true, "with host.upload it has");
});
