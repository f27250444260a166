import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readFileTransport, type TransportFolder } from "./file-transport.js";

const RESPONSE = JSON.stringify({ jsonrpc: "2.0", id: 4, result: { success: true, data: "big" } });

function folder(): TransportFolder & { outside: string } {
  const path = mkdtempSync(join(tmpdir(), "executa-ft-"));
  const { dev, ino } = lstatSync(path);
  const outside = mkdtempSync(join(tmpdir(), "executa-ft-outside-"));
  writeFileSync(join(outside, "secret.json"), RESPONSE);
  return { path, identity: { dev, ino }, outside };
}

describe("readFileTransport", () => {
  it("reads a response file in the plugin's temp folder, then deletes it", async () => {
    const f = folder();
    const path = join(f.path, "executa-resp-1.json");
    writeFileSync(path, RESPONSE);
    const read = await readFileTransport(path, f);
    assert.deepEqual(read.frame, JSON.parse(RESPONSE));
    assert.equal(read.deleted, true);
    assert.equal(existsSync(path), false);
    writeFileSync(join(f.path, "executa-msg-2.json"), RESPONSE);
    assert.ok(
      (await readFileTransport(join(f.path, "executa-msg-2.json"), f)).frame,
      "the Python SDK's executa-msg-* names are files of ours too",
    );
  });

  const refusals: [string, (f: ReturnType<typeof folder>) => string, RegExp][] = [
    [
      "a file outside the folder",
      (f) => join(f.outside, "secret.json"),
      /not directly inside the plugin's temp folder/,
    ],
    ["a path through ..", (f) => `${f.path}/../${f.outside.split("/").pop()}/secret.json`, /not in normal form/],
    ["a relative path", () => "executa-resp-1.json", /not absolute/],
    [
      "a name not starting executa-",
      (f) => (writeFileSync(join(f.path, "resp.json"), RESPONSE), join(f.path, "resp.json")),
      /does not start with executa-/,
    ],
    [
      "a symlink",
      (f) => (
        symlinkSync(join(f.outside, "secret.json"), join(f.path, "executa-resp-l.json")),
        join(f.path, "executa-resp-l.json")
      ),
      /a symbolic link/,
    ],
    [
      "a hard link",
      (f) => (
        linkSync(join(f.outside, "secret.json"), join(f.path, "executa-resp-h.json")),
        join(f.path, "executa-resp-h.json")
      ),
      /hard link/,
    ],
    [
      "a FIFO (it must not block)",
      (f) => (execFileSync("mkfifo", [join(f.path, "executa-resp-f.json")]), join(f.path, "executa-resp-f.json")),
      /a FIFO/,
    ],
    ["a directory", (f) => (mkdirSync(join(f.path, "executa-resp-d")), join(f.path, "executa-resp-d")), /a directory/],
    [
      "a file over 64 MiB",
      (f) => (
        execFileSync("truncate", ["-s", String(65 * 1024 * 1024), join(f.path, "executa-resp-big.json")]),
        join(f.path, "executa-resp-big.json")
      ),
      /over the 64 MiB limit/,
    ],
    ["/dev/zero", () => "/dev/zero", /not directly inside/],
  ];
  for (const [what, make, why] of refusals) {
    it(`refuses ${what} and leaves it alone`, { skip: process.platform === "win32" }, async () => {
      const f = folder();
      const path = make(f);
      const before = existsSync(path) ? lstatSync(path) : undefined;
      const read = await readFileTransport(path, f);
      assert.equal(read.refused, true, JSON.stringify(read));
      assert.match(read.error!, why);
      assert.match(read.error!, /the file was left alone$/);
      assert.equal(read.deleted, false);
      if (before) assert.equal(lstatSync(path).ino, before.ino, "still there, the same file");
      assert.equal(readFileSync(join(f.outside, "secret.json"), "utf8"), RESPONSE, "the file outside is untouched");
    });
  }

  it("refuses everything once the temp folder was replaced", async () => {
    const f = folder();
    renameSync(f.path, `${f.path}-moved`);
    mkdirSync(f.path);
    writeFileSync(join(f.path, "executa-resp-1.json"), RESPONSE);
    const read = await readFileTransport(join(f.path, "executa-resp-1.json"), f);
    assert.match(read.error ?? "", /was replaced/);
    assert.equal(existsSync(join(f.path, "executa-resp-1.json")), true);
  });

  it("reports a missing file and a file that is not JSON (deleting the latter: it was ours to read)", async () => {
    const f = folder();
    assert.match((await readFileTransport(join(f.path, "executa-resp-none.json"), f)).error!, /cannot read it: ENOENT/);
    writeFileSync(join(f.path, "executa-resp-bad.json"), "{nope");
    const read = await readFileTransport(join(f.path, "executa-resp-bad.json"), f);
    assert.match(read.error!, /not JSON/);
    assert.equal(read.refused, undefined);
    assert.equal(read.deleted, true);
  });
});
