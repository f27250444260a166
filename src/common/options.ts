/**
 * A command-line option, declared once: yargs reads the parsing fields and `describe` (the help
 * line); the README's flag table shows `doc` (the full meaning, markdown; `describe` when absent)
 * and `value` (the placeholder after the flag, e.g. `<dir>`).
 */
import type { InferredOptionTypes, Options } from "yargs";

export type OptionSpec = Options & { doc?: string; value?: string };
export type OptionTable = Record<string, OptionSpec>;

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** The parsed values of a table's options under their camelCase names (`--out-dir` -> outDir). */
export type FlagValues<T extends OptionTable> = { [K in keyof T & string as Camel<K>]?: InferredOptionTypes<T>[K] };

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The values of `table`'s options out of parsed arguments, camelCased; unset ones left out. */
export function flagValues<T extends OptionTable>(args: Record<string, unknown>, table: T): FlagValues<T> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(table)) if (args[name] !== undefined) out[camel(name)] = args[name];
  return out as FlagValues<T>;
}

/** What yargs is given: the table without our README fields. */
export function yargsOptions(table: OptionTable): Record<string, Options> {
  return Object.fromEntries(
    Object.entries(table).map(([name, { doc: _doc, value: _value, ...options }]) => [name, options]),
  );
}
