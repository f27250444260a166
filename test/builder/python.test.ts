import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { build, launchFor, untar, verifyLaunch, type BuildReport } from "../../src/builder/index.js";
import { exec, which } from "../../src/common/exec.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import {
  type Bom,
  edgesOf,
  installDistribution,
  readJson,
  regenerateManifest,
  sbomSchemaErrors,
  scaffoldProject,
} from "./helpers.js";
import { requires } from "../support/requires.js";

const host = hostPlatformKey()!;
const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

async function project(name: string): Promise<string> {
  const dir = await scaffoldProject("python", name);
  made.push(dir);
  return dir;
}

test("Python 'weather' (module name = tool id): one-folder layout by default, archived with bin/_internal, verified, reproducible", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async () => {
  const dir = await project("weather");
  const report = await build({ projectDir: dir, reproducibleCheck: true });
  const [target] = report.targets;
  assert.equal(report.targets.length, 1);
  assert.equal(target!.platform, host);
  assert.equal(target!.runtime, "pyinstaller");
  assert.equal(target!.layout, "onedir");
  assert.equal(target!.file, `weather-${host}/bin/weather`);
  assert.deepEqual(target!.verify.failures ?? [], [], JSON.stringify(target!.verify));
  assert.equal(target!.verify.status, "passed");
  assert.equal(report.reproducible?.identical, true, JSON.stringify(report.reproducible?.differences));
  assert.ok(report.reproducible!.files > 10, "the one-folder layout's every file is compared");
  assert.ok(!report.reproducible!.conditions.project_dir.startsWith(dir), "the second build ran from another folder");

  const entries = untar(readFileSync(join(report.dist, target!.archive.file)));
  const paths = entries.map((e) => e.path);
  assert.equal(paths[0], "manifest.json");
  assert.ok(paths.includes("bin/weather"));
  assert.ok(
    paths.some((p) => p.startsWith("bin/_internal/")),
    "the launcher's _internal/ sits beside it in bin/",
  );
  assert.equal(entries.find((e) => e.path === "bin/weather")!.mode, 0o755);
  const anna = JSON.parse(entries[0]!.data.toString()) as {
    runtime: { binary: { entrypoint: Record<string, string> } };
  };
  assert.equal(anna.runtime.binary.entrypoint.default, "bin/weather");

  const launch = launchFor(host, host, join(report.dist, target!.file));
  assert.ok(!("skip" in launch));
  assert.deepEqual((await verifyLaunch(launch, readFileSync(join(dir, "manifest.json"), "utf8"))).failures, []);

  const sbom = readJson<{ components: Array<{ name: string; version: string; purl: string }> }>(
    join(report.dist, "sbom.cdx.json"),
  );
  const python = (await exec("python3", ["-c", "import platform; print(platform.python_version())"])).stdout.trim();
  assert.ok(
    sbom.components.some((c) => c.name === "cpython" && c.version === python),
    JSON.stringify(sbom.components),
  );
  assert.ok(
    sbom.components.some((c) => c.purl.startsWith("pkg:pypi/pyinstaller@")),
    "PyInstaller's bootloader and hooks are in the artifact",
  );
});

test("Python: --python-layout onefile builds one verified executable", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async () => {
  const dir = await project("weather");
  const onefile = await build({ projectDir: dir, pythonLayout: "onefile" });
  assert.equal(onefile.targets[0]!.layout, "onefile");
  assert.equal(onefile.targets[0]!.file, `weather-${host}`);
  assert.equal(onefile.targets[0]!.verify.status, "passed", JSON.stringify(onefile.targets[0]!.verify));
  assert.deepEqual(
    untar(readFileSync(join(onefile.dist, onefile.targets[0]!.archive.file))).map((e) => e.path),
    ["manifest.json", "bin/weather"],
  );
});

const HOOKS_TOOL = `

import sys as _sys

_LOADED_BEFORE_TOOLS = sorted(m for m in ("inspect", "multiprocessing") if m in _sys.modules)


@tool
def frozen_hooks() -> dict:
    """What PyInstaller's run-time hooks did to modules the plugin imports late."""
    import inspect
    import multiprocessing
    import pkgutil

    from . import executa

    return {
        "loaded_before_tools": _LOADED_BEFORE_TOOLS,
        "getsourcefile": inspect.getsourcefile.__name__,
        "freeze_support": multiprocessing.freeze_support.__name__,
        "runtime_modules": sorted(name for _, name, _ in pkgutil.iter_modules(executa.__path__)),
    }
`;

/**
 * One build for the two tests below: a project with the frozen_hooks tool, whose tools import ssl
 * and packages installed only in its .venv: tinydep (License-Expression) and tinytop (a License
 * field, declared in pyproject.toml), which requires tinybase (a license classifier only).
 */
let venvBuild: Promise<{ dir: string; report: BuildReport }> | undefined;
function buildVenvProject(): Promise<{ dir: string; report: BuildReport }> {
  venvBuild ??= (async () => {
    const dir = await project("venv-plugin");
    const made = await exec("python3", ["-m", "venv", "--without-pip", "--system-site-packages", join(dir, ".venv")]);
    assert.equal(made.code, 0, made.stderr);
    const venvPython = join(dir, ".venv", "bin", "python");
    const site = (
      await exec(venvPython, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    ).stdout.trim();
    installDistribution(site, "tinydep", "1.4.2", ["License-Expression: Apache-2.0"], 'GREETING = "hello"\n');
    installDistribution(site, "tinybase", "0.2.0", [
      "Classifier: License :: OSI Approved :: GNU General Public License v2 (GPLv2)",
    ]);
    installDistribution(
      site,
      "tinytop",
      "1.0.0",
      ["License: MIT License", "Requires-Dist: tinybase>=0.1", "Requires-Dist: absent-extra; extra == 'x'"],
      "import tinybase  # noqa: F401\n",
    );
    const pyproject = join(dir, "pyproject.toml");
    writeFileSync(
      pyproject,
      readFileSync(pyproject, "utf8").replace("dependencies = []", 'dependencies = ["tinytop"]'),
    );
    const tools = join(dir, "venv_plugin", "tools.py");
    writeFileSync(
      tools,
      readFileSync(tools, "utf8") +
        "\nimport ssl  # noqa: E402,F401\nimport tinydep  # noqa: E402,F401\nimport tinytop  # noqa: E402,F401\n" +
        HOOKS_TOOL,
    );
    assert.notEqual(
      (await exec("python3", ["-c", "import tinydep"])).code,
      0,
      "tinydep must exist only in the project's .venv",
    );
    await regenerateManifest(dir);
    return { dir, report: await build({ projectDir: dir }) };
  })();
  return venvBuild;
}

test("Python: PyInstaller's run-time hooks for inspect, multiprocessing and pkgutil run when the plugin imports them, not at every start", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async () => {
  const { report } = await buildVenvProject();
  const invoke = { jsonrpc: "2.0", id: 1, method: "invoke", params: { tool: "frozen_hooks", arguments: {} } };
  const run = await exec(join(report.dist, report.targets[0]!.file), [], {
    input: JSON.stringify(invoke) + "\n",
    timeoutMs: 60_000,
  });
  const answer = JSON.parse(run.stdout.trim().split("\n")[0]!) as { result?: { data?: Record<string, unknown> } };
  const data = answer.result?.data;
  assert.ok(data, run.stdout + run.stderr);
  assert.deepEqual(data.loaded_before_tools, [], "nothing imported inspect or multiprocessing before the tools did");
  assert.equal(data.getsourcefile, "_pyi_getsourcefile", "PyInstaller's inspect hook ran once inspect was imported");
  assert.equal(
    data.freeze_support,
    "_freeze_support",
    "PyInstaller's multiprocessing hook ran once multiprocessing was imported",
  );
  assert.ok(
    (data.runtime_modules as string[]).includes("dispatch"),
    `pkgutil lists the frozen package's modules: ${JSON.stringify(data.runtime_modules)}`,
  );
});

test("Python: the project's .venv runs PyInstaller; the SBOM lists its packages with their licenses and edges, and the native libraries PyInstaller bundles (OpenSSL with its version)", {
  ...requires("pyinstaller"),
  timeout: 10 * 60_000,
}, async () => {
  const { report } = await buildVenvProject();
  assert.equal(report.targets[0]!.verify.status, "passed", JSON.stringify(report.targets[0]!.verify));
  const path = join(report.dist, "sbom.cdx.json");
  assert.equal(await sbomSchemaErrors(path), null);
  const bom = readJson<Bom>(path);
  const component = (name: string) => {
    const found = bom.components.find((c) => c.name === name);
    assert.ok(found, `${name} is not among ${JSON.stringify(bom.components.map((c) => c.name))}`);
    return found;
  };
  const license = (c: Bom["components"][number]) => c.licenses?.[0]?.license?.id ?? c.licenses?.[0]?.expression;

  const tiny = component("tinydep");
  assert.equal(tiny.version, "1.4.2");
  assert.equal(tiny.purl, "pkg:pypi/tinydep@1.4.2");
  assert.equal(license(tiny), "Apache-2.0");
  const top = component("tinytop");
  const base = component("tinybase");
  assert.equal(license(top), "MIT");
  assert.equal(license(base), "GPL-2.0-only");
  const edges = edgesOf(bom);
  assert.deepEqual(edges[top["bom-ref"]], [base["bom-ref"]]);
  assert.ok(edges[bom.metadata.component["bom-ref"]]!.includes(top["bom-ref"]), "pyproject.toml declares tinytop");
  assert.ok(!edges[bom.metadata.component["bom-ref"]]!.includes(base["bom-ref"]), "tinybase comes through tinytop");

  const openssl = component("openssl");
  const expected = (await exec("python3", ["-c", "import ssl; print(ssl.OPENSSL_VERSION.split()[1])"])).stdout.trim();
  assert.equal(openssl.version, expected, "the OpenSSL the interpreter links, which PyInstaller bundles");
  if (which("dpkg-query")) assert.match(openssl.purl, /^pkg:deb\/[a-z]+\/libssl\d*@/);
  // Ground truth: every shared library in the artifact's _internal/ (but the interpreter) is some component's file.
  const internal = join(report.dist, report.targets[0]!.file, "..", "_internal");
  const libraries = readdirSync(internal)
    .filter((f) => /\.so(\.|$)|\.dylib$|\.dll$/.test(f) && !/^(lib)?python\d/.test(f))
    .sort();
  const files = bom.components
    .flatMap((c) => (c.properties ?? []).filter((p) => p.name === "executa:file").map((p) => p.value))
    .sort();
  assert.deepEqual(files, libraries);
});

test(
  "Python: a .venv without PyInstaller is an error that says how to install it there (uv's command for a venv uv keeps)",
  requires("python3"),
  async () => {
    const dir = await project("no-pyinstaller");
    assert.equal((await exec("python3", ["-m", "venv", "--without-pip", join(dir, ".venv")])).code, 0);
    await assert.rejects(build({ projectDir: dir }), (e: Error & { hint?: string }) => {
      assert.match(e.message, /PyInstaller is not installed for .*\.venv/);
      assert.match(e.hint ?? "", /\.venv.* -m pip install "pyinstaller/);
      return true;
    });
    // A venv uv made has no pip: the hint is uv's.
    writeFileSync(join(dir, "uv.lock"), "version = 1\n");
    await assert.rejects(build({ projectDir: dir }), (e: Error & { hint?: string }) => {
      assert.equal(e.hint, "install the project's build extra into its virtual environment: `uv sync --extra build`");
      return true;
    });
    assert.equal(existsSync(join(dir, "dist")), false);
  },
);

test("Python: other targets are an error that points to a CI matrix", async () => {
  const dir = await project("cross");
  const other = host === "linux-x86_64" ? "windows-x86_64" : "linux-x86_64";
  await assert.rejects(build({ projectDir: dir, target: other }), (e: Error & { hint?: string }) => {
    assert.match(e.message, /PyInstaller builds only for this machine/);
    assert.match(e.hint ?? "", /matrix/);
    return true;
  });
});
