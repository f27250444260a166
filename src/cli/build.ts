import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { build, BuildError, type BuildReport, type Runtime } from "../builder/index.js";
import { ExitCode } from "../common/errors.js";
import { color, withSpinner } from "../common/term.js";
import { formatDiagnostic, PLATFORM_KEYS } from "../protocol/index.js";
import { runCommand } from "./run.js";

interface BuildArgs {
  dir: string;
  target?: string[];
  runtime: Runtime;
  snapshot: boolean;
  verify: boolean;
  "base-url"?: string;
  "out-dir"?: string;
  json: boolean;
}

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

export const buildCommand: CommandModule<object, BuildArgs> = {
  command: "build [dir]",
  describe: "Build single executables for Anna's platforms, with archives, checksums and build.json, then run them",
  builder: (y) =>
    y
      .positional("dir", { type: "string", default: ".", describe: "The plugin project folder" })
      .option("target", {
        type: "string",
        array: true,
        describe: `Platform keys, comma-separated or repeated, or 'all' (default: this machine's). Keys: ${PLATFORM_KEYS.join(", ")}`,
      })
      .option("runtime", {
        choices: ["node", "bun"] as const,
        default: "node" as Runtime,
        describe: "TypeScript only: node (single executable application) or bun (bun build --compile)",
      })
      .option("snapshot", { type: "boolean", default: false, describe: "TypeScript/node only: put a V8 startup snapshot in the executable (this machine's platform only)" })
      .option("verify", { type: "boolean", default: true, describe: "Run the conformance checks on every artifact this machine can run (--no-verify skips them)" })
      .option("base-url", { type: "string", describe: "URL the archives will be served from: written into executa.json distribution.profiles.binary.binary_urls" })
      .option("out-dir", { type: "string", describe: "Output folder (default: <dir>/dist)" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON result object on stdout" }) as never,
  handler: (argv) =>
    runCommand(async () => {
      if (!argv.verify) process.stderr.write(`${color.yellow("executa: warning:")} --no-verify: the artifacts are NOT run or checked\n`);
      let report: BuildReport;
      try {
        report = await build({
          projectDir: resolve(argv.dir),
          ...(argv.target && { targets: argv.target }),
          runtime: argv.runtime,
          snapshot: argv.snapshot,
          verify: argv.verify,
          ...(argv["base-url"] && { baseUrl: argv["base-url"] }),
          ...(argv["out-dir"] && { outDir: resolve(argv["out-dir"]) }),
          step: (label, work) => withSpinner(label, work, argv.json),
        });
      } catch (error) {
        if (error instanceof BuildError) for (const d of error.diagnostics) process.stderr.write(formatDiagnostic(d) + "\n");
        throw error;
      }
      if (argv.json) process.stdout.write(JSON.stringify(report) + "\n");
      else printHuman(report);
      return report.ok ? ExitCode.Ok : ExitCode.Failed;
    }),
};
