// Builds a scaffolded TypeScript plugin for every target once, then checks every artifact.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { signatureGet } from "portable-executable-signature";
import { build, checkAdhocSignature, untar, unzip, type BuildReport } from "../../src/builder/index.js";
import { Session } from "../../src/host/index.js";
import { readJson, scaffoldProject } from "./helpers.js";
import { optional } from "../support/requires.js";

let dir: string;
let dist: string;
let report: BuildReport;
let throwLine: number;

/**
 * A line in text_stats that throws an unexpected error for the text "throw" (the same edit in
 * every project of this file, so the builds stay comparable); returns its line number.
 */
function addThrowingLine(projectDir: string): number {
  const file = join(projectDir, "src", "tools.ts");
  const lines = readFileSync(file, "utf8").split("\n");
  const at = lines.findIndex((line) => line.includes("if (top < 0)")) + 1;
  assert.ok(at > 0, "text_stats checks top");
  lines.splice(at, 0, '  if (text === "throw") throw new Error("thrown on purpose");');
  writeFileSync(file, lines.join("\n"));
  return at + 1;
}

before(
  async () => {
    dir = await scaffoldProject("ts", "sea-plugin");
    throwLine = addThrowingLine(dir);
    dist = join(dir, "dist");
    report = await build({ projectDir: dir, target: "all", baseUrl: "https://example.com/releases/v1.2.3/" });
  },
  { timeout: 15 * 60_000 },
);
after(() => rmSync(dirname(dir), { recursive: true, force: true }));

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const SIX = ["darwin-arm64", "darwin-x86_64", "linux-x86_64", "linux-aarch64", "windows-x86_64", "windows-arm64"];

test("all six Node targets are built; linux-armv7l is left out with a note", () => {
  assert.deepEqual(
    report.targets.map((t) => t.platform),
    SIX,
  );
  assert.ok(report.notes.some((n) => /linux-armv7l/.test(n) && /22\.23\.2/.test(n)));
  for (const t of report.targets) {
    assert.equal(t.runtime, "node-sea");
    assert.equal(t.runtime_version, "22.23.2");
    assert.equal(t.code_cache, false, "the code cache is opt-in: it is not reproducible");
  }
});

test("the host artifact passed verification with no node on PATH; linux-aarch64 under qemu", (t) => {
  const host = report.targets.find((x) => x.platform === "linux-x86_64")!;
  assert.equal(host.verify.status, "passed", JSON.stringify(host.verify));
  const arm = report.targets.find((x) => x.platform === "linux-aarch64")!;
  if (!optional("qemu", t)) return;
  assert.equal(arm.verify.status, "passed", JSON.stringify(arm.verify));
  assert.ok(report.ok);
});

test("a tool that throws in the built executable logs a stack trace that names its line in src/tools.ts", async () => {
  const session = new Session({ command: join(dist, "sea-plugin-linux-x86_64"), args: [], cwd: tmpdir() });
  try {
    const answer = await session.invoke("text_stats", { text: "throw" }, { timeoutMs: 20_000 });
    assert.ok("error" in answer.frame, JSON.stringify(answer.frame));
    for (let i = 0; i < 50 && !/at text_stats/.test(session.stderr); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(
      session.stderr,
      /Error: thrown on purpose\n\s+at text_stats \(.*\bsrc\/tools\.ts:(\d+):\d+\)/,
      session.stderr,
    );
    assert.equal(/src\/tools\.ts:(\d+)/.exec(session.stderr)![1], String(throwLine), session.stderr);
  } finally {
    await session.dispose();
  }
});

test("SHA256SUMS, the .sha256 files and build.json match the files on disk; no temporary files are left", () => {
  const sums = readFileSync(join(dist, "SHA256SUMS"), "utf8").trim().split("\n");
  assert.equal(sums.length, 12 + report.sbom.length + 1, "executables, archives, SBOMs and build.json");
  for (const t of report.targets) {
    assert.equal(t.archive.checksum_file, `${t.archive.file}.sha256`);
    assert.equal(
      readFileSync(join(dist, t.archive.checksum_file), "utf8"),
      `${sha256(readFileSync(join(dist, t.archive.file)))}  ${t.archive.file}\n`,
    );
  }
  for (const line of sums) {
    const [hash, file] = line.split("  ") as [string, string];
    assert.equal(sha256(readFileSync(join(dist, file))), hash, file);
  }
  const json = readJson<{
    targets: Array<{ file: string; size: number; sha256: string }>;
    binary_urls: Record<string, unknown>;
  }>(join(dist, "build.json"));
  for (const t of json.targets) {
    assert.equal(statSync(join(dist, t.file)).size, t.size);
    assert.equal(sha256(readFileSync(join(dist, t.file))), t.sha256);
  }
  assert.deepEqual(Object.keys(json.binary_urls), SIX);
  assert.deepEqual(
    readdirSync(dist).filter((f) => f.includes(".tmp-")),
    [],
  );
});

test("archives hold the executable (mode 0755) and Anna's multi-file manifest.json", () => {
  for (const t of report.targets) {
    const data = readFileSync(join(dist, t.archive.file));
    const entries = t.archive.format === "zip" ? unzip(data) : untar(data);
    const exe = t.platform.startsWith("windows") ? "bin/sea-plugin.exe" : "bin/sea-plugin";
    assert.deepEqual(
      entries.map((e) => [e.path, e.mode]),
      [
        ["manifest.json", 0o644],
        [exe, 0o755],
      ],
    );
    assert.equal(t.archive.format, t.platform.startsWith("windows") ? "zip" : "tar.gz");
    assert.ok(entries[1]!.data.equals(readFileSync(join(dist, t.file))));
    const anna = JSON.parse(entries[0]!.data.toString()) as {
      name: string;
      version: string;
      runtime: { binary: { entrypoint: Record<string, string>; permissions: Record<string, string> } };
    };
    assert.equal(anna.name, "sea-plugin");
    assert.equal(anna.version, "0.1.0");
    assert.equal(anna.runtime.binary.entrypoint.default, "bin/sea-plugin");
    assert.equal(anna.runtime.binary.entrypoint["windows-x86_64"], "bin/sea-plugin.exe");
    assert.deepEqual(anna.runtime.binary.permissions, { [exe]: "0o755" });
  }
});

test("darwin artifacts carry a valid ad-hoc signature: every page hash recomputed", () => {
  for (const key of ["darwin-arm64", "darwin-x86_64"]) {
    const binary = readFileSync(join(dist, `sea-plugin-${key}`));
    const check = checkAdhocSignature(binary);
    assert.equal(check.flags, 0x20002, key);
    assert.equal(check.identifier, `sea-plugin-${key}`);
    assert.ok(check.pages > 20_000, key);
    assert.deepEqual(check.badPages, [], key);
    assert.ok(binary.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"), `${key}: fuse not flipped`);
    assert.ok(binary.includes("__NODE_SEA_BLOB"), `${key}: no blob section`);
  }
});

test("Windows artifacts carry the blob as a resource and no stale Authenticode signature", () => {
  for (const key of ["windows-x86_64", "windows-arm64"]) {
    const binary = readFileSync(join(dist, `sea-plugin-${key}.exe`));
    assert.equal(signatureGet(binary), null, key);
    assert.ok(binary.includes(Buffer.from("NODE_SEA_BLOB", "utf16le")), `${key}: no NODE_SEA_BLOB resource`);
    assert.ok(binary.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"), `${key}: fuse not flipped`);
  }
});

test("--base-url writes binary_urls into executa.json's binary profile, keeping the rest", () => {
  const json = readJson<{
    distribution: {
      active: string;
      profiles: {
        local: unknown;
        binary: {
          executable_name: string;
          binary_urls: Record<
            string,
            { url: string; sha256: string; size: number; entrypoint: string; format: string }
          >;
        };
      };
    };
  }>(join(dir, "executa.json"));
  assert.equal(json.distribution.active, "local");
  assert.ok(json.distribution.profiles.local);
  const urls = json.distribution.profiles.binary.binary_urls;
  assert.deepEqual(Object.keys(urls), SIX);
  const linux = report.targets.find((t) => t.platform === "linux-x86_64")!;
  assert.deepEqual(urls["linux-x86_64"], {
    url: "https://example.com/releases/v1.2.3/sea-plugin-linux-x86_64.tar.gz",
    sha256: linux.archive.sha256,
    size: linux.archive.size,
    entrypoint: "bin/sea-plugin",
    format: "tar.gz",
  });
  assert.equal(urls["windows-arm64"]!.entrypoint, "bin/sea-plugin.exe");
});

test("default builds are reproducible: --reproducible-check passes on a copy in another folder, whose bytes and SBOMs are the first build's", async () => {
  const elsewhere = await scaffoldProject("ts", "sea-plugin");
  addThrowingLine(elsewhere);
  const copy = await build({
    projectDir: elsewhere,
    target: "linux-x86_64,darwin-arm64",
    verify: false,
    reproducibleCheck: true,
  });
  assert.equal(copy.reproducible?.identical, true, JSON.stringify(copy.reproducible?.differences));
  assert.ok(copy.reproducible!.files >= 2 * 3 + 2, `${copy.reproducible!.files} files compared`);
  const { conditions } = copy.reproducible!;
  assert.ok(!conditions.project_dir.startsWith(elsewhere), "the second build ran from a copy in another folder");
  assert.notEqual(conditions.time_zone, process.env.TZ);
  assert.ok(copy.ok);
  for (const t of copy.targets) {
    const first = report.targets.find((x) => x.platform === t.platform)!;
    assert.equal(t.sha256, first.sha256, t.platform);
    assert.equal(t.archive.sha256, first.archive.sha256, t.platform);
  }
  const perTarget = copy.sbom.filter((f) => f !== "sbom.cdx.json");
  assert.equal(perTarget.length, 2, JSON.stringify(copy.sbom));
  for (const file of perTarget) {
    assert.ok(report.sbom.includes(file), `${file} is not among the first build's SBOMs`);
    assert.equal(readFileSync(join(copy.dist, file), "utf8"), readFileSync(join(dist, file), "utf8"), file);
  }
});

test("--code-cache is not reproducible, and --reproducible-check says where the bytes differ", async () => {
  const checked = await build({
    projectDir: dir,
    codeCache: true,
    outDir: join(dir, "cached"),
    verify: false,
    reproducibleCheck: true,
  });
  assert.equal(checked.targets[0]!.code_cache, true);
  assert.equal(checked.ok, false);
  const r = checked.reproducible!;
  assert.equal(r.identical, false);
  const exe = r.differences.find((d) => d.file === checked.targets[0]!.file)!;
  assert.ok(exe, JSON.stringify(r.differences));
  assert.ok(exe.offsets!.length > 0 && exe.offsets!.every((o) => o > 0 && o < checked.targets[0]!.size));
  assert.ok(exe.differingBytes! > 0 && exe.differingBytes! < 100_000, `${exe.differingBytes} bytes differ`);
  assert.ok(r.differences.some((d) => d.file === checked.targets[0]!.archive.file));
  assert.ok(
    r.second_dir && existsSync(join(r.second_dir, checked.targets[0]!.file)),
    "the differing second build is kept to inspect",
  );
  rmSync(dirname(r.second_dir!), { recursive: true, force: true }); // the second build's folder, and the copy beside it
});
