/** `executa test`: run the conformance checks against a plugin (any language, ours or not). */
import { resolve } from "node:path";
import type { CheckResult, ConformanceReport } from "../conform/index.js";
import { TOOL_SAMPLE_SIZE } from "../conform/tool-sample.js";
import type { DetectedLaunch } from "../host/index.js";
import { ExecutaError, ExitCode } from "../common/errors.js";
import { color, printable, withSpinner } from "../common/term.js";
import { defineCommand, jsonOption } from "./command.js";
import {
  CREDENTIAL_OPTIONS,
  credentialsFrom,
  launchFrom,
  MOCK_HOST_OPTIONS,
  mockHostOptionsFrom,
  PLUGIN_USAGE,
  unusedRulesReport,
  warnUnusedRules,
} from "./plugin-options.js";
import { printJson } from "./run.js";

function failedNote(report: ConformanceReport): string {
  const failed = report.results.filter((x) => x.status === "fail").length;
  const warned = report.results.filter((x) => x.status === "warn").length;
  return report.strict && warned ? `${failed} failed, ${warned} warnings (--strict)` : `${failed} failed`;
}

const list = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

function printHuman(report: ConformanceReport, launch: DetectedLaunch): void {
  const out = process.stdout;
  const marks: Record<CheckResult["status"], string> = {
    pass: color.green("✔", out),
    fail: color.red("✖", out),
    warn: color.yellow("!", out),
    skip: color.dim("-", out),
  };
  const width = Math.max(...report.results.map((r) => r.id.length));
  out.write(
    `${color.dim(printable(`plugin: ${[launch.command, ...launch.args].join(" ").slice(0, 120)} (${launch.source})`), out)}\n`,
  );
  for (const r of report.results) {
    const time =
      r.ms !== undefined && r.status !== "skip" ? color.dim(`${String(r.ms).padStart(5)} ms`, out) : "        ";
    const problem = r.status === "fail" || r.status === "warn";
    const message = printable(r.message ?? "");
    const note =
      r.status === "skip"
        ? color.dim(`skipped: ${message}`, out)
        : r.status === "pass"
          ? color.dim(message, out)
          : r.description;
    out.write(`${marks[r.status]} ${r.id.padEnd(width)} ${time}  ${note}\n`);
    if (problem) {
      const paint = r.status === "fail" ? color.red : color.yellow;
      out.write(
        `    ${paint(`${r.status === "warn" ? "warning: " : ""}${message || "failed"}`, out)
          .split("\n")
          .join("\n    ")}\n`,
      );
      if (r.rule) out.write(`    ${color.dim(`rule: ${r.rule.split("\n").join("\n          ")}`, out)}\n`);
    }
  }
  const count = (s: string) => report.results.filter((r) => r.status === s).length;
  const warned = count("warn")
    ? `, ${count("warn")} warning${count("warn") === 1 ? "" : "s"}${report.strict ? " (failures under --strict)" : ""}`
    : "";
  const summary = `${count("pass")} passed, ${count("fail")} failed${warned}, ${count("skip")} skipped in ${((report.ms ?? 0) / 1000).toFixed(1)} s${report.seed !== undefined ? ` (fuzz seed ${report.seed})` : ""}`;
  out.write(`${report.passed ? color.green(summary, out) : color.red(summary, out)}\n`);
}

export const testCommand = defineCommand({
  command: "test [dir]",
  describe: "Run the conformance checks against a plugin: `executa test [dir]` or `executa test -- <command> [args]`",
  usage: `$0 test ${PLUGIN_USAGE}\n\nStarts the plugin the way Anna does (detected from executa.json, pyproject.toml, package.json, go.mod or bin/<name>, or the command after --), and checks it against the Executa protocol.`,
  dashDash: "start the plugin with this command instead of the one detected from the folder, run in `dir`",
  options: {
    only: {
      value: "<ids>",
      type: "string",
      array: true,
      describe: "Run only these check ids (comma-separated or repeated; a prefix such as 'jsonrpc' selects a group)",
    },
    skip: {
      value: "<ids>",
      type: "string",
      array: true,
      describe: "Skip these check ids (comma-separated or repeated)",
    },
    fuzz: {
      value: "<n>",
      type: "number",
      default: 0,
      describe: "Send N malformed or mutated frames; each must get the right answer",
    },
    seed: {
      doc: "the fuzzer's seed (every fuzz run prints it), and the seed that picks the tool sample (default 1: the same tools every run)",
      value: "<n>",
      type: "number",
      describe: "Seed of the fuzzer (printed by every fuzz run) and of the tool sample, to reproduce a failure",
    },
    "all-tools": {
      doc: `the per-tool checks (invoke.*, reverse.*, lifecycle.eof, fuzz) exercise every tool; by default a manifest with more than ${TOOL_SAMPLE_SIZE} tools gets a seeded sample of ${TOOL_SAMPLE_SIZE}, and each check that used it says so`,
      type: "boolean",
      default: false,
      describe: `Exercise every tool in the per-tool checks (default: a seeded sample of ${TOOL_SAMPLE_SIZE} past that many)`,
    },
    fixtures: {
      doc: 'replay JSONL transcripts: harness recordings `{t, kind: meta|req|res}` (what `executa dev --record` writes; `ns: "executa"` and app `tools.invoke` requests are replayed, other app-level events are named in the report) or `{request, expect}` lines; any other line is an error with its line number. Each recorded session (from one `meta` line to the next) replays on a fresh plugin and mock host; see [recording and replaying](#recording-and-replaying)',
      value: "<dir or file>",
      type: "string",
      describe:
        "Replay the JSONL transcripts in this folder (or file): harness recordings ({t, kind: meta|req|res}, as `executa dev --record` writes them) or {request, expect} lines",
    },
    strict: {
      doc: "warnings fail the run too (exit 1)",
      type: "boolean",
      default: false,
      describe: "Warnings (advice the spec gives as a TIP or SHOULD, and heuristics) fail the run too",
    },
    ...MOCK_HOST_OPTIONS,
    ...CREDENTIAL_OPTIONS,
    ...jsonOption("one report on stdout"),
  },
  examples: [
    ["$0 test", "check the plugin in this folder"],
    ["$0 test --fuzz 10000", "add 10 000 fuzz frames"],
    ["$0 test --only describe,health -- go run .", "two checks against an explicit launch command"],
    ["$0 test --strict", "fail on warnings too (for your own plugins in CI)"],
  ],
  async run(args) {
    if (!Number.isInteger(args.fuzz) || args.fuzz < 0)
      throw new ExecutaError(`--fuzz must be a whole number of frames, got ${args.fuzz}`, {
        hint: "e.g. --fuzz 10000",
      });
    if (args.seed !== undefined && !Number.isInteger(args.seed))
      throw new ExecutaError(`--seed must be an integer, got ${args.seed}`, {
        hint: "use the seed a fuzz run printed, e.g. --seed 7",
      });
    const launch = await launchFrom(args);
    const only = list(args.only);
    const skipIds = list(args.skip);
    const mockHost = await mockHostOptionsFrom(args);
    const credentials = credentialsFrom(args);
    const { runChecks, RunProgress } = await import("../conform/index.js");
    const progress = new RunProgress();
    const report = await withSpinner(
      "conformance checks",
      () =>
        runChecks(launch, {
          ...(only && { only }),
          ...(skipIds && { skip: skipIds }),
          fuzz: args.fuzz,
          ...(args.seed !== undefined && { seed: args.seed }),
          ...(args.fixtures && { fixtures: resolve(args.fixtures) }),
          ...(Object.keys(credentials).length && { credentials }),
          ...(args.strict && { strict: true }),
          ...(args["all-tools"] && { maxTools: Infinity }),
          mockHost,
          progress,
        }),
      {
        quiet: args.json,
        detail: () => progress.line(),
        outcome: (r) => (r.passed ? { status: "ok" } : { status: "failed", note: failedNote(r) }),
      },
    );
    const mock = unusedRulesReport(mockHost);
    if (args.json)
      printJson(report.passed ? "ok" : "failed", {
        ...report,
        launch: { command: launch.command, args: launch.args, cwd: launch.cwd, source: launch.source },
        ...(mock && { mock }),
      });
    else printHuman(report, launch);
    warnUnusedRules(mock, (line) => process.stderr.write(`${line}\n`));
    return report.passed ? ExitCode.Ok : ExitCode.Failed;
  },
});
