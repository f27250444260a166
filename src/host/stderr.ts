/** What a crashed plugin said: the line of its stderr that names the error. */

/** An exception, panic or error line as Python, Node and Go print them (e.g. `ValueError: ...`, `Error: ...`, `panic: ...`). */
const ERROR_LINE =
  /^\s*(?:[A-Za-z_][\w.]*(?:Error|Exception|Exit)|Error|panic|fatal error|error)(?:\s*\[[\w-]+\])?:\s*\S/;

/** The last line that names an error (Python's traceback ends with it, Node and Go print it first), else the last line. */
export function errorLine(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const named = lines.filter((l) => ERROR_LINE.test(l));
  return (named.at(-1) ?? lines.at(-1))?.slice(0, 400);
}
