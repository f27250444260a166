/**
 * One TypeScript program: a plugin whose tool uses import.meta.url, and the same plugin with a type
 * error, behave alike under the project's own `npm test`, `executa dev`, `executa test` and
 * `executa build` (all work, or all fail with the compiler's message), and stack traces from dev
 * point at src/ lines; what `npm test` compiled, dev and test do not compile again. (Node 22's
 * single executable ignores source maps for its main script, so the built executable's traces
 * still name bundle lines.)
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { scaffoldProject } from "./helpers.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const EXECUTA = join(REPO, "bin", "executa.js");

const WHERE = `import { basename } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where this module runs from.
 * @tool
 */
export function where(): { scheme: string; named: boolean } {
  return { scheme: new URL(import.meta.url).protocol, named: basename(fileURLToPath(import.meta.url)).length > 0 };
}

/**
 * Always fails.
 * @tool
 */
export function boom(): string {
  throw new Error("boom");
}
`;
const BOOM_LINE = 17;
const WHERE_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { where } from "../src/where.js";

test("where", () => assert.equal(where().scheme, "file:"));
`;

let dir: string;

function run(command: string, args: string[]) {
  const r = spawnSync(command, args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    timeout: 10 * 60_000,
  });
  return {
    code: r.status,
    out: `${r.stdout}\n${r.stderr}`,
    shown: `${command} ${args.join(" ")} (exit ${r.status})\n${r.stdout}\n${r.stderr}`,
  };
}
const executa = (...args: string[]) => run(process.execPath, [EXECUTA, ...args]);

before(async () => {
  dir = await scaffoldProject("ts", "one-program");
  // What `npm install` gives the project: its compiler and its type packages.
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(REPO, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
  symlinkSync(join(REPO, "node_modules", "@types"), join(dir, "node_modules", "@types"));
  symlinkSync(join("..", "typescript", "bin", "tsc"), join(dir, "node_modules", ".bin", "tsc"));
  writeFileSync(join(dir, "src", "where.ts"), WHERE);
  writeFileSync(join(dir, "test", "where.test.ts"), WHERE_TEST);
  assert.equal(executa("manifest").code, 0);
});
after(() => rmSync(dirname(dir), { recursive: true, force: true }));

test("a tool using import.meta.url works under npm test, executa dev, executa test and executa build; dev's traces point at src/", {
  timeout: 15 * 60_000,
}, () => {
  const npmTest = run("npm", ["test"]);
  assert.equal(npmTest.code, 0, npmTest.shown);
  const emitted = join(dir, "dist", "src", "where.js");
  const emittedAt = statSync(emitted).mtimeMs;

  const dev = executa("dev", "--invoke", "where", "--json");
  assert.equal(dev.code, 0, dev.shown);
  assert.deepEqual(JSON.parse(dev.out.split("\n")[0]!).answer.data, { scheme: "file:", named: true });
  const devBoom = executa("dev", "--invoke", "boom");
  assert.match(devBoom.out, new RegExp(`at boom \\(.*src/where\\.ts:${BOOM_LINE}:9\\)`), devBoom.shown);

  const conform = executa("test");
  assert.equal(conform.code, 0, conform.shown);
  assert.equal(statSync(emitted).mtimeMs, emittedAt, "dev and test left the program npm test compiled alone (tsc -b)");

  const build = executa("build", "--target", "linux-x86_64");
  assert.equal(build.code, 0, build.shown);
  assert.match(build.out, /✔ type-check with tsc/);
  const binary = join(dir, "dist", "one-program-linux-x86_64");
  const built = executa("dev", "--invoke", "where", "--json", "--", binary);
  assert.deepEqual(JSON.parse(built.out.split("\n")[0]!).answer.data, { scheme: "file:", named: true }, built.shown);
});

test("a type error fails npm test, executa dev, executa test and executa build with the compiler's message and location", {
  timeout: 10 * 60_000,
}, () => {
  const file = join(dir, "src", "where.ts");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(
      'throw new Error("boom");',
      'const count: number = "three";\n  throw new Error(`boom ${count}`);',
    ),
  );
  const message = "Type 'string' is not assignable to type 'number'.";
  const npmTest = run("npm", ["test"]);
  assert.notEqual(npmTest.code, 0, npmTest.shown);
  assert.ok(npmTest.out.includes(`src/where.ts(${BOOM_LINE},9): error TS2322: ${message}`), npmTest.shown);
  for (const verb of [["dev", "--invoke", "where"], ["test"], ["build", "--target", "linux-x86_64"]]) {
    const r = executa(...verb);
    assert.equal(r.code, 2, r.shown);
    assert.ok(r.out.includes(`src/where.ts:${BOOM_LINE}:9: error: TS2322: ${message}`), r.shown);
  }
});
