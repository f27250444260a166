import assert from "node:assert/strict";
import { test } from "node:test";
import { cyclonedxJson } from "./cyclonedx.js";
import { applyGoModGraph, GO_MODULE_HASH } from "./go.js";
import { packageFolderOf, parseGoBuildInfo } from "./index.js";
import { pythonLicense, spdxOf } from "./licenses.js";
import { upstreamVersion, versionString } from "./native.js";
import { resolveFolder } from "./npm.js";
import { integrityHash, type SbomComponent } from "./types.js";

test("the package folder of a bundled input, scoped and nested", () => {
  assert.equal(packageFolderOf("node_modules/a/lib/x.js"), "node_modules/a");
  assert.equal(packageFolderOf("node_modules/a/node_modules/@s/b/index.js"), "node_modules/a/node_modules/@s/b");
  assert.equal(packageFolderOf("src/tools.ts"), undefined);
  assert.equal(packageFolderOf("node_modules/@s"), undefined);
});

test("npm integrity as a CycloneDX hash", () => {
  assert.deepEqual(integrityHash("sha512-AAEC"), [{ alg: "SHA-512", content: "000102" }]);
  assert.equal(integrityHash("md5-xyz"), undefined);
  assert.equal(integrityHash(undefined), undefined);
});

test("go version -m: dependencies, their go.sum dirhash as a property (not a file hash), and replacements", () => {
  const info = parseGoBuildInfo(
    [
      "/tmp/p: go1.26.8",
      "\tpath\tgo-demo",
      "\tmod\tgo-demo\t(devel)\t",
      "\tdep\tgolang.org/x/text\tv0.14.0\th1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
      "\tdep\texample.com/local\tv0.0.0",
      "\t=>\t./local\t(devel)\t",
      "\tdep\texample.com/old\tv1.0.0\th1:AAAA",
      "\t=>\texample.com/new\tv1.2.0\th1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
      "\tbuild\tCGO_ENABLED=0",
    ].join("\n"),
  );
  assert.equal(info.goVersion, "1.26.8");
  assert.equal(info.main, "go-demo");
  assert.deepEqual(
    info.modules.map((m) => m.purl),
    [
      "pkg:golang/golang.org/x/text@v0.14.0",
      "pkg:golang/example.com/local@v0.0.0",
      "pkg:golang/example.com/new@v1.2.0",
    ],
  );
  assert.equal(info.modules[0]!.hashes, undefined, "h1: is Go's dirhash, not the SHA-256 of a file");
  assert.deepEqual(info.modules[0]!.properties, [
    { name: GO_MODULE_HASH, value: "h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=" },
  ]);
  assert.match(info.modules[1]!.description ?? "", /local folder \.\/local/);
  assert.deepEqual([...info.required.keys()], ["golang.org/x/text", "example.com/local", "example.com/old"]);
});

test("go mod graph: edges from the selected versions only, the main module's edges make direct dependencies", () => {
  const info = parseGoBuildInfo(
    [
      "/tmp/p: go1.26.8",
      "\tpath\tdemo",
      "\tdep\texample.com/a\tv1.2.0\th1:AAAA",
      "\tdep\texample.com/b\tv1.0.0\th1:BBBB",
      "\tdep\texample.com/old\tv1.0.0\th1:CCCC",
      "\t=>\texample.com/new\tv2.0.0\th1:DDDD",
    ].join("\n"),
  );
  applyGoModGraph(
    info,
    [
      "demo example.com/a@v1.2.0",
      "example.com/a@v1.2.0 example.com/b@v0.9.0",
      "example.com/a@v1.1.0 example.com/old@v1.0.0",
      "example.com/b@v1.0.0 example.com/old@v1.0.0",
      "example.com/old@v1.0.0 example.com/unused@v1.0.0",
      "",
    ].join("\n"),
  );
  const [a, b, replaced] = info.modules;
  assert.equal(a!.direct, true);
  assert.equal(b!.direct, undefined);
  assert.deepEqual(
    a!.dependsOn,
    ["pkg:golang/example.com/b@v1.0.0"],
    "a requires b at v0.9.0; the build selected v1.0.0",
  );
  assert.deepEqual(b!.dependsOn, ["pkg:golang/example.com/new@v2.0.0"], "old is replaced by new");
  assert.equal(replaced!.dependsOn, undefined);
});

test("licenses: SPDX expressions kept, classifiers and common names mapped, vague names left as they are", () => {
  assert.equal(spdxOf("Apache-2.0 OR MIT"), "Apache-2.0 OR MIT");
  assert.equal(spdxOf("License :: OSI Approved :: GNU General Public License v2 (GPLv2)"), "GPL-2.0-only");
  assert.equal(
    spdxOf("License :: OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)"),
    "LGPL-3.0-or-later",
  );
  assert.equal(spdxOf("MIT License"), "MIT");
  assert.equal(spdxOf("Apache 2.0"), "Apache-2.0");
  assert.equal(spdxOf("License :: OSI Approved :: BSD License"), undefined, "which BSD is not said");
  assert.equal(pythonLicense({ expression: "MIT", text: "whatever" }), "MIT");
  assert.equal(
    pythonLicense({
      text: "GPLv2-or-later with a long exception that says something about commercial programs, too long",
      classifiers: ["License :: OSI Approved :: GNU General Public License v2 (GPLv2)"],
    }),
    "GPL-2.0-only",
  );
  assert.equal(
    pythonLicense({
      classifiers: ["License :: OSI Approved :: MIT License", "License :: OSI Approved :: Apache Software License"],
    }),
    "MIT AND Apache-2.0",
  );
  assert.equal(
    pythonLicense({ text: "Dual License", classifiers: ["License :: OSI Approved :: BSD License"] }),
    "Dual License",
  );
  assert.equal(pythonLicense({ classifiers: ["License :: OSI Approved :: BSD License"] }), "BSD License");
  assert.equal(pythonLicense({ text: "UNKNOWN" }), undefined);
});

test("native libraries: the version string in the bytes, and the upstream part of a Debian version", () => {
  assert.equal(versionString("libcrypto.so.3", Buffer.from("\0OpenSSL 3.0.19 27 Jan 2026\0")), "3.0.19");
  assert.equal(versionString("libcrypto-3-x64.dll", Buffer.from("xx OpenSSL 3.4.1a 11 Feb 2025 yy")), "3.4.1a");
  assert.equal(
    versionString("libz.so.1", Buffer.from(" deflate 1.2.13 Copyright 1995-2022 Jean-loup Gailly ")),
    "1.2.13",
  );
  assert.equal(versionString("libbz2.so.1.0", Buffer.from("\x001.0.8, 13-Jul-2019\0")), "1.0.8");
  assert.equal(versionString("libffi.so.8", Buffer.from("3.4.4")), undefined, "libffi carries no version string");
  assert.equal(upstreamVersion("3.0.19-1~deb12u2"), "3.0.19");
  assert.equal(upstreamVersion("1:1.2.13.dfsg-1"), "1.2.13");
  assert.equal(upstreamVersion("5.4.1-1"), "5.4.1");
});

test("npm: a package's require finds the nearest bundled folder, walking up as Node does", () => {
  const bundled = new Set([
    "node_modules/a",
    "node_modules/b",
    "node_modules/a/node_modules/b",
    "node_modules/@s/c",
    "../node_modules/d",
  ]);
  assert.equal(resolveFolder("node_modules/a", "b", bundled), "node_modules/a/node_modules/b");
  assert.equal(resolveFolder("node_modules/@s/c", "b", bundled), "node_modules/b");
  assert.equal(resolveFolder("node_modules/a/node_modules/b", "@s/c", bundled), "node_modules/@s/c");
  assert.equal(resolveFolder("", "d", bundled), "../node_modules/d");
  assert.equal(resolveFolder("", "missing", bundled), undefined);
});

test("CycloneDX dependencies: each component's edges; the plugin depends on the direct ones and on every one nothing else uses", () => {
  const c = (name: string, more: Partial<SbomComponent> = {}): SbomComponent => ({
    type: "library",
    name,
    version: "1.0.0",
    purl: `pkg:npm/${name}@1.0.0`,
    ...more,
  });
  const text = cyclonedxJson({ name: "p", version: "0.1.0", artifacts: [], tool: { name: "t", version: "1" } }, [
    c("a", { direct: true, dependsOn: ["pkg:npm/b@1.0.0", "pkg:npm/not-bundled@1.0.0"] }),
    c("b", { direct: true }),
    c("c", { dependsOn: ["pkg:npm/b@1.0.0"] }),
    c("b", { dependsOn: ["pkg:npm/d@1.0.0"] }),
    c("d"),
  ]);
  const bom = JSON.parse(text) as { dependencies: Array<{ ref: string; dependsOn?: string[] }> };
  const edges = Object.fromEntries(bom.dependencies.map((d) => [d.ref, d.dependsOn ?? []]));
  assert.deepEqual(edges["p@0.1.0"], ["pkg:npm/a@1.0.0", "pkg:npm/b@1.0.0", "pkg:npm/c@1.0.0"]);
  assert.deepEqual(
    edges["pkg:npm/a@1.0.0"],
    ["pkg:npm/b@1.0.0"],
    "an edge to a package that is not in the artifact is dropped",
  );
  assert.deepEqual(
    edges["pkg:npm/b@1.0.0"],
    ["pkg:npm/d@1.0.0"],
    "the same package in two targets: the union of its edges",
  );
  assert.deepEqual(edges["pkg:npm/d@1.0.0"], []);
});
