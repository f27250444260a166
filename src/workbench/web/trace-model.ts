/**
 * The trace as rows: entries in the order they happened, each invoke a group with the frames that
 * belong to it (its reverse requests, the host's answers, its own answer) nested beneath; stderr
 * and everything else at the top level, interleaved by time. Filtered by direction and text: a
 * nested row that matches brings its invoke along.
 */
import type { TraceDirection, TraceEntry } from "../inspect/wire.js";

export interface Row {
  entry: TraceEntry;
  depth: 0 | 1;
  /** For an invoke's row: how many frames it holds, and whether they are hidden. */
  children?: number;
  collapsed?: boolean;
}

export interface TraceFilter {
  dirs: ReadonlySet<TraceDirection>;
  /** Case-insensitive text to find in a frame, its method or its invoke id. */
  query: string;
  /** Only the frames of one invoke. */
  invokeId?: string;
}

const isInvoke = (e: TraceEntry) =>
  e.dir === "send" && e.kind === "request" && e.method === "invoke" && e.invokeId !== undefined;

function matcher(filter: TraceFilter): (e: TraceEntry) => boolean {
  const q = filter.query.trim().toLowerCase();
  return (e) =>
    filter.dirs.has(e.dir) &&
    (filter.invokeId === undefined || e.invokeId === filter.invokeId) &&
    (!q ||
      e.text.toLowerCase().includes(q) ||
      (e.method?.toLowerCase().includes(q) ?? false) ||
      (e.invokeId?.toLowerCase().includes(q) ?? false));
}

export function buildRows(entries: readonly TraceEntry[], filter: TraceFilter, collapsed: ReadonlySet<string>): Row[] {
  const parents = new Map<string, TraceEntry>();
  for (const e of entries) if (isInvoke(e) && !parents.has(e.invokeId!)) parents.set(e.invokeId!, e);
  const children = new Map<string, TraceEntry[]>();
  const top: TraceEntry[] = [];
  for (const e of entries) {
    const parent = e.invokeId !== undefined ? parents.get(e.invokeId) : undefined;
    if (parent && parent !== e) {
      let list = children.get(e.invokeId!);
      if (!list) children.set(e.invokeId!, (list = []));
      list.push(e);
    } else top.push(e);
  }
  const matches = matcher(filter);
  const rows: Row[] = [];
  for (const e of top) {
    const kids = isInvoke(e) ? (children.get(e.invokeId!) ?? []) : undefined;
    if (!kids) {
      if (matches(e)) rows.push({ entry: e, depth: 0 });
      continue;
    }
    const shownKids = kids.filter(matches);
    if (!matches(e) && shownKids.length === 0) continue;
    const isCollapsed = collapsed.has(e.invokeId!);
    rows.push({ entry: e, depth: 0, children: kids.length, collapsed: isCollapsed });
    if (!isCollapsed) for (const k of shownKids) rows.push({ entry: k, depth: 1 });
  }
  return rows;
}
