/**
 * Every write lands where it says: a cloned project holding links never makes a command write
 * outside it. Each case is an attack that wrote outside the project before (a link farm of the old
 * fixed temporary names `<file>.<pid>.tmp`, or a link named like a folder the command writes), and
 * each refusal names the link and where it points, before anything is written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { adoptable } from "../init/helpers.js";
import { tsProject } from "../manifest/helpers.js";
import { requires } from "../support/requires.js";

const EXECUTA = join(PACKAGE_ROOT, "bin", "executa.js");
const CREATE = join(PACKAGE_ROOT, "bin", "create-executa.js");
const CANARY = "untouched\n";
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function temp(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `executa-links-${label}-`));
  made.push(dir);
  return dir;
}

/** A folder outside the project holding one canary file; `untouched` checks nothing was written there. */
function outside(): { dir: string; canary: string; untouched(): void } {
  const dir = temp("outside");
  const canary = join(dir, "canary.txt");
  writeFileSync(canary, CANARY);
  return {
    dir,
    canary,
    untouched() {
      assert.deepEqual(readdirSync(dir), ["canary.txt"], "nothing was written outside the project");
      assert.equal(readFileSync(canary, "utf8"), CANARY, "the file outside the project is unchanged");
    },
  };
}

function run(bin: string, cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, CI: "true", NO_COLOR: "1" },
    timeout: 300_000,
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    shown: `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
  };
}

const PID_MAX = existsSync("/proc/sys/kernel/pid_max")
  ? Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"))
  : 99_999;

/** `<file>.<n>.tmp` for every process id n, each a link to the canary outside: whatever process writes through its pid's name writes there. */
function tempNameFarm(dir: string, file: string, canary: string): void {
  for (let pid = 1; pid <= Math.min(PID_MAX, 4_194_304); pid++) symlinkSync(canary, join(dir, `${file}.${pid}.tmp`));
}

/** A scaffolded TypeScript project (minimal template, nothing installed), in a fresh folder. */
function scaffoldTs(label: string, name = "linked-plugin"): string {
  const dir = join(temp(label), name);
  const r = run(
    CREATE,
    tmpdir(),
    dir,
    "--lang",
    "ts",
    "--template",
    "minimal",
    "--no-install",
    "--no-git",
    "--yes",
    "--json",
  );
  assert.equal(r.code, 0, r.shown);
  return dir;
}

const TOOLS = `/**
 * Echo the text.
 * @tool
 */
export function echo(args: {
  /** What to echo. */
  text: string;
}) { return args.text; }
`;

describe("executa manifest", () => {
  test("a link farm of every <file>.<pid>.tmp leads nowhere: the outputs are written in the project as regular files", {
    timeout: 300_000,
  }, () => {
    const out = outside();
    const dir = tsProject({ "src/tools.ts": TOOLS });
    made.push(dir);
    tempNameFarm(dir, "manifest.json", out.canary);
    tempNameFarm(join(dir, "src"), "executa.bindings.ts", out.canary);
    const r = run(EXECUTA, dir, "manifest");
    assert.equal(r.code, 0, r.shown);
    out.untouched();
    for (const file of ["manifest.json", "src/executa.bindings.ts"]) {
      assert.ok(lstatSync(join(dir, file)).isFile(), `${file} is a regular file`);
    }
    assert.equal(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools[0].name, "echo");
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith(".manifest.json")),
      [],
      "no temporary file is left",
    );
  });

  test("manifest.json as a link out of the project is refused, naming the link; a link inside is replaced by the file", () => {
    const out = outside();
    const dir = tsProject({ "src/tools.ts": TOOLS });
    made.push(dir);
    symlinkSync(out.canary, join(dir, "manifest.json"));
    const r = run(EXECUTA, dir, "manifest");
    assert.equal(r.code, 2, r.shown);
    assert.match(
      r.stderr,
      new RegExp(`manifest\\.json in .* is a link to ${out.canary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
    out.untouched();
    assert.ok(lstatSync(join(dir, "manifest.json")).isSymbolicLink(), "the refused link is left as it was");

    rmSync(join(dir, "manifest.json"));
    writeFileSync(join(dir, "old.json"), "{}\n");
    symlinkSync("old.json", join(dir, "manifest.json"));
    assert.equal(run(EXECUTA, dir, "manifest").code, 0);
    assert.ok(lstatSync(join(dir, "manifest.json")).isFile(), "manifest.json never ends up a link");
    assert.equal(readFileSync(join(dir, "old.json"), "utf8"), "{}\n");
  });

  test("src/ as a link out of the project: the bindings file is not written through it", () => {
    const out = outside();
    const dir = tsProject({});
    made.push(dir);
    cpSync(join(dir, "src"), join(out.dir, "src"), { recursive: true });
    writeFileSync(join(out.dir, "src", "tools.ts"), TOOLS);
    rmSync(join(dir, "src"), { recursive: true });
    symlinkSync(join(out.dir, "src"), join(dir, "src"));
    const before = readdirSync(join(out.dir, "src")).sort();
    const r = run(EXECUTA, dir, "manifest");
    assert.equal(r.code, 2, r.shown);
    assert.match(r.stderr, /src in .* is a link to .*outside the project/);
    assert.deepEqual(readdirSync(join(out.dir, "src")).sort(), before, "nothing was added to the linked folder");
    assert.ok(!existsSync(join(dir, "manifest.json")), "nothing was written, not even manifest.json");
  });
});

describe("create-executa --force", () => {
  for (const name of ["src", ".github", "test"]) {
    test(`into a folder whose ${name} is a link out: refused before anything is written`, () => {
      const out = outside();
      const dir = join(temp(`create-${name.replace(".", "")}`), "linked-plugin");
      mkdirSync(dir);
      symlinkSync(out.dir, join(dir, name));
      const r = run(
        CREATE,
        tmpdir(),
        dir,
        "--lang",
        "ts",
        "--template",
        "minimal",
        "--no-install",
        "--no-git",
        "--yes",
        "--force",
      );
      assert.equal(r.code, 2, r.shown);
      assert.match(
        r.stderr,
        new RegExp(`${name.replace(".", "\\.")} in .* is a link to ${out.dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
      out.untouched();
      assert.deepEqual(readdirSync(dir), [name], "the folder holds only the link it had");
    });
  }
});

describe("executa init --ci", () => {
  test("with .github a link out: refused, naming it; nothing written", requires("python3"), () => {
    const out = outside();
    const dir = adoptable("linked-init", { "convert.py": "python/strict_args.py" });
    made.push(join(dir, ".."));
    symlinkSync(out.dir, join(dir, ".github"));
    const r = run(EXECUTA, dir, "init", "--ci");
    assert.equal(r.code, 2, r.shown);
    assert.match(r.stderr, /\.github in .* is a link to .*outside the project/);
    out.untouched();
    assert.deepEqual(readdirSync(dir).sort(), [".github", "convert.py"]);
  });
});

describe("executa add tool", () => {
  test("with src/tools a link out: refused, naming it; nothing written", () => {
    const out = outside();
    const dir = scaffoldTs("add");
    mkdirSync(join(dir, "src", "tools"), { recursive: true });
    rmSync(join(dir, "src", "tools"), { recursive: true });
    symlinkSync(out.dir, join(dir, "src", "tools"));
    const manifest = readFileSync(join(dir, "manifest.json"), "utf8");
    const r = run(EXECUTA, dir, "add", "tool", "fetch_weather", "--param", "city:string");
    assert.equal(r.code, 2, r.shown);
    assert.match(r.stderr, /src\/tools in .* is a link to .*outside the project/);
    out.untouched();
    assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), manifest);
    assert.ok(!existsSync(join(dir, "test", "tools", "fetch_weather.test.ts")));
  });
});

describe("executa upgrade", () => {
  test("a link farm of runtime.lock.json.<pid>.tmp leads nowhere: the record is written in the runtime folder", {
    timeout: 300_000,
  }, () => {
    const out = outside();
    const dir = join(temp("upgrade"), "v1-plugin");
    cpSync(join(PACKAGE_ROOT, "test", "fixtures", "runtime-v1", "ts"), dir, { recursive: true });
    tempNameFarm(join(dir, "src", "executa"), "runtime.lock.json", out.canary);
    const r = run(EXECUTA, dir, "upgrade", "--json");
    assert.ok(r.code === 0 || r.code === 1, r.shown);
    out.untouched();
    assert.ok(lstatSync(join(dir, "src", "executa", "runtime.lock.json")).isFile());
    assert.equal(JSON.parse(readFileSync(join(dir, "src", "executa", "runtime.lock.json"), "utf8")).version > 1, true);
  });
});

describe("executa build", () => {
  test("dist/ (or an --out-dir inside the project) through a link out: refused before the build starts", () => {
    const out = outside();
    const dir = scaffoldTs("build");
    symlinkSync(out.dir, join(dir, "dist"));
    const r = run(EXECUTA, dir, "build");
    assert.equal(r.code, 2, r.shown);
    assert.match(r.stderr, /dist in .* is a link to .*outside the project/);
    symlinkSync(out.dir, join(dir, "out"));
    const viaOutDir = run(EXECUTA, dir, "build", "--out-dir", "out/release");
    assert.equal(viaOutDir.code, 2, viaOutDir.shown);
    assert.match(viaOutDir.stderr, /out in .* is a link to .*outside the project/);
    out.untouched();
  });
});

describe("executa dev and test", () => {
  test("a tsconfig.json that references a project outside: compiled as tsc -p compiles it, the referenced project never built", () => {
    const referenced = temp("referenced");
    writeFileSync(join(referenced, "lib.ts"), "export const x = 1;\n");
    writeFileSync(
      join(referenced, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { composite: true, outDir: "built" }, files: ["lib.ts"] }),
    );
    const dir = scaffoldTs("references");
    // Its type packages installed, so that a type error is not taken for a missing install.
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(PACKAGE_ROOT, "node_modules", "@types"), join(dir, "node_modules", "@types"));
    const tsconfig = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as Record<string, unknown>;
    assert.equal((tsconfig.compilerOptions as { incremental?: boolean }).incremental, true, "the template's tsconfig");
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ ...tsconfig, references: [{ path: referenced }] }));
    const r = run(EXECUTA, dir, "test", "--only", "describe");
    assert.equal(r.code, 0, r.shown);
    assert.ok(existsSync(join(dir, "dist", "src", "main.js")), "the project itself was compiled");
    assert.deepEqual(
      readdirSync(referenced).sort(),
      ["lib.ts", "tsconfig.json"],
      "nothing was built outside the project",
    );
  });
});
