/**
 * `executa init` on a prebuilt binary (a corpus Go plugin built by hand into bin/<name>, Anna's
 * layout): type binary with no command; build packages that executable for the platform its
 * header names (there is no source to build another from) and refuses the others.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { parse } from "yaml";
import { exec } from "../../src/common/exec.js";
import { hostPlatformKey } from "../../src/protocol/index.js";
import {
  assertActionlintClean,
  assertToolchainWorks,
  CORPUS,
  executa,
  executaJson,
  readJson,
  tempFolder,
} from "./helpers.js";
import { requires } from "../support/requires.js";

const made: string[] = [];
after(() => made.forEach((d) => rmSync(dirname(d), { recursive: true, force: true })));

test("a prebuilt binary in bin/<name>: adopted as type binary, packaged for its own platform with checksums and an SBOM", {
  ...requires("go"),
  timeout: 10 * 60_000,
}, async (t) => {
  const dir = tempFolder("github-token");
  made.push(dir);
  mkdirSync(join(dir, "bin"));
  const compiled = await exec("go", ["build", "-o", join(dir, "bin", "github-token"), "."], {
    cwd: join(CORPUS, "go", "github-token"),
    env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-buildvcs=false" },
  });
  assert.equal(compiled.code, 0, compiled.stderr);

  const init = await executaJson<{ type: string; entry: string; command?: string[]; tool_id: string }>(
    dir,
    "init",
    "--ci",
  );
  assert.equal(init.code, 0, init.shown);
  assert.deepEqual(
    [init.out.type, init.out.entry, init.out.command, init.out.tool_id],
    ["binary", "bin/github-token", undefined, "github-token"],
    "Anna starts bin/<tool_id> by default",
  );
  assert.equal(readJson(join(dir, "executa.json")).manifest_source, "plugin");

  const host = hostPlatformKey()!;
  const workflow = parse(readFileSync(join(dir, ".github", "workflows", "ci.yml"), "utf8")) as {
    jobs: Record<
      string,
      {
        "runs-on": string;
        strategy?: { matrix: { include: Array<{ target: string }> } };
        steps: Array<{ uses?: string; run?: string }>;
      }
    >;
  };
  assert.deepEqual(
    workflow.jobs.build!.strategy!.matrix.include.map((m) => m.target),
    [host],
    "one target: the binary's own platform",
  );
  assert.ok(
    !Object.values(workflow.jobs).some((j) =>
      j.steps.some((s) => /setup-python|setup-go/.test(s.uses ?? "") || /pip install/.test(s.run ?? "")),
    ),
    "no language toolchain for a binary",
  );
  await assertActionlintClean(dir, (reason) => t.diagnostic(`actionlint skipped: ${reason}`));

  const build = await assertToolchainWorks(dir, "whoami", {}, { GITHUB_TOKEN: "ghp_executa_init_test" });
  assert.equal(build.targets[0]!.runtime, "prebuilt");
  assert.equal(build.targets[0]!.platform, host);
  const sbom = readJson(join(dir, "dist", "sbom.cdx.json")) as { components?: Array<{ name: string }> };
  assert.ok(
    sbom.components?.some((c) => c.name === "stdlib"),
    "a Go binary's build info puts the Go runtime in the SBOM",
  );

  const other = host === "linux-x86_64" ? "linux-aarch64" : "linux-x86_64";
  const refused = await executa(dir, "build", "--target", other);
  assert.equal(refused.code, 2, refused.shown);
  assert.match(
    refused.stderr,
    new RegExp(`bin/github-token is a ${host} executable, so it builds for ${host} only, not ${other}`),
  );
});
