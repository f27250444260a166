/** `executa build`: single executables for Anna's platforms, archives, checksums, SBOM, build.json, verified. */
import { resolve } from "node:path";
// The flag table alone, not the builder index: every command line loads it, and the builder is heavy.
import { BUILD_FLAGS } from "../builder/flags.js";
import type { BuildReport } from "../builder/index.js";
import { flagValues } from "../common/options.js";
import { ExitCode } from "../common/errors.js";
import { color, withSpinner } from "../common/term.js";
import { formatDiagnostic } from "../protocol/index.js";
import { defineCommand, jsonOption } from "./command.js";
import { printJson } from "./run.js";

async function printHuman(report: BuildReport): Promise<void> {
  const out = process.stdout;
  for (const t of report.targets) {
    const mark =
      t.verify.status === "passed"
        ? color.green("✔", out)
        : t.verify.status === "failed"
          ? color.red("✖", out)
          : color.yellow("-", out);
    const how = t.verify.status === "skipped" ? `not run: ${t.verify.reason}` : `${t.verify.checks} ${t.verify.status}`;
    const layout = t.layout ? `, ${t.layout}` : "";
    out.write(
      `${mark} ${t.platform.padEnd(15)} ${t.file} (${(t.size / 1048576).toFixed(1)} MiB, ${t.runtime} ${t.runtime_version}${layout}) ${t.archive.file}; ${how}\n`,
    );
    for (const f of t.verify.failures ?? []) out.write(`    ${color.red("✖", out)} ${f}\n`);
  }
  const r = report.reproducible;
  if (r) {
    const { describeDifference } = await import("../builder/index.js");
    const how = `from a copy in another folder, with fresh ${r.conditions.fresh_caches.join(" and ")}, TZ=${r.conditions.time_zone} and umask ${r.conditions.umask}`;
    if (r.identical)
      out.write(
        `${color.green("✔", out)} reproducible: a second build ${how} gave the same ${r.files} files byte for byte (${r.seconds.toFixed(1)} s)\n`,
      );
    else {
      out.write(
        `${color.red("✖", out)} not reproducible: ${r.differences.length} of ${r.files} files differ between two builds (the second, ${how}, is in ${r.second_dir})\n`,
      );
      for (const d of r.differences) out.write(`    ${describeDifference(d)}\n`);
    }
  }
  for (const note of report.notes) out.write(`${color.dim("note:", out)} ${note}\n`);
  out.write(`${report.dist}: SHA256SUMS, a .sha256 per archive, ${report.sbom.join(", ")}, build.json\n`);
}

export const buildCommand = defineCommand({
  command: "build [dir]",
  describe:
    "Build single executables for Anna's platforms, with archives, checksums, an SBOM and build.json, then run them",
  options: { ...BUILD_FLAGS, ...jsonOption("one result on stdout") },
  examples: [
    ["$0 build", "this machine's platform, verified"],
    ["$0 build --target all", "every platform the language can target"],
    [
      "$0 build --target linux-x86_64,darwin-arm64 --base-url https://example.com/releases/v1",
      "two targets, and binary_urls in executa.json",
    ],
    ["$0 build --reproducible-check", "build twice and prove the outputs identical"],
  ],
  async run(args) {
    if (!args.verify)
      process.stderr.write(`${color.yellow("executa: warning:")} --no-verify: the artifacts are NOT run or checked\n`);
    const { build, BuildError } = await import("../builder/index.js");
    let report: BuildReport;
    try {
      report = await build({
        ...flagValues(args, BUILD_FLAGS),
        projectDir: resolve(args.dir),
        step: (label, work, outcome) => withSpinner(label, work, { quiet: args.json, ...(outcome && { outcome }) }),
      });
    } catch (error) {
      if (error instanceof BuildError)
        for (const d of error.diagnostics) process.stderr.write(formatDiagnostic(d) + "\n");
      throw error;
    }
    if (args.json) printJson(report.ok ? "ok" : "failed", report);
    else await printHuman(report);
    return report.ok ? ExitCode.Ok : ExitCode.Failed;
  },
});
