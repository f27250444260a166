/**
 * pnpm, yarn (Berry) and bun, installed from the npm registry as devDependencies of this package,
 * against this package published to a local registry: `<pm> create executa` (the user agent says
 * which one ran us) and `--package-manager`, then the install and the generated README's commands
 * run with that package manager, `executa add tool` included.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { localRegistry, type LocalRegistry } from "./local-registry.js";
import { REPO_ROOT, installedToolchain, run, tempDir, toolchain } from "./toolchain.js";
import { requires } from "../support/requires.js";
import { hostPlatformKey, isPlatformKey } from "../../src/protocol/index.js";
import { assertWorkflowInstallRuns } from "./workflow-install.js";

const PMS = ["pnpm", "yarn", "bun"] as const;
type Pm = (typeof PMS)[number];
const LOCKFILE: Record<Pm, string> = { pnpm: "pnpm-lock.yaml", yarn: "yarn.lock", bun: "bun.lock" };
/** The README line that runs the toolchain once in a Python or Go project. */
const DLX: Record<Pm, RegExp> = {
  pnpm: /pnpm --package='create-executa@[^']+' dlx executa/,
  yarn: /yarn dlx --package 'create-executa@[^']+' executa/,
  bun: /bunx --package 'create-executa@[^']+' executa/,
};
/** One Python or Go project per package manager, so that each one's one-off runs are covered. */
const OTHER_LANG: Record<Pm, "python" | "go"> = { pnpm: "python", yarn: "go", bun: "python" };

const root = tempDir("package-managers");
const bin = join(root, "bin");
mkdirSync(bin);
for (const name of ["pnpm", "yarn", "bun", "bunx"]) {
  const target = join(REPO_ROOT, "node_modules", ".bin", name);
  if (existsSync(target)) symlinkSync(target, join(bin, name));
}
const version = (pm: Pm) => {
  const r = run(join(bin, pm), ["--version"], { cwd: root });
  return r.status === 0 ? r.stdout.trim() : undefined;
};
const versions = Object.fromEntries(PMS.map((pm) => [pm, version(pm)])) as Record<Pm, string | undefined>;

let local: LocalRegistry | undefined;
let env: NodeJS.ProcessEnv = {};

before(async () => {
  local = await localRegistry(root);
  const registry = local.url.replace(/\/$/, "");
  env = {
    ...local.env,
    PATH: `${bin}:${process.env.PATH}`,
    // Every package manager's cache and store under root, the local registry for each.
    npm_config_store_dir: join(root, "pnpm-store"),
    npm_config_cache_dir: join(root, "pnpm-cache"),
    YARN_NPM_REGISTRY_SERVER: registry,
    YARN_UNSAFE_HTTP_WHITELIST: "127.0.0.1",
    YARN_GLOBAL_FOLDER: join(root, "yarn-global"),
    YARN_ENABLE_TELEMETRY: "0",
    // Yarn 4 holds back versions published less than a day ago; ours was published a second ago.
    YARN_NPM_MINIMAL_AGE_GATE: "0",
    BUN_CONFIG_REGISTRY: `${registry}/`,
    BUN_INSTALL_CACHE_DIR: join(root, "bun-cache"),
  };
});

after(async () => {
  local?.stop();
  await new Promise((r) => setTimeout(r, 500));
  rmSync(root, { recursive: true, force: true });
});

/** The commands of a README code block that starts after `heading`: each line without its `# comment`. */
function readmeCommands(readme: string, heading: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

function sh(command: string, cwd: string) {
  const r = run("sh", ["-c", command], { cwd, env, timeoutMs: 15 * 60_000 });
  assert.equal(r.status, 0, r.output);
  return r;
}

for (const pm of PMS) {
  describe(`${pm} create executa`, { ...requires(pm), timeout: 30 * 60_000 }, () => {
    test(`a TypeScript project installs with ${pm}, and its README's commands (add tool and build too) run with it`, () => {
      sh(`${pm} create executa ${pm}-ts --lang ts --yes --no-git`, root);
      const dir = join(root, `${pm}-ts`);
      assert.ok(existsSync(join(dir, LOCKFILE[pm])), `${LOCKFILE[pm]} was written by the install step`);
      assert.ok(!existsSync(join(dir, "package-lock.json")), "npm did not install");
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
        packageManager?: string;
      };
      const run = { pnpm: "pnpm run", yarn: "yarn", bun: "bun run" }[pm];
      assert.equal(pkg.scripts.test, `${run} compile && node --test dist/test/`);
      assert.equal(pkg.packageManager, pm === "bun" ? undefined : `${pm}@${versions[pm]}`);
      assert.equal(existsSync(join(dir, ".yarnrc.yml")), pm === "yarn");
      const workflow = readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8");
      assert.match(
        workflow,
        {
          pnpm: /pnpm install --frozen-lockfile/,
          yarn: /yarn install --immutable/,
          bun: /bun install --frozen-lockfile/,
        }[pm],
      );
      assertWorkflowInstallRuns(dir, local!.url, env);
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      for (const text of [readme, workflow]) assert.doesNotMatch(text, /(?<![\w-])(npx |npm (ci|test|run))/);

      const develop = readmeCommands(readme, "## Develop");
      assert.deepEqual(develop.slice(0, 2), [
        `${pm} install`,
        { pnpm: "pnpm test", yarn: "yarn test", bun: "bun run test" }[pm],
      ]);
      const exec = { pnpm: "pnpm exec executa", yarn: "yarn executa", bun: "bunx executa" }[pm];
      // `start` and `dev` talk to the plugin on stdin: they are run with it closed.
      for (const command of develop) sh(command, dir);
      sh(`${exec} manifest --check`, dir);
      const add = readmeCommands(readme, "Or let the toolchain write one").join(" ").replaceAll("\\ ", "");
      assert.ok(add.startsWith(`${exec} add tool fetch_weather`), add);
      sh(add, dir);
      // The build type-checks src/ and test/ with the added tool (add-tool.test runs its tests).
      sh(`${exec} manifest --check`, dir);
      // The second line builds for a target it names: for this machine's own, the first line's build.
      const [buildHere, buildFor] = readmeCommands(readme, "## Build");
      assert.equal(buildHere, { pnpm: "pnpm run build", yarn: "yarn build", bun: "bun run build" }[pm]);
      const target = new RegExp(`^${exec} build --target (\\S+)$`).exec(buildFor ?? "")?.[1];
      assert.ok(target && isPlatformKey(target), `the README's second build line names a platform: ${buildFor}`);
      sh(buildHere, dir);
      if (target !== hostPlatformKey()) sh(buildFor!, dir);
    });

    const lang = OTHER_LANG[pm];
    test(`a ${lang} project's README runs the toolchain through ${pm}`, () => {
      sh(`${pm} create executa ${pm}-${lang} --lang ${lang} --yes --no-git --no-install`, root);
      const dir = join(root, `${pm}-${lang}`);
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      const dlx = DLX[pm].exec(readme)?.[0];
      assert.ok(dlx, `the README names the toolchain through ${pm}`);
      for (const verb of ["manifest --check", "test", "add tool lookup --param q:string", "manifest --check"])
        sh(`${dlx} ${verb}`, dir);
      sh(lang === "go" ? "go test ./..." : "python3 -m pytest -q", dir);
    });
  });
}

describe("--package-manager", { ...requires("pnpm"), timeout: 15 * 60_000 }, () => {
  test("names the package manager when npm ran us, and wins over the user agent", () => {
    const created = toolchain(
      "create-executa",
      [join(root, "flag-ts"), "--lang", "ts", "--package-manager", "pnpm", "--yes", "--no-git", "--json"],
      { env },
    );
    assert.equal(created.status, 0, created.output);
    const result = JSON.parse(created.stdout) as {
      packageManager: string;
      next: string[];
      steps: { step: string; status: string }[];
    };
    assert.equal(result.packageManager, "pnpm");
    assert.equal(result.steps.find((s) => s.step === "install")?.status, "done", created.stdout);
    assert.ok(existsSync(join(root, "flag-ts", "pnpm-lock.yaml")));
    assert.deepEqual(result.next.slice(1), [
      "pnpm test",
      "pnpm exec executa dev",
      "pnpm exec executa test",
      "pnpm exec executa build",
    ]);
    sh("pnpm test", join(root, "flag-ts"));

    const yarnAgent = { ...env, npm_config_user_agent: "yarn/4.18.1 npm/? node/v20.20.2 linux x64" };
    const overridden = toolchain(
      "create-executa",
      [
        join(root, "flag-over"),
        "--lang",
        "ts",
        "--package-manager",
        "bun",
        "--yes",
        "--no-git",
        "--no-install",
        "--json",
      ],
      { env: yarnAgent },
    );
    assert.equal(overridden.status, 0, overridden.output);
    assert.equal(JSON.parse(overridden.stdout).packageManager, "bun");
    const detected = toolchain(
      "create-executa",
      [join(root, "agent-py"), "--lang", "python", "--yes", "--no-git", "--no-install", "--json"],
      { env: yarnAgent },
    );
    assert.equal(JSON.parse(detected.stdout).packageManager, "yarn");
    assert.match(readFileSync(join(root, "agent-py", "README.md"), "utf8"), DLX.yarn);
  });

  test("an unknown one lists the valid ones; --toolchain with another than npm is refused before anything is written", () => {
    const unknown = toolchain(
      "create-executa",
      [join(root, "bad-pm"), "--lang", "ts", "--package-manager", "deno", "--yes", "--no-git"],
      { env },
    );
    assert.equal(unknown.status, 2, unknown.output);
    assert.match(unknown.stderr, /unknown package manager 'deno'[\s\S]*npm, pnpm, yarn, bun/);
    const local = toolchain(
      "create-executa",
      [
        join(root, "bad-toolchain"),
        "--lang",
        "ts",
        "--package-manager",
        "pnpm",
        `--toolchain=file:${installedToolchain().tarball}`,
        "--yes",
        "--no-git",
      ],
      { env },
    );
    assert.equal(local.status, 2, local.output);
    assert.match(local.stderr, /--toolchain installs with npm/);
    assert.ok(!existsSync(join(root, "bad-pm")) && !existsSync(join(root, "bad-toolchain")));
  });
});
