/**
 * The three templates, freshly scaffolded, pass `executa manifest --strict` with the capability
 * check: summarize samples and executa.json declares llm.sample. Without it, the check points at
 * the call, so the check does see the template's code.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { generateManifest } from "../../src/manifest/index.js";
import { formatDiagnostic } from "../../src/protocol/index.js";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";

const CALLS = {
  ts: ["src/tools.ts", "ctx.host.sample"],
  python: ["probe/tools.py", "ctx.host.sample"],
  go: ["tools.go", "Host.Sample"],
} as const;

for (const lang of ["ts", "python", "go"] as const) {
  test(`${lang} template: no warning under --strict; without llm.sample, summarize's call is reported`, async () => {
    const root = mkdtempSync(join(tmpdir(), "executa-host-usage-"));
    try {
      const dir = join(root, "probe");
      await scaffold({
        targetDir: dir,
        spec: makeSpec({ lang, name: "probe", goModule: "example.com/probe" }),
        install: false,
        git: false,
        quiet: true,
      });
      assert.deepEqual((await generateManifest(dir, { strict: true })).diagnostics, []);

      const file = join(dir, "executa.json");
      const project = JSON.parse(readFileSync(file, "utf8")) as { host_capabilities: string[] };
      assert.deepEqual(project.host_capabilities, ["llm.sample"]);
      writeFileSync(file, JSON.stringify({ ...project, host_capabilities: [] }, null, 2));
      const [source, helper] = CALLS[lang];
      const found = (await generateManifest(dir)).diagnostics.map(formatDiagnostic);
      assert.equal(found.length, 1, found.join("\n"));
      assert.match(
        found[0]!,
        new RegExp(
          `^${source.replace(".", "\\.")}:\\d+:\\d+: warning: summarize calls ${helper.replace(".", "\\.")} \\(sampling/createMessage\\), which needs "llm\\.sample" in host_capabilities`,
        ),
      );
      const [, line, column] = /:(\d+):(\d+):/.exec(found[0]!)!;
      const text = readFileSync(join(dir, source), "utf8").split("\n")[Number(line) - 1]!;
      assert.ok(
        text.slice(Number(column) - 1).includes(`${helper.split(".").pop()}(`),
        `the location points at the call: ${text}`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
