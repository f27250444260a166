/**
 * The dev REPL over a Workbench: describe, tools, invoke <tool> key=value ... | --args '{json}',
 * health, trace on|off, restart, help, quit. Works on a TTY (prompt, history, tab completion;
 * Ctrl-C clears a half-typed line, and quits on an empty one) and on piped input alike.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface, type Completer } from "node:readline";
import type { Workbench } from "./workbench.js";
import { argumentsFromWords, splitWords } from "./coerce.js";
import type { Response } from "../host/index.js";
import { printable } from "../common/term.js";

export const COMMANDS = ["describe", "tools", "invoke", "health", "trace", "restart", "help", "quit"] as const;

const HELP = `commands:
  describe                          the manifest the plugin serves
  tools                             its tools and their parameters
  invoke <tool> key=value ...       call a tool (values follow the parameter types; arrays: a,b,c or JSON)
  invoke <tool> --args '{"k": 1}'   call a tool with raw JSON arguments
  health                            the plugin's health
  trace on|off                      show every frame
  restart                           restart the plugin
  quit                              stop the plugin and leave`;

export interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  terminal: boolean;
  /** Persist history here (TTY only). */
  historyFile?: string;
}

/** Completions for a partial line: commands, then tool names, then `name=` of unused parameters. */
export function complete(workbench: Pick<Workbench, "tools" | "tool">, line: string): [string[], string] {
  const words = line.split(/\s+/);
  const last = words[words.length - 1] ?? "";
  const filter = (xs: string[]) => {
    const hits = xs.filter((x) => x.startsWith(last));
    return hits;
  };
  if (words.length <= 1) return [filter([...COMMANDS]), last];
  if (words[0] === "trace" && words.length === 2) return [filter(["on", "off"]), last];
  if (words[0] !== "invoke") return [[], last];
  if (words.length === 2) return [filter(workbench.tools.map((t) => t.name)), last];
  const tool = workbench.tool(words[1]!);
  const used = new Set(words.slice(2, -1).map((w) => w.split("=")[0]));
  const names = (tool?.parameters ?? [])
    .map((p) => p.name)
    .filter((n) => !used.has(n))
    .map((n) => `${n}=`);
  return [filter(last.includes("=") ? [] : [...names, "--args"]), last];
}

function describeTools(workbench: Workbench): string {
  if (!workbench.tools.length) return "no tools";
  return workbench.tools
    .map((t) => {
      const params = (t.parameters ?? []).map(
        (p) =>
          `    ${p.name}: ${p.type}${p.type === "array" ? `<${p.items?.type ?? p.items_type ?? "string"}>` : ""}${p.required === false ? " (optional" + (p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : "") + ")" : ""}${p.enum ? ` one of ${p.enum.map((e) => JSON.stringify(e)).join(", ")}` : ""}  ${p.description ?? ""}`,
      );
      return [`  ${t.name}  ${t.description}`, ...params].join("\n");
    })
    .join("\n");
}

const pretty = (r: Response) =>
  JSON.stringify("error" in r.frame ? { error: r.frame.error } : r.frame.result, null, 2) +
  `\n(${r.ms} ms${r.file ? ", by file transport" : ""})`;

/** Runs one REPL line; returns false to quit. */
export async function runLine(workbench: Workbench, line: string, print: (text: string) => void): Promise<boolean> {
  let words: string[];
  try {
    words = splitWords(line.trim());
  } catch (error) {
    print(`error: ${(error as Error).message}`);
    return true;
  }
  const [command, ...rest] = words;
  if (!command) return true;
  try {
    switch (command) {
      case "quit":
      case "exit":
      case ".exit":
        return false;
      case "help":
      case "?":
        print(HELP);
        return true;
      case "describe":
        print(pretty(await workbench.describe()));
        return true;
      case "tools":
        await workbench.ensure();
        print(describeTools(workbench));
        return true;
      case "health":
        print(pretty(await workbench.health()));
        return true;
      case "trace":
        if (rest[0] !== "on" && rest[0] !== "off")
          print(`trace is ${workbench.trace ? "on" : "off"}; use trace on|off`);
        else {
          workbench.trace = rest[0] === "on";
          print(`trace ${rest[0]}`);
        }
        return true;
      case "restart":
        await workbench.restart();
        print(`restarted; ${workbench.tools.length} tool(s)`);
        return true;
      case "invoke": {
        const [tool, ...argWords] = rest;
        if (!tool) {
          print("usage: invoke <tool> key=value ... (or --args '{json}')");
          return true;
        }
        await workbench.ensure();
        let args: Record<string, unknown>;
        if (argWords[0] === "--args" || argWords[0]?.startsWith("{")) {
          const text = argWords[0] === "--args" ? argWords.slice(1).join(" ") : argWords.join(" ");
          const parsed = JSON.parse(text || "{}") as unknown;
          if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
            throw new Error("--args must be a JSON object");
          args = parsed as Record<string, unknown>;
        } else {
          if (!workbench.tool(tool))
            print(`note: ${tool} is not in the manifest (tools: ${workbench.tools.map((t) => t.name).join(", ")})`);
          args = argumentsFromWords(workbench.tool(tool), argWords);
        }
        print(pretty(await workbench.invoke(tool, args)));
        return true;
      }
      default:
        print(`unknown command ${JSON.stringify(command)}; type help`);
        return true;
    }
  } catch (error) {
    print(`error: ${(error as Error).message}`);
    return true;
  }
}

export async function runRepl(workbench: Workbench, options: ReplOptions): Promise<void> {
  const history =
    options.terminal && options.historyFile && existsSync(options.historyFile)
      ? readFileSync(options.historyFile, "utf8").split("\n").filter(Boolean).reverse().slice(0, 500)
      : [];
  const completer: Completer = (line) => complete(workbench, line);
  const rl = createInterface({
    input: options.input,
    output: options.output,
    terminal: options.terminal,
    completer,
    history,
    historySize: 500,
    prompt: "executa> ",
  });
  const print = (text: string) => options.output.write(printable(text) + "\n");
  if (options.terminal)
    print(
      `${workbench.manifest?.display_name ?? workbench.manifest?.name ?? "plugin"}: ${workbench.tools.length} tool(s). Type help; tab completes.`,
    );
  const prompt = () => options.terminal && rl.prompt();
  prompt();
  // Lines are handled one after another, even when piped in faster than the plugin answers.
  let queue = Promise.resolve(true);
  let closed = false;
  await new Promise<void>((resolve) => {
    rl.on("line", (line) => {
      queue = queue.then(async (go) => {
        if (!go) return false;
        const more = await runLine(workbench, line, print);
        if (!more) rl.close();
        else prompt();
        return more;
      });
    });
    rl.on("SIGINT", () => {
      if (!rl.line) return rl.close();
      // Ctrl-C on a half-typed line clears it (end of line, then delete to its start), as shells do.
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
    });
    rl.on("close", () => {
      if (closed) return;
      closed = true;
      void queue.then(() => resolve());
    });
  });
  if (options.terminal && options.historyFile) {
    const lines = (rl as unknown as { history?: string[] }).history ?? [];
    mkdirSync(dirname(options.historyFile), { recursive: true });
    writeFileSync(options.historyFile, [...lines].reverse().join("\n") + "\n");
  }
}
