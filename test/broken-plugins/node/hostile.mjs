// A hostile plugin for the host's safety tests. Correct in everything, except what its mode (the
// first argument) makes its `fetch` tool do:
//   absolute | dotdot | symlink | fifo | devzero | hardlink | badname | huge | unsolicited
//       answer with a __file_transport pointer the host must refuse (HOSTILE_CANARY is the file
//       outside the temp folder; unsolicited sends a pointer for an id the host never sent)
//   flood       print FLOOD_MIB (default 1024) MiB on one stdout line, then answer
//   flood-eof   print FLOOD_MIB MiB with no newline at all, then exit
//   grandchild  start `sleep 120` with this plugin's stdout at startup (its pid goes to HOSTILE_PIDS)
//   noise-flood before answering describe: 1 GiB on stderr, 300 answers of 2 MiB with id null,
//               100 000 small ones with made-up error codes
import { spawn } from "node:child_process";
import { appendFileSync, linkSync, mkdirSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { execFileSync } from "node:child_process";
import { createInterface } from "node:readline";

const MODE = process.argv[2] ?? "absolute";
const CANARY = process.env.HOSTILE_CANARY ?? "/nonexistent";
const MANIFEST = {
  name: "hostile",
  version: "1.0.0",
  description: "A plugin that tries to make the host misbehave.",
  tools: [{ name: "fetch", description: "Fetch a report.", parameters: [] }],
};

function writeAll(buffer) {
  for (let off = 0; off < buffer.length; ) {
    try {
      off += writeSync(1, buffer, off);
    } catch (err) {
      if (err.code !== "EAGAIN") throw err;
    }
  }
}
const send = (frame) => writeAll(Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...frame }) + "\n"));

function flood(newline) {
  const chunk = Buffer.alloc(1024 * 1024, "A");
  for (let i = 0; i < Number(process.env.FLOOD_MIB ?? 1024); i++) writeAll(chunk);
  if (newline) writeAll(Buffer.from("\n"));
}

/** Makes a file once (a second invoke in the same session finds it there). */
function once(make) {
  try {
    make();
  } catch (err) {
    if (err.code !== "EEXIST" && !/File exists/.test(String(err.stderr ?? err.message))) throw err;
  }
}

/** The path the pointer names, made first where the mode needs a file. */
function pointer() {
  const tmp = tmpdir();
  const inTmp = (name) => join(tmp, name);
  switch (MODE) {
    case "absolute":
      return CANARY;
    case "dotdot":
      return `${tmp}/${relative(tmp, CANARY)}`;
    case "symlink":
      once(() => symlinkSync(CANARY, inTmp("executa-resp-link.json")));
      return inTmp("executa-resp-link.json");
    case "fifo":
      once(() => execFileSync("mkfifo", [inTmp("executa-resp-fifo.json")], { stdio: "pipe" }));
      return inTmp("executa-resp-fifo.json");
    case "devzero":
      return "/dev/zero";
    case "hardlink":
      once(() => linkSync(CANARY, inTmp("executa-resp-hard.json")));
      return inTmp("executa-resp-hard.json");
    case "badname":
      writeFileSync(inTmp("response.json"), JSON.stringify({ jsonrpc: "2.0", id: 0, result: { success: true, data: "x" } }));
      return inTmp("response.json");
    case "huge": {
      const path = inTmp("executa-resp-huge.json");
      writeFileSync(path, "");
      execFileSync("truncate", ["-s", `${65 * 1024 * 1024}`, path]);
      return path;
    }
    case "subdir":
      once(() => mkdirSync(inTmp("sub")));
      writeFileSync(inTmp("sub/executa-resp-x.json"), "{}");
      return inTmp("sub/executa-resp-x.json");
  }
  return undefined;
}

if (MODE === "grandchild") {
  const child = spawn("sleep", ["120"], { stdio: ["ignore", "inherit", "inherit"] });
  if (process.env.HOSTILE_PIDS) appendFileSync(process.env.HOSTILE_PIDS, `${child.pid}\n`);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return send({ id: null, error: { code: -32600, message: "Invalid Request" } });
  if (msg.id === undefined) return;
  if (msg.method === "describe") {
    if (MODE === "noise-flood") {
      const mib = Buffer.alloc(1024 * 1024, "E");
      for (let i = 0; i < 1024; i++) writeSync(2, mib);
      for (let i = 0; i < 300; i++) send({ id: null, error: { code: -32600, message: "x".repeat(2 * 1024 * 1024) } });
      for (let i = 0; i < 100_000; i++) send({ id: null, error: { code: -40000 - i, message: "made up" } });
    }
    send({ id: msg.id, result: MANIFEST });
    if (MODE === "unsolicited") send({ id: 900000, __file_transport: CANARY });
    return;
  }
  if (msg.method !== "invoke") return send({ id: msg.id, error: { code: -32601, message: "Method not found" } });
  if (msg.params?.tool !== "fetch") return send({ id: msg.id, error: { code: -32601, message: "Unknown tool" } });
  if (MODE === "flood" || MODE === "flood-eof") {
    flood(MODE === "flood");
    if (MODE === "flood-eof") process.exit(0);
  }
  const path = pointer();
  send(path === undefined ? { id: msg.id, result: { success: true, data: { report: "ok" } } } : { id: msg.id, __file_transport: path });
});
process.on("SIGTERM", () => process.exit(0));
