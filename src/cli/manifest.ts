/** `executa manifest`: manifest.json (and the bindings file) from the code, or checked against it. */
import { resolve } from "node:path";
import { ExitCode } from "../common/errors.js";
import { color } from "../common/term.js";
import type { AgainstResult, CheckResult, Output } from "../manifest/index.js";
import type { Diagnostic } from "../protocol/index.js";
import { commandAfterDashes, defineCommand, jsonOption } from "./command.js";
import { printJson } from "./run.js";

async function printDiagnostics(diagnostics: Diagnostic[]): Promise<void> {
  const { formatDiagnostic } = await import("../protocol/index.js");
  for (const d of diagnostics) {
    const line = formatDiagnostic(d);
    process.stderr.write((d.severity === "error" ? color.red(line) : color.yellow(line)) + "\n");
  }
}

function printCheck(result: CheckResult, fix: string, live: boolean): void {
  const out = process.stdout;
  if (result.status === "in-sync") {
    out.write(
      `${color.green("✔", out)} manifest.json is in sync with ${live ? "the running plugin's describe" : "the code"}\n`,
    );
    return;
  }
  const what = {
    missing: "is missing",
    drift: "is out of date",
    "non-canonical": "is not in canonical form (formatting only)",
    error: "",
  }[result.status];
  out.write(`${color.red("✖", out)} ${result.files.join(" and ")} ${what}\n`);
  if (result.changes.length) {
    out.write("\nChanges (committed -> code):\n");
    for (const c of result.changes) out.write(`  - ${c.message}\n`);
  }
  if (result.diff) out.write(`\n${result.diff}`);
  out.write(`\nTo fix it, run: ${fix}\n`);
}

type Against = AgainstResult | { skipped: string };

function printAgainst(a: Against): void {
  const out = process.stdout;
  if ("skipped" in a) {
    out.write(`${color.yellow("-", out)} ${a.skipped}\n`);
    return;
  }
  const paint = { breaking: color.red, compatible: color.yellow, patch: color.dim };
  out.write(
    `\nAgainst ${a.against} (released ${a.released_version}, executa.json ${a.version}): ${a.changes.length ? `${a.changes.length} changes` : "no changes"}\n`,
  );
  for (const c of a.changes)
    out.write(`  ${paint[c.class](c.class.padEnd(10), out)}  ${c.message}  (needs ${c.needs})\n`);
  if (a.ok)
    out.write(`${color.green("✔", out)} version ${a.version} carries the bump the changes need (${a.required_bump})\n`);
  else if (a.bump === "backwards")
    out.write(`${color.red("✖", out)} version ${a.version} is lower than the released ${a.released_version}\n`);
  else
    out.write(
      `${color.red("✖", out)} version ${a.version} does not carry the ${a.required_bump} bump these changes need: set executa.json's version to ${a.needs} or later\n`,
    );
}

async function reportCheck(
  result: CheckResult,
  json: boolean,
  fix: string,
  live: boolean,
  against?: Against,
): Promise<number> {
  let exit: number =
    result.status === "in-sync" ? ExitCode.Ok : result.status === "error" ? ExitCode.CannotRun : ExitCode.Failed;
  if (exit === ExitCode.Ok && against && "ok" in against && !against.ok) exit = ExitCode.Failed;
  if (json) {
    printJson(exit === ExitCode.Ok ? "ok" : exit === ExitCode.Failed ? "failed" : "error", {
      check: result.status,
      changes: result.changes,
      diagnostics: result.diagnostics,
      files: result.files,
      ...(against && { against }),
      ...(result.status === "error" && {
        error: { message: "the manifest cannot be generated", hint: "fix the errors in diagnostics" },
      }),
    });
  } else {
    await printDiagnostics(result.diagnostics);
    if (result.status === "error")
      process.stderr.write(`${color.red("executa: error:")} the manifest cannot be generated; fix the errors above\n`);
    else printCheck(result, fix, live);
    if (against) printAgainst(against);
  }
  return exit;
}

/** `--against`: the current manifest classed against the released one (default: the newest v* tag). */
async function againstRelease(dir: string, spec: string, current: Record<string, unknown>): Promise<Against> {
  const { compareWithRelease, newestVersionTag, readReleased } = await import("../manifest/index.js");
  const { readExecutaJson } = await import("../project/index.js");
  const ref = spec || (await newestVersionTag(dir));
  if (!ref) return { skipped: "no v* tag yet: nothing to compare against (name one with --against <ref | file>)" };
  const released = await readReleased(dir, ref);
  const declared = readExecutaJson(dir)?.version;
  const version = typeof declared === "string" ? declared : String(current.version);
  return compareWithRelease({
    against: released.against,
    released: released.manifest,
    current,
    releasedVersion: released.version,
    version,
  });
}

/** The manifest a running plugin serves (the command after --, else the plugin's launch detected from its folder). */
async function fromPlugin(
  dir: string,
  command: string[] | undefined,
  name: string | undefined,
  strict: boolean,
): Promise<{ outputs: Output[]; diagnostics: Diagnostic[] }> {
  const { liveManifest, applyStrict } = await import("../manifest/index.js");
  const { detectLaunch } = await import("../host/index.js");
  const launch = command ? { command: command[0]!, args: command.slice(1), cwd: dir } : await detectLaunch(dir);
  const { outputs, diagnostics } = await liveManifest(dir, launch, { ...(name && { name }) });
  return { outputs, diagnostics: applyStrict(diagnostics, strict) };
}

export const manifestCommand = defineCommand({
  command: "manifest [dir]",
  describe: "Generate manifest.json (and the bindings file) from the tools' source, or check that it is up to date",
  dashDash:
    "with `--from-plugin`: the plugin to start for its `describe` (default: its launch detected from the folder)",
  options: {
    check: {
      doc: "write nothing; exit 0 in sync, 1 on drift or a missing or non-canonical file, 2 when the manifest cannot be generated. Drift prints the semantic changes, a unified diff and the command that fixes it",
      type: "boolean",
      default: false,
      describe:
        "Write nothing; exit 0 when the committed files are in sync, 1 on drift or a missing or non-canonical file, 2 when the manifest cannot be generated",
    },
    strict: {
      doc: "warnings (for example a parameter without a description, or a description that is still a `TODO` placeholder) are errors; among them the host-capability check, which runs on every generation: a tool that calls a host-service helper (`ctx.host.sample`, `Host.StorageGet`, a `request` with a constant method, ... in the tool's body or the project's functions it calls) whose capability `host_capabilities` lacks is reported at the call, and a declared capability no tool needs on executa.json (not when a tool sends a `request` whose method the code computes)",
      type: "boolean",
      default: false,
      describe: "Treat warnings as errors",
    },
    "from-plugin": {
      doc: "take the manifest from any running plugin's `describe` (any language, or a built binary), validate it, and write or check it the same way",
      value: "[-- cmd args]",
      type: "boolean",
      default: false,
      describe:
        "Take the manifest from a running plugin's describe answer instead of the source: the command after -- (executa manifest --from-plugin -- <command> [args]), else the plugin's launch detected from its folder",
    },
    against: {
      doc: "implies `--check`: compare with a released manifest (a git ref, or a manifest file inside the project or the temp folder; alone: the newest `v*` tag) and class every change as breaking, compatible or patch by [the gate's rules](#the-breaking-change-gate). Exit 1 when executa.json's version lacks the bump semver asks for (major for breaking, minor while the major is 0; minor for additions). `--json` adds `against: {changes: [{class, kind, message, needs}], required_bump, bump, ok, needs}`",
      value: "[ref | file]",
      type: "string",
      describe:
        "Implies --check: class every change since a release (a git ref, or a manifest file in the project; alone: the newest v* tag) as breaking, compatible or patch, and exit 1 when executa.json's version lacks the semver bump they need",
    },
    name: {
      type: "string",
      describe:
        "With --from-plugin: the manifest name to write when the plugin serves none (default: executa.json's tool_id)",
    },
    "sync-version": {
      doc: "first copy the package.json / pyproject.toml version into executa.json (the TS template's `version` script runs it on `npm version`)",
      type: "boolean",
      default: false,
      describe: "First copy the package.json / pyproject.toml version into executa.json (for `npm version`)",
    },
    ...jsonOption("one result on stdout: `{status, changes, diagnostics, files}`"),
  },
  examples: [
    ["$0 manifest", "Regenerate manifest.json and the bindings file"],
    ["$0 manifest --check", "Fail CI when manifest.json is out of date"],
    [
      "$0 manifest --check --against v1.2.0",
      "Also fail when a change since v1.2.0 needs a version bump executa.json lacks",
    ],
    ["$0 manifest --from-plugin -- ./dist/my-plugin-linux-x86_64", "Read the manifest from a built binary"],
  ],
  async run(args) {
    const dir = resolve(args.dir);
    const command = commandAfterDashes(args);
    const fix = args["from-plugin"]
      ? `executa manifest --from-plugin${command ? ` -- ${command.join(" ")}` : ""}`
      : `executa manifest${args.dir === "." ? "" : ` ${args.dir}`}`;
    const m = await import("../manifest/index.js");
    if (args["sync-version"] && !args.check && args.against === undefined) {
      const written = m.syncVersion(dir);
      if (written && !args.json) process.stderr.write(`executa.json version -> ${written}\n`);
    }
    let outputs: Output[];
    let diagnostics: Diagnostic[];
    if (args["from-plugin"]) ({ outputs, diagnostics } = await fromPlugin(dir, command, args.name, args.strict));
    else ({ outputs, diagnostics } = await m.generateManifest(dir, { strict: args.strict }));
    if (args.check || args.against !== undefined) {
      const result = await m.compareOutputs(dir, outputs, diagnostics);
      const against =
        args.against === undefined || result.status === "error"
          ? undefined
          : await againstRelease(dir, args.against, JSON.parse(outputs[0]!.content) as Record<string, unknown>);
      const { manifestFromPlugin, readExecutaJson } = await import("../project/index.js");
      const live = args["from-plugin"] || manifestFromPlugin(readExecutaJson(dir));
      return reportCheck(result, args.json, fix, live, against);
    }

    const { hasErrors } = await import("../protocol/index.js");
    const count = (JSON.parse(outputs[0]!.content) as { tools?: unknown[] }).tools?.length ?? 0;
    if (hasErrors(diagnostics)) {
      const errors = diagnostics.filter((d) => d.severity === "error").length;
      if (args.json)
        printJson("error", {
          written: [],
          diagnostics,
          error: { message: `manifest.json was not written (${errors} errors)`, hint: "fix the errors in diagnostics" },
        });
      else {
        await printDiagnostics(diagnostics);
        process.stderr.write(`${color.red("executa: error:")} manifest.json was not written (${errors} errors)\n`);
      }
      return ExitCode.CannotRun;
    }
    const written = await m.writeOutputs(dir, outputs);
    if (args.json) printJson("ok", { written, diagnostics, tools: count });
    else {
      await printDiagnostics(diagnostics);
      process.stdout.write(
        written.length
          ? `wrote ${written.join(", ")} (${count} tools)\n`
          : `manifest.json is up to date (${count} tools)\n`,
      );
    }
    return ExitCode.Ok;
  },
});
