/** `executa test`: run the conformance checks against a plugin (any language, ours or not). */
import { resolve } from "node:path";
import type { CommandModule } from "yargs";
import { runChecks, type CheckResult, type ConformanceReport } from "../conform/index.js";
import { detectLaunch, samplingModeFrom, type DetectedLaunch } from "../host/index.js";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color, withSpinner } from "../common/term.js";
import { runCommand } from "./run.js";

interface TestArgs {
  dir: string;
  only?: string[];
  skip?: string[];
  fuzz: number;
  seed?: number;
  fixtures?: string;
  sampling?: string;
  storage?: string;
  json: boolean;
  _: (string | number)[];
  "--"?: string[];
}

const list = (values: string[] | undefined) => values?.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);

/** The command after `--`, if one was given. */
export function commandAfterDashes(argv: { _: (string | number)[]; "--"?: string[] }, raw: string[] = process.argv): string[] | undefined {
  if (argv["--"]?.length) return argv["--"].map(String);
  const at = raw.indexOf("--");
  return at >= 0 && at < raw.length - 1 ? raw.slice(at + 1) : undefined;
}

export async function launchFrom(argv: { dir: string; _: (string | number)[]; "--"?: string[] }): Promise<DetectedLaunch> {
  const command = commandAfterDashes(argv);
  if (command) return { command: command[0]!, args: command.slice(1), cwd: resolve(argv.dir), source: "the command after --" };
  return detectLaunch(argv.dir);
}

function printHuman(report: ConformanceReport, launch: DetectedLaunch): void {
  const out = process.stdout;
  const mark = (r: CheckResult) => (r.status === "pass" ? color.green("✔", out) : r.status === "fail" ? color.red("✖", out) : color.yellow("-", out));
  const width = Math.max(...report.results.map((r) => r.id.length));
  out.write(`${color.dim(`plugin: ${[launch.command, ...launch.args].join(" ").slice(0, 120)} (${launch.source})`, out)}\n`);
  for (const r of report.results) {
    const time = r.ms !== undefined && r.status !== "skip" ? color.dim(`${String(r.ms).padStart(5)} ms`, out) : "        ";
    const note = r.status === "skip" ? color.dim(`skipped: ${r.message ?? ""}`, out) : r.status === "pass" ? color.dim(r.message ?? "", out) : "";
    out.write(`${mark(r)} ${r.id.padEnd(width)} ${time}  ${r.status === "fail" ? r.description : note}\n`);
    if (r.status === "fail") {
      out.write(`    ${color.red(r.message ?? "failed", out).split("\n").join("\n    ")}\n`);
      if (r.rule) out.write(`    ${color.dim(`rule: ${r.rule}`, out)}\n`);
    }
  }
  const count = (s: string) => report.results.filter((r) => r.status === s).length;
  const summary = `${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped in ${((report.ms ?? 0) / 1000).toFixed(1)} s${report.seed !== undefined ? ` (fuzz seed ${report.seed})` : ""}`;
  out.write(`${report.passed ? color.green(summary, out) : color.red(summary, out)}\n`);
}

export const testCommand: CommandModule<object, TestArgs> = {
  command: "test",
  describe: "Run the conformance checks against a plugin: `executa test [--dir DIR]` or `executa test -- <command> [args]`",
  builder: (y) =>
    y
      .usage("$0 test [options] [-- <command> [args...]]\n\nStarts the plugin the way Anna does (detected from executa.json, pyproject.toml, package.json, go.mod or bin/<name>, or the command after --), and checks it against the Executa protocol.")
      .option("dir", { type: "string", default: ".", describe: "The plugin's folder (launch detection and working directory)" })
      .option("only", { type: "string", array: true, describe: "Run only these check ids (comma-separated or repeated; a prefix such as 'jsonrpc' selects a group)" })
      .option("skip", { type: "string", array: true, describe: "Skip these check ids (comma-separated or repeated)" })
      .option("fuzz", { type: "number", default: 0, describe: "Send N malformed or mutated frames; each must get the right answer" })
      .option("seed", { type: "number", describe: "Seed of the fuzzer (printed by every fuzz run), to reproduce a failure" })
      .option("fixtures", { type: "string", describe: "Replay the JSONL transcripts in this folder (or file), as written by `executa dev --record`" })
      .option("sampling", { type: "string", describe: "How the mock host answers sampling: a canned reply text, 'echo', or 'rules:FILE.jsonl'" })
      .option("storage", { type: "string", describe: "Keep the mock host's storage and uploads in this folder instead of memory" })
      .option("json", { type: "boolean", default: false, describe: "Print one JSON result object on stdout" })
      .example("$0 test", "check the plugin in this folder")
      .example("$0 test --fuzz 10000", "add 10 000 fuzz frames")
      .example("$0 test --only describe,health -- python3 plugin.py", "two checks against an explicit command") as never,
  handler: (argv) =>
    runCommand(async () => {
      if (!Number.isInteger(argv.fuzz) || argv.fuzz < 0) throw new ExecutaError(`--fuzz must be a whole number of frames, got ${argv.fuzz}`);
      if (argv.seed !== undefined && !Number.isInteger(argv.seed)) throw new ExecutaError(`--seed must be an integer, got ${argv.seed}`);
      const launch = await launchFrom(argv);
      const only = list(argv.only);
      const skipIds = list(argv.skip);
      const mockHost = { sampling: samplingModeFrom(argv.sampling), ...(argv.storage && { storageDir: resolve(argv.storage) }) };
      const run = () =>
        runChecks(launch, {
          ...(only && { only }),
          ...(skipIds && { skip: skipIds }),
          fuzz: argv.fuzz,
          ...(argv.seed !== undefined && { seed: argv.seed }),
          ...(argv.fixtures && { fixtures: resolve(argv.fixtures) }),
          mockHost,
        });
      const report = await withSpinner("conformance checks", run, argv.json);
      if (argv.json) process.stdout.write(JSON.stringify({ ...report, launch: { command: launch.command, args: launch.args, cwd: launch.cwd, source: launch.source } }) + "\n");
      else printHuman(report, launch);
      return report.passed ? ExitCode.Ok : ExitCode.Failed;
    }),
};
