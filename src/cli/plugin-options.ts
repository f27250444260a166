/** What test, dev and inspect share: where the plugin is, how to start it, how the mock host answers. */
import { resolve } from "node:path";
import { readCredentialsFile } from "../common/credentials-file.js";
import { ExecutaError } from "../common/errors.js";
import type { DetectedLaunch, MockHostOptions, UnusedRule } from "../host/index.js";
import { GENERATED_FILE_NAMES } from "../project/index.js";
import { commandAfterDashes, type OptionTable } from "./command.js";

export const MOCK_HOST_OPTIONS = {
  sampling: {
    value: "<text|echo|rules:FILE.jsonl>",
    doc: "how the mock host answers sampling: a canned reply text, `echo`, or the rules of a JSONL file",
    type: "string",
    describe: "How the mock host answers sampling: a canned reply text, 'echo', or 'rules:FILE.jsonl'",
  },
  mock: {
    value: "<FILE.jsonl>",
    doc: "answer reverse requests from these rules first (repeatable; see [the mock host](#the-mock-host))",
    type: "string",
    array: true,
    describe:
      "Answer reverse requests from this JSONL rule file first (repeatable): anna-app's {ns, method, match, result | events} rows or our {method, match, result | error}; first match wins, a row without match is the fallback",
  },
  storage: {
    value: "<dir>",
    doc: "keep the mock host's storage, files and uploads in a folder instead of memory: one file per key (`kv/`), each written to an exclusive temp name and renamed, so a set costs the size of its key and two workbenches on one folder see each other's keys and lose none (the last write of the same key wins)",
    type: "string",
    describe: "Keep the mock host's storage, files and uploads in this folder instead of memory",
  },
} as const satisfies OptionTable;

export const PLUGIN_USAGE = "[dir] [options] [-- <command> [args...]]";

/** The launch: the command after `--` (run in dir), else detected from dir. */
export async function launchFrom(args: { dir: string; "--"?: string[] }): Promise<DetectedLaunch> {
  const command = commandAfterDashes(args);
  if (command)
    return { command: command[0]!, args: command.slice(1), cwd: resolve(args.dir), source: "the command after --" };
  const { detectLaunch } = await import("../host/index.js");
  return detectLaunch(args.dir);
}

export async function mockHostOptionsFrom(args: {
  sampling?: string;
  mock?: string[];
  storage?: string;
}): Promise<MockHostOptions> {
  const { samplingFlag, loadRules, MockRuleSet } = await import("../host/index.js");
  const { sampling, rules } = samplingFlag(args.sampling);
  const merged = MockRuleSet.merge(...(args.mock ?? []).map((file) => loadRules(file)), rules);
  return { sampling, ...(merged && { rules: merged }), ...(args.storage && { storageDir: resolve(args.storage) }) };
}

/** The `--mock` report: rules that matched nothing the plugin asked for (never silently ignored). */
export function unusedRulesReport(options: MockHostOptions): { rules: number; unused: UnusedRule[] } | undefined {
  if (!options.rules) return undefined;
  return { rules: options.rules.rules.length, unused: options.rules.unused() };
}

export function warnUnusedRules(
  report: { rules: number; unused: UnusedRule[] } | undefined,
  write: (line: string) => void,
): void {
  if (!report?.unused.length) return;
  write(
    `executa: warning: ${report.unused.length} of ${report.rules} mock rule(s) matched nothing the plugin asked for:`,
  );
  for (const u of report.unused) write(`  ${u.where}: ${u.label.slice(0, 160)} (${u.why})`);
}

/** Where credentials come from: the environment and a file first, so no value need sit on a command line. */
export const CREDENTIAL_OPTIONS = {
  credential: {
    value: "<NAME>",
    doc: "a credential for every invoke's `context.credentials` (repeatable; `executa test` gives them to the invokes `--fixtures` replays, filling in the `[credential NAME]` an inspect export leaves): `NAME` takes the value of the environment variable; `NAME=VALUE` is also taken but puts the value on the command line; see [Credentials](#credentials)",
    type: "string",
    array: true,
    describe:
      "A credential for every invoke's context.credentials (repeatable): NAME takes the value of the environment variable NAME; NAME=VALUE is also taken, but puts the value on the command line, where every local user can read it",
  },
  "credentials-file": {
    value: "<file>",
    type: "string",
    describe:
      "Credentials from a .env-style file of NAME=value lines (# comments, quotes, export allowed); --credential wins for a name in both",
  },
} as const satisfies OptionTable;

/** The credentials `--credentials-file` and `--credential` give (a bare NAME reads the environment). */
export function credentialsFrom(
  args: { credential?: string[]; "credentials-file"?: string },
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = args["credentials-file"]
    ? readCredentialsFile(resolve(args["credentials-file"]))
    : {};
  for (const v of args.credential ?? []) {
    const eq = v.indexOf("=");
    const name = eq < 0 ? v : v.slice(0, eq);
    if (!name)
      throw new ExecutaError(
        `--credential takes NAME (read from the environment) or NAME=VALUE, got ${JSON.stringify(v)}`,
        { hint: "e.g. export API_KEY=sk-test, then --credential API_KEY" },
      );
    if (eq >= 0) {
      out[name] = v.slice(eq + 1);
      continue;
    }
    const fromEnv = env[name];
    if (!fromEnv)
      throw new ExecutaError(`--credential ${name}: the environment has no ${name}`, {
        hint: `set it first (export ${name}=...), or put ${name}=... in a file for --credentials-file`,
      });
    out[name] = fromEnv;
  }
  return out;
}

/** What the manifest regeneration of `--watch` writes (the watcher ignores its own writes). */
export const GENERATED_FILES = [...GENERATED_FILE_NAMES];

/** `--watch` in a project we can read: regenerate manifest.json and the bindings before each restart. */
export async function manifestRegenerator(
  dir: string,
  log: (line: string) => void,
): Promise<(() => Promise<void>) | undefined> {
  const { loadProject } = await import("../project/index.js");
  try {
    loadProject(dir);
  } catch {
    return undefined;
  }
  const { generateManifest, writeOutputs } = await import("../manifest/index.js");
  const { formatDiagnostic, hasErrors } = await import("../protocol/index.js");
  return async () => {
    const generated = await generateManifest(dir);
    if (hasErrors(generated.diagnostics)) {
      throw new ExecutaError(
        `the manifest cannot be regenerated:\n  ${generated.diagnostics
          .filter((d) => d.severity === "error")
          .map(formatDiagnostic)
          .join("\n  ")}`,
      );
    }
    const written = await writeOutputs(dir, generated.outputs);
    if (written.length) log(`regenerated ${written.join(", ")}`);
  };
}
