/** A unified diff (3 lines of context) of two texts, line by line. */

type Op = { kind: " " | "-" | "+"; line: string };

function lines(text: string): string[] {
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out;
}

/** Longest-common-subsequence edit script; texts beyond ~16M cell pairs fall back to replace-all. */
function editScript(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: Op[] = a.slice(0, start).map((line) => ({ kind: " ", line }));
  const tail: Op[] = a.slice(endA).map((line) => ({ kind: " ", line }));
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const n = x.length;
  const m = y.length;
  const middle: Op[] = [];
  if ((n + 1) * (m + 1) > 16_000_000) {
    middle.push(...x.map((line) => ({ kind: "-" as const, line })), ...y.map((line) => ({ kind: "+" as const, line })));
  } else {
    const w = m + 1;
    const table = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * w + j] =
          x[i] === y[j] ? table[(i + 1) * w + j + 1]! + 1 : Math.max(table[(i + 1) * w + j]!, table[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (x[i] === y[j]) {
        middle.push({ kind: " ", line: x[i]! });
        i++;
        j++;
      } else if (table[(i + 1) * w + j]! >= table[i * w + j + 1]!) middle.push({ kind: "-", line: x[i++]! });
      else middle.push({ kind: "+", line: y[j++]! });
    }
    while (i < n) middle.push({ kind: "-", line: x[i++]! });
    while (j < m) middle.push({ kind: "+", line: y[j++]! });
  }
  return [...head, ...middle, ...tail];
}

export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return "";
  const ops = editScript(lines(before), lines(after));
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let k = 0;
  while (k < ops.length) {
    while (k < ops.length && ops[k]!.kind === " ") k++;
    if (k >= ops.length) break;
    let from = Math.max(0, k - context);
    let to = k;
    // Extend the hunk while the next change is within 2 * context lines.
    for (;;) {
      while (to < ops.length && ops[to]!.kind !== " ") to++;
      let next = to;
      while (next < ops.length && ops[next]!.kind === " ") next++;
      if (next < ops.length && next - to <= 2 * context) to = next;
      else break;
    }
    const end = Math.min(ops.length, to + context);
    let oldStart = 1;
    let newStart = 1;
    for (let i = 0; i < from; i++) {
      if (ops[i]!.kind !== "+") oldStart++;
      if (ops[i]!.kind !== "-") newStart++;
    }
    const hunk = ops.slice(from, end);
    const oldCount = hunk.filter((o) => o.kind !== "+").length;
    const newCount = hunk.filter((o) => o.kind !== "-").length;
    out.push(
      `@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`,
    );
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    from = end;
    k = end;
  }
  if (!before.endsWith("\n") && before !== "") out.push("\\ No newline at end of file (a)");
  return out.join("\n") + "\n";
}
