// Builds the TypeScript fixture for every target once, then checks every artifact.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { signatureGet } from "portable-executable-signature";
import { build, checkAdhocSignature, untar, unzip, type BuildReport } from "../../src/builder/index.js";
import { canRunAarch64, copyFixture, readJson } from "./helpers.js";

const dir = copyFixture("ts-plugin");
const dist = join(dir, "dist");
let report: BuildReport;

before(async () => {
  report = await build({ skipManifestCheck: true, projectDir: dir, targets: "all", baseUrl: "https://example.com/releases/v1.2.3/" });
}, { timeout: 15 * 60_000 });
after(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const SIX = ["darwin-arm64", "darwin-x86_64", "linux-x86_64", "linux-aarch64", "windows-x86_64", "windows-arm64"];

test("all six Node targets are built; linux-armv7l is left out with a note", () => {
  assert.deepEqual(report.targets.map((t) => t.platform), SIX);
  assert.ok(report.notes.some((n) => /linux-armv7l/.test(n) && /22\.23\.2/.test(n)));
  for (const t of report.targets) {
    assert.equal(t.runtime, "node-sea");
    assert.equal(t.runtime_version, "22.23.2");
    assert.equal(t.code_cache, t.platform === "linux-x86_64");
  }
});

test("the host artifact passed verification with no node on PATH; linux-aarch64 under qemu", (t) => {
  const host = report.targets.find((x) => x.platform === "linux-x86_64")!;
  assert.equal(host.verify.status, "passed", JSON.stringify(host.verify));
  const arm = report.targets.find((x) => x.platform === "linux-aarch64")!;
  if (!canRunAarch64()) return t.skip("qemu-user is not installed");
  assert.equal(arm.verify.status, "passed", JSON.stringify(arm.verify));
  assert.ok(report.ok);
});

test("SHA256SUMS and build.json match the files on disk; no temporary files are left", () => {
  const sums = readFileSync(join(dist, "SHA256SUMS"), "utf8").trim().split("\n");
  assert.equal(sums.length, 12);
  for (const line of sums) {
    const [hash, file] = line.split("  ") as [string, string];
    assert.equal(sha256(readFileSync(join(dist, file))), hash, file);
  }
  const json = readJson<{ targets: Array<{ file: string; size: number; sha256: string }>; binary_urls: Record<string, unknown> }>(join(dist, "build.json"));
  for (const t of json.targets) {
    assert.equal(statSync(join(dist, t.file)).size, t.size);
    assert.equal(sha256(readFileSync(join(dist, t.file))), t.sha256);
  }
  assert.deepEqual(Object.keys(json.binary_urls), SIX);
  assert.deepEqual(readdirSync(dist).filter((f) => f.includes(".tmp-")), []);
});

test("archives hold the executable (mode 0755) and Anna's multi-file manifest.json", () => {
  for (const t of report.targets) {
    const data = readFileSync(join(dist, t.archive.file));
    const entries = t.archive.format === "zip" ? unzip(data) : untar(data);
    const exe = t.platform.startsWith("windows") ? "bin/fixture-ts.exe" : "bin/fixture-ts";
    assert.deepEqual(entries.map((e) => [e.path, e.mode]), [["manifest.json", 0o644], [exe, 0o755]]);
    assert.equal(t.archive.format, t.platform.startsWith("windows") ? "zip" : "tar.gz");
    assert.ok(entries[1]!.data.equals(readFileSync(join(dist, t.file))));
    const anna = JSON.parse(entries[0]!.data.toString()) as { name: string; version: string; runtime: { binary: { entrypoint: Record<string, string>; permissions: Record<string, string> } } };
    assert.equal(anna.name, "fixture-ts");
    assert.equal(anna.version, "1.2.3");
    assert.equal(anna.runtime.binary.entrypoint.default, "bin/fixture-ts");
    assert.equal(anna.runtime.binary.entrypoint["windows-x86_64"], "bin/fixture-ts.exe");
    assert.deepEqual(anna.runtime.binary.permissions, { [exe]: "0o755" });
  }
});

test("darwin artifacts carry a valid ad-hoc signature: every page hash recomputed", () => {
  for (const key of ["darwin-arm64", "darwin-x86_64"]) {
    const binary = readFileSync(join(dist, `fixture-ts-${key}`));
    const check = checkAdhocSignature(binary);
    assert.equal(check.flags, 0x20002, key);
    assert.equal(check.identifier, `fixture-ts-${key}`);
    assert.ok(check.pages > 20_000, key);
    assert.deepEqual(check.badPages, [], key);
    assert.ok(binary.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"), `${key}: fuse not flipped`);
    assert.ok(binary.includes("__NODE_SEA_BLOB"), `${key}: no blob section`);
  }
});

test("Windows artifacts carry the blob as a resource and no stale Authenticode signature", () => {
  for (const key of ["windows-x86_64", "windows-arm64"]) {
    const binary = readFileSync(join(dist, `fixture-ts-${key}.exe`));
    assert.equal(signatureGet(binary), null, key);
    assert.ok(binary.includes(Buffer.from("NODE_SEA_BLOB", "utf16le")), `${key}: no NODE_SEA_BLOB resource`);
    assert.ok(binary.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"), `${key}: fuse not flipped`);
  }
});

test("--base-url writes binary_urls into executa.json's binary profile, keeping the rest", () => {
  const json = readJson<{ distribution: { active: string; profiles: { local: unknown; binary: { executable_name: string; binary_urls: Record<string, { url: string; sha256: string; size: number; entrypoint: string; format: string }> } } } }>(join(dir, "executa.json"));
  assert.equal(json.distribution.active, "local");
  assert.ok(json.distribution.profiles.local);
  const urls = json.distribution.profiles.binary.binary_urls;
  assert.deepEqual(Object.keys(urls), SIX);
  const linux = report.targets.find((t) => t.platform === "linux-x86_64")!;
  assert.deepEqual(urls["linux-x86_64"], {
    url: "https://example.com/releases/v1.2.3/fixture-ts-linux-x86_64.tar.gz",
    sha256: linux.archive.sha256,
    size: linux.archive.size,
    entrypoint: "bin/fixture-ts",
    format: "tar.gz",
  });
  assert.equal(urls["windows-arm64"]!.entrypoint, "bin/fixture-ts.exe");
});

test("plain SEA builds are reproducible byte for byte", async () => {
  const again = join(dir, "again");
  const second = await build({ skipManifestCheck: true, projectDir: dir, targets: "linux-aarch64,darwin-arm64", outDir: again, verify: false });
  for (const t of second.targets) {
    const first = report.targets.find((x) => x.platform === t.platform)!;
    assert.equal(t.sha256, first.sha256, t.platform);
    assert.equal(t.archive.sha256, first.archive.sha256, t.platform);
  }
});
