/**
 * `executa init` refuses, with exit 2 (1 for a describe that is not a valid manifest), a clear
 * error and a hint, and leaves the folder byte for byte as it was: nothing to adopt, several
 * candidates and no terminal, a file that exists with other content, an executa.json it did not
 * write, a plugin that never answers, bad flags. --json prints one object in every outcome. On a
 * terminal, several candidates are a question instead.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { exec } from "../../src/common/exec.js";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { adoptable, executa, executaJson, snapshot, tempFolder } from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

function folder(name: string, files: Record<string, string>): string {
  const dir = tempFolder(name);
  made.push(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

/** Runs init, expects `code`, the message and the hint, one JSON object with --json, and the folder unchanged. */
async function assertRefused(dir: string, args: string[], code: number, message: RegExp, hint?: RegExp): Promise<void> {
  const before = snapshot(dir);
  const r = await executa(dir, "init", ...args);
  assert.equal(r.code, code, r.shown);
  assert.match(r.stderr, message, r.shown);
  if (hint) assert.match(r.stderr, hint, r.shown);
  assert.doesNotMatch(r.stderr, /unexpected failure|this is a bug/);
  const json = await executaJson<{ status: string; error: { message: string } }>(dir, "init", ...args);
  assert.equal(json.code, code, json.shown);
  assert.equal(json.out.status, "error");
  assert.match(json.out.error.message, message);
  assert.deepEqual(snapshot(dir), before, `init ${args.join(" ")} changed the folder`);
}

test("nothing that starts a plugin: exit 2, and the hint gives both one-shot forms", async () => {
  const dir = folder("empty-ish", { "README.md": "# notes\n", "data.json": "{}\n" });
  await assertRefused(
    dir,
    [],
    2,
    /no plugin found in .*empty-ish/,
    /executa init --entry <file>, or give the command: executa init -- <command> \[args\]/,
  );
});

test("two scripts and no terminal: exit 2 listing both, with the --entry command for each", async () => {
  const dir = adoptable("two-scripts", {
    "notes.mjs": "node/notes-storage.mjs",
    "rates.mjs": "node/currency-converter.mjs",
  });
  made.push(dir);
  await assertRefused(
    dir,
    [],
    2,
    /several ways to start the plugin in .*two-scripts, and no terminal to ask on:\n\s+notes\.mjs\s+node: a JavaScript file reading stdin\n\s+rates\.mjs/,
    /executa init --entry notes\.mjs \| executa init --entry rates\.mjs/,
  );
  const chosen = await executaJson<{ tool_id: string; entry: string }>(
    dir,
    "init",
    "--entry",
    "rates.mjs",
    "--dry-run",
  );
  assert.equal(chosen.code, 0, chosen.shown);
  assert.equal(chosen.out.entry, "rates.mjs");
});

test("a manifest.json or workflow with other content is never overwritten: exit 2 after the describe, nothing written", async () => {
  const dir = adoptable("notes", { "notes-storage.mjs": "node/notes-storage.mjs" });
  made.push(dir);
  writeFileSync(join(dir, "manifest.json"), '{"name": "notes-storage"}\n');
  await assertRefused(
    dir,
    [],
    2,
    /executa init never overwrites, and manifest\.json already exists in .* with other content; nothing was written/,
    /executa manifest --from-plugin -- .*notes-storage\.mjs` rewrites it in canonical form/,
  );
  rmSync(join(dir, "manifest.json"));
  mkdirSync(join(dir, ".github", "workflows"), { recursive: true });
  writeFileSync(join(dir, ".github", "workflows", "ci.yml"), "name: mine\n");
  await assertRefused(dir, ["--ci"], 2, /\.github\/workflows\/ci\.yml already exists/);
});

test("an executa.json init did not write: refused before the plugin runs", async () => {
  const dir = adoptable("project", { "plugin.mjs": "node/notes-storage.mjs" });
  made.push(dir);
  writeFileSync(join(dir, "executa.json"), '{"tool_id": "tool-acme-notes", "type": "node"}\n');
  writeFileSync(
    join(dir, "plugin.mjs"),
    'import { writeFileSync as mark } from "node:fs";\nmark("ran", "");\n' +
      readFileSync(join(dir, "plugin.mjs"), "utf8"),
  );
  await assertRefused(
    dir,
    [],
    2,
    /already has an executa\.json, and executa init never overwrites/,
    /move executa\.json aside/,
  );
});

test("a describe that is not a valid manifest: exit 1, the problems listed, nothing written", async () => {
  const dir = folder("bad-manifest", {
    "plugin.mjs": `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: req.id, result: { name: "bad", version: "1.0.0", description: "x", tools: [{ name: "t", parameters: [{ name: "p" }] }] } }) + "\\n");
});
`,
  });
  await assertRefused(
    dir,
    [],
    1,
    /the plugin's describe is not a valid manifest, so nothing was written:\n\s+.*tools\[0\]/,
  );
});

test("a plugin that never answers describe: exit 2 within the describe timeout", async () => {
  const dir = adoptable("silent", { "never.mjs": "node/never-answers.mjs" });
  made.push(dir);
  await assertRefused(dir, [], 2, /did not answer describe within 5 s/);
});

test("bad flags: --entry outside the folder or missing, --entry with a command, an invalid --tool-id", async () => {
  const dir = adoptable("flags", { "notes.mjs": "node/notes-storage.mjs" });
  made.push(dir);
  await assertRefused(dir, ["--entry", "../elsewhere.js"], 2, /--entry \.\.\/elsewhere\.js is outside/);
  await assertRefused(dir, ["--entry", "missing.js"], 2, /--entry missing\.js: no such file/);
  await assertRefused(
    dir,
    ["--entry", "notes.mjs", "--", "node", "notes.mjs"],
    2,
    /--entry and a command after -- both say how the plugin starts/,
  );
  await assertRefused(
    dir,
    ["--tool-id", "Not Valid"],
    2,
    /invalid --tool-id 'Not Valid'/,
    /--tool-id tool-acme-my-plugin/,
  );
});

test(
  "-- <command>: the command is what executa.json records, project-relative, and its file becomes the entry",
  requires("python3"),
  async () => {
    const dir = adoptable("cmd", { "plugin.py": "python/storage_notebook.py" });
    made.push(dir);
    const r = await executaJson<{ type: string; command: string[]; entry: string; tool_id: string }>(
      dir,
      "init",
      "--tool-id",
      "tool-acme-notebook",
      "--",
      "python3",
      join(dir, "plugin.py"),
    );
    assert.equal(r.code, 0, r.shown);
    assert.deepEqual(
      [r.out.type, r.out.command, r.out.entry, r.out.tool_id],
      ["python", ["python3", "plugin.py"], "plugin.py", "tool-acme-notebook"],
    );
    assert.equal((await executa(dir, "manifest", "--check")).code, 0);
  },
);

/** Runs `executa init` on a terminal (a pseudo-terminal by Python's pty module), pressing `keys` once the question shows. */
const PTY_DRIVER = `
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ.pop("CI", None)
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
def read(until, seconds):
    global out
    end = time.time() + seconds
    while time.time() < end and until not in out:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                return
read(b"Which file starts the plugin?", 30)
os.write(fd, b"\\x1b[B")
time.sleep(0.3)
os.write(fd, b"\\r")
read(b"Next steps", 60)
sys.stdout.write(out.decode("utf8", "replace"))
`;

test(
  "on a terminal, several candidates become a question; the one chosen is adopted",
  requires("python3"),
  async () => {
    const dir = adoptable("two-on-a-tty", {
      "notes.mjs": "node/notes-storage.mjs",
      "rates.mjs": "node/currency-converter.mjs",
    });
    made.push(dir);
    const r = await exec(
      "python3",
      ["-c", PTY_DRIVER, process.execPath, join(PACKAGE_ROOT, "bin", "executa.js"), "init"],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, timeoutMs: 120_000 },
    );
    assert.match(r.stdout, /Which file starts the plugin\?/, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /Adopted currency-converter \(node, command node rates\.mjs; 2 tools\)/,
      r.stdout + r.stderr,
    );
    assert.equal(JSON.parse(readFileSync(join(dir, "executa.json"), "utf8")).entry, "rates.mjs");
  },
);
