/** `executa upgrade [dir]`: the project's vendored runtime replaced by this toolchain's. */
import { ExitCode } from "../common/errors.js";
import { color } from "../common/term.js";
import type { UpgradedFile, UpgradeResult } from "../scaffold/upgrade/index.js";
import { defineCommand, jsonOption } from "./command.js";
import { printJson } from "./run.js";

const MARKS: Record<UpgradedFile["action"], [mark: string, paint: keyof typeof color, says: string]> = {
  update: ["~", "cyan", "updated"],
  add: ["+", "green", "added"],
  remove: ["-", "red", "removed"],
  conflict: ["!", "yellow", "changed by you and by the new runtime"],
  keep: ["=", "dim", "dropped by the new runtime; kept, since you changed it"],
};

function printHuman(result: UpgradeResult): void {
  const out = process.stdout;
  const versions = `runtime version ${result.from}`;
  if (result.status === "outdated") {
    out.write(
      `${color.yellow("outdated:", out)} ${result.runtimeDir}/ is ${versions}; this create-executa has ${result.to}. Run \`executa upgrade\`.\n`,
    );
    return;
  }
  if (result.status === "up-to-date") {
    out.write(`${color.green("up to date:", out)} ${result.runtimeDir}/ is ${versions}, this create-executa's.\n`);
    if (result.recorded)
      out.write(
        `  ${color.green("+", out)} ${result.runtimeDir}/runtime.lock.json (the record a project from before records lacked)\n`,
      );
    return;
  }
  const verb = { upgraded: "Upgraded", "dry-run": "Would upgrade", refused: "Cannot upgrade" }[result.status];
  out.write(
    `${verb} ${result.runtimeDir}/ from runtime version ${result.from} to ${result.to}${result.versionFrom === "files" ? " (version told by its files: no runtime.lock.json)" : ""}:\n`,
  );
  for (const file of result.files) {
    const [mark, paint, says] = MARKS[file.action];
    const kept = file.orig
      ? `; yours is kept as ${file.orig}`
      : result.status === "refused" && file.action === "conflict"
        ? "; refused"
        : "";
    out.write(`  ${color[paint](mark, out)} ${file.path}: ${says}${kept}\n`);
  }
  for (const file of result.files) if (file.diff) out.write(`\n${file.diff}`);
  if (result.status === "refused") {
    const conflicts = result.files.filter((f) => f.action === "conflict").length;
    out.write(
      `\n${color.red("Refused:", out)} you changed ${conflicts} runtime file(s) that the new version changes too (diff above: yours -> the new runtime). Nothing was written.\n` +
        "Merge your change into the new file by hand, or run `executa upgrade --force` to take the new runtime and keep your copies as <file>.orig.\n",
    );
    return;
  }
  if (result.status === "dry-run") out.write("Nothing was written (--dry-run).\n");
  else if (result.manifestError)
    out.write(
      `${color.red("✖", out)} regenerate the manifest: ${result.manifestError.message}\n  run by hand: ${result.manifestError.manual}\n`,
    );
  else if (result.status === "upgraded") {
    const regenerated =
      result.regenerated.length > 0
        ? `regenerated ${result.regenerated.join(", ")}`
        : "manifest.json and the bindings are up to date";
    out.write(`${color.green("✔", out)} ${regenerated}\n`);
  }
  if (result.changes.length > 0) {
    out.write(`\nWhat changed in the runtime (docs/runtime-changes.md):\n`);
    for (const change of result.changes)
      out.write(`\n${color.bold(`Version ${change.version}`, out)}\n${change.text}\n`);
  }
}

export const upgradeCommand = defineCommand({
  command: "upgrade [dir]",
  describe:
    "Replace the project's vendored runtime with this toolchain's: files you did not change are replaced, changed ones refused unless --force; then the manifest is regenerated",
  options: {
    check: {
      doc: "write nothing; exit 1 when the project's runtime is older than this toolchain's, 0 when it is current (every generated workflow runs it)",
      type: "boolean",
      default: false,
      describe: "Write nothing; exit 1 when the project's runtime is older than this toolchain's (for CI)",
    },
    force: {
      doc: "also replace the runtime files you changed, keeping each of yours as `<file>.orig` (it refuses when a `.orig` exists already)",
      type: "boolean",
      default: false,
      describe: "Also replace runtime files you changed, keeping your copy beside each as <file>.orig",
    },
    "dry-run": {
      type: "boolean",
      default: false,
      describe: "List what would change, with the diff of the files you changed; write nothing",
    },
    diff: {
      type: "boolean",
      default: false,
      describe: "Print the unified diff of every file that changes, not only of the ones you changed",
    },
    ...jsonOption(
      "one object on stdout: `{status, outcome: upgraded|up-to-date|outdated|refused|dry-run, dir, language, runtimeDir, from, to, versionFrom: record|files, files: [{path, action, orig?, diff?}], regenerated, manifestError?, changes: [{version, text}]}`",
    ),
  },
  examples: [
    ["$0 upgrade --check", "exit 1 when the runtime is older than this toolchain's"],
    ["$0 upgrade --dry-run --diff", "what an upgrade would change, file by file"],
  ],
  async run(args) {
    const { upgradeRuntime } = await import("../scaffold/upgrade/index.js");
    const result = await upgradeRuntime({
      dir: args.dir,
      check: args.check,
      force: args.force,
      dryRun: args["dry-run"],
      diff: args.diff,
    });
    const failed = result.status === "outdated" || result.status === "refused" || result.manifestError !== undefined;
    if (args.json) printJson(failed ? "failed" : "ok", { ...result, outcome: result.status });
    else printHuman(result);
    return failed ? ExitCode.Failed : ExitCode.Ok;
  },
});
