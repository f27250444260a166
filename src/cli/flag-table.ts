/** The README's flag tables, made from the commands' declarations (a test keeps the README equal to them). */
import { markdownTable } from "../common/markdown.js";
import type { OptionSpec } from "../common/options.js";
import type { Command } from "./command.js";

/** `--name, -a <value>`: a switch shows no value (`--no-name` when it defaults to on). */
function flagCell(name: string, option: OptionSpec): string {
  const aliases = [option.alias ?? []]
    .flat()
    .map((a) => `, -${a}`)
    .join("");
  if (option.type === "boolean") return `${option.default === true ? `--no-${name}` : `--${name}`}${aliases}`;
  const value = option.choices ? option.choices.join("|") : (option.value ?? `<${name}>`);
  return `--${name}${aliases} ${value}`;
}

/** One markdown table: positionals, `-- <command>`, then every option in declaration order. */
export function flagTable(command: Command): string {
  const rows: [string, string][] = [];
  for (const [name, p] of Object.entries(command.positionals))
    rows.push([`[${name}]`, p.doc ?? String(p.describe ?? "")]);
  if (command.dashDash) rows.push(["-- <command> [args]", command.dashDash]);
  for (const [name, option] of Object.entries(command.options)) {
    rows.push([flagCell(name, option), option.doc ?? String(option.describe ?? "")]);
  }
  return markdownTable(
    ["flag", "meaning"],
    rows.map(([flag, meaning]) => [`\`${flag}\``, meaning]),
  );
}

const BLOCK = /<!-- flags: ([a-z-]+) -->\n[\s\S]*?<!-- \/flags -->/g;

/** `readme` with every `<!-- flags: verb -->` ... `<!-- /flags -->` block rewritten from the command `verb`. */
export function withFlagTables(readme: string, commands: readonly Command[]): string {
  return readme.replace(BLOCK, (_, verb: string) => {
    const command = commands.find((c) => String(c.command).split(" ")[0] === verb);
    if (!command) throw new Error(`README names a flag table for '${verb}', which is not a command`);
    return `<!-- flags: ${verb} -->\n${flagTable(command)}\n<!-- /flags -->`;
  });
}
