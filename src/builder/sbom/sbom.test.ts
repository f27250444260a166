import assert from "node:assert/strict";
import { test } from "node:test";
import { packageFolderOf, parseGoBuildInfo } from "./index.js";
import { integrityHash } from "./types.js";

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

test("go version -m: dependencies, their go.sum hashes, and replacements", () => {
  const info = parseGoBuildInfo([
    "/tmp/p: go1.26.8",
    "\tpath\tgo-demo",
    "\tmod\tgo-demo\t(devel)\t",
    "\tdep\tgolang.org/x/text\tv0.14.0\th1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
    "\tdep\texample.com/local\tv0.0.0",
    "\t=>\t./local\t(devel)\t",
    "\tdep\texample.com/old\tv1.0.0\th1:AAAA",
    "\t=>\texample.com/new\tv1.2.0\th1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
    "\tbuild\tCGO_ENABLED=0",
  ].join("\n"));
  assert.equal(info.goVersion, "1.26.8");
  assert.equal(info.main, "go-demo");
  assert.deepEqual(info.modules.map((m) => m.purl), ["pkg:golang/golang.org/x/text@v0.14.0", "pkg:golang/example.com/local@v0.0.0", "pkg:golang/example.com/new@v1.2.0"]);
  assert.equal(info.modules[0]!.hashes?.[0]?.alg, "SHA-256");
  assert.equal(info.modules[0]!.hashes?.[0]?.content.length, 64);
  assert.match(info.modules[1]!.description ?? "", /local folder \.\/local/);
});
