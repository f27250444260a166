/** `executa build`: single executables for Anna's platforms, archives, checksums, build.json, verified. */
import { resolve } from "node:path";
import type { BuildReport } from "../builder/index.js";
import { ExitCode } from "../common/errors.js";
import { color, withSpinner } from "../common/term.js";
import { formatDiagnostic, PLATFORM_KEYS } from "../protocol/index.js";
import { defineCommand, JSON_OPTION } from "./command.js";
import { printJson } from "./run.js";

function printHuman(report: BuildReport): void {
  const out = process.stdout;
  for (const t of report.targets) {
    const mark = t.verify.status === "passed" ? color.green("✔", out) : t.verify.status === "failed" ? color.red("✖", out) : color.yellow("-", out);
    const how = t.verify.status === "skipped" ? `not run: ${t.verify.reason}` : `${t.verify.checks} ${t.verify.status}`;
    out.write(`${mark} ${t.platform.padEnd(15)} ${t.file} (${(t.size / 1048576).toFixed(1)} MiB, ${t.runtime} ${t.runtime_version}) ${t.archive.file}; ${how}\n`);
    for (const f of t.verify.failures ?? []) out.write(`    ${color.red("✖", out)} ${f}\n`);
  }
  for (const note of report.notes) out.write(`${color.dim("note:", out)} ${note}\n`);
  out.write(`${report.dist}: SHA256SUMS, build.json\n`);
}

export const buildCommand = defineCommand({
  command: "build [dir]",
  describe: "Build single executables for Anna's platforms, with archives, checksums and build.json, then run them",
  options: {
    target: {
      type: "string",
      array: true,
      describe: `Platform keys, comma-separated or repeated, or 'all' (default: this machine's). Keys: ${PLATFORM_KEYS.join(", ")}`,
    },
    runtime: { choices: ["node", "bun"] as const, default: "node" as const, describe: "TypeScript only: node (single executable application) or bun (bun build --compile)" },
    snapshot: { type: "boolean", default: false, describe: "TypeScript/node only: put a V8 startup snapshot in the executable (this machine's platform only)" },
    verify: { type: "boolean", default: true, describe: "Run the conformance checks on every artifact this machine can run (--no-verify skips them)" },
    "base-url": { type: "string", describe: "URL the archives will be served from: written into executa.json distribution.profiles.binary.binary_urls" },
    "out-dir": { type: "string", describe: "Output folder (default: <dir>/dist)" },
    ...JSON_OPTION,
  },
  examples: [
    ["$0 build", "this machine's platform, verified"],
    ["$0 build --target all", "every platform the language can target"],
    ["$0 build --target linux-x86_64,darwin-arm64 --base-url https://example.com/releases/v1", "two targets, and binary_urls in executa.json"],
  ],
  async run(args) {
    if (!args.verify) process.stderr.write(`${color.yellow("executa: warning:")} --no-verify: the artifacts are NOT run or checked\n`);
    const { build, BuildError } = await import("../builder/index.js");
    let report: BuildReport;
    try {
      report = await build({
        projectDir: resolve(args.dir),
        ...(args.target && { targets: args.target }),
        runtime: args.runtime,
        snapshot: args.snapshot,
        verify: args.verify,
        ...(args["base-url"] && { baseUrl: args["base-url"] }),
        ...(args["out-dir"] && { outDir: resolve(args["out-dir"]) }),
        step: (label, work, outcome) => withSpinner(label, work, { quiet: args.json, ...(outcome && { outcome }) }),
      });
    } catch (error) {
      if (error instanceof BuildError) for (const d of error.diagnostics) process.stderr.write(formatDiagnostic(d) + "\n");
      throw error;
    }
    if (args.json) printJson(report.ok ? "ok" : "failed", report);
    else printHuman(report);
    return report.ok ? ExitCode.Ok : ExitCode.Failed;
  },
});
