/**
 * A copy of a JSON value that JSON.stringify can always write: what is nested deeper than `max`
 * is named instead of kept. Walks without recursion, so a plugin's value nested 100,000 deep
 * (a describe, a logged request) cannot overflow the stack of the page's server.
 */
/** Deeper than any manifest or InvokeResult a person reads (the runtimes refuse host values past 64). */
export const MAX_SHOWN_DEPTH = 64;

type Node = Record<string, unknown> | unknown[];

export function boundDepth<T>(value: T, max: number): T {
  const root: Record<string, unknown> = { v: value };
  const stack: [Node, string | number, number][] = [[root, "v", 0]];
  const put = (parent: Node, key: string | number, v: unknown) =>
    ((parent as Record<string | number, unknown>)[key] = v);
  while (stack.length) {
    const [parent, key, depth] = stack.pop()!;
    const v = (parent as Record<string | number, unknown>)[key];
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) {
      put(parent, key, `… (${Array.isArray(v) ? "an array" : "an object"} nested deeper than ${max}, left out)`);
      continue;
    }
    const copy: Node = Array.isArray(v) ? [...(v as unknown[])] : { ...(v as Record<string, unknown>) };
    put(parent, key, copy);
    for (const k of Array.isArray(copy) ? copy.keys() : Object.keys(copy)) stack.push([copy, k, depth + 1]);
  }
  return root.v as T;
}
