/**
 * `--check --against`: every change between the released manifest and the current one, classed
 * as breaking / compatible / patch (renames found), and the semver bump the version must carry.
 */
import semver from "semver";
import { ExecutaError } from "../common/errors.js";
import type { Json } from "../protocol/index.js";
import { manifestChanges, type Change, type ChangeKind } from "./changes.js";

export type ChangeClass = "breaking" | "compatible" | "patch";
export type Bump = "major" | "minor" | "patch" | "none";

export interface ClassifiedChange extends Omit<Change, "kind"> {
  kind:
    | ChangeKind
    | "tool-renamed"
    | "parameter-renamed"
    | "credential-added"
    | "credential-required"
    | "credential-removed";
  class: ChangeClass;
  /** The lowest version that carries the bump this change asks for. */
  needs: string;
}

export interface AgainstResult {
  /** The git ref or file compared against. */
  against: string;
  released_version: string;
  version: string;
  changes: ClassifiedChange[];
  /** The bump the changes ask for, and the one the version carries. */
  required_bump: Bump;
  bump: Bump | "backwards";
  ok: boolean;
  /** The lowest version that passes. */
  needs: string;
}

type Obj = Record<string, Json>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };
const PATCH_FIELDS = new Set(["display_name", "description", "author", "homepage", "icon", "category", "license"]);

type Unpriced = Omit<ClassifiedChange, "needs">;

function byName(list: unknown): Map<string, Obj> {
  const out = new Map<string, Obj>();
  if (Array.isArray(list))
    for (const item of list) if (isObj(item) && typeof item.name === "string") out.set(item.name, item);
  return out;
}

const withoutName = (o: Obj | undefined) => {
  const { name: _name, description: _description, ...rest } = o ?? {};
  return rest;
};

/**
 * A removed and an added item of the same scope that match by one of `shapes` (tried in order:
 * e.g. the same parameters, else the same description) are one rename.
 */
function pairRenames(
  changes: Change[],
  removed: ChangeKind,
  added: ChangeKind,
  shapes: Array<(c: Change) => unknown>,
  sameScope: (a: Change, b: Change) => boolean,
): Array<[Change, Change]> {
  const pairs: Array<[Change, Change]> = [];
  const taken = new Set<Change>();
  for (const shapeOf of shapes) {
    for (const gone of changes.filter((c) => c.kind === removed && !taken.has(c))) {
      const shape = shapeOf(gone);
      if (shape === undefined) continue;
      const match = changes.find(
        (a) => a.kind === added && !taken.has(a) && sameScope(gone, a) && same(shapeOf(a), shape),
      );
      if (!match) continue;
      pairs.push([gone, match]);
      taken.add(gone).add(match);
    }
  }
  return pairs;
}

function classifyEnum(before: Json | undefined, after: Json | undefined): ChangeClass {
  if (!Array.isArray(after)) return "compatible";
  if (!Array.isArray(before)) return "breaking";
  return before.some((v) => !after.some((w) => same(v, w))) ? "breaking" : "compatible";
}

function classifyCredentials(before: Json | undefined, after: Json | undefined): Unpriced[] {
  const out: Unpriced[] = [];
  const b = byName(before);
  const a = byName(after);
  for (const [name, c] of a) {
    const old = b.get(name);
    if (!old)
      out.push({
        kind: "credential-added",
        field: "credentials",
        after: c,
        class: c.required === true ? "breaking" : "compatible",
        message: `${c.required === true ? "required" : "optional"} credential '${name}' added`,
      });
    else if (old.required !== true && c.required === true)
      out.push({
        kind: "credential-required",
        field: "credentials",
        class: "breaking",
        message: `credential '${name}' is now required`,
      });
    else if (!same(old, c))
      out.push({
        kind: "field-changed",
        field: "credentials",
        before: old,
        after: c,
        class: "patch",
        message: `credential '${name}' changed`,
      });
  }
  for (const name of b.keys())
    if (!a.has(name))
      out.push({
        kind: "credential-removed",
        field: "credentials",
        class: "compatible",
        message: `credential '${name}' removed`,
      });
  return out;
}

/** Every value of the old type is one of the new: an integer is a number. */
const widens = (before: unknown, after: unknown) => before === "integer" && after === "number";

/** `items` ({type, ...}) or `items_type` ("integer") widened from integer to number, nothing else changed. */
function widensItems(before: unknown, after: unknown): boolean {
  if (!isObj(before) || !isObj(after)) return widens(before, after);
  const { type: was, ...restBefore } = before;
  const { type: is, ...restAfter } = after;
  return widens(was, is) && same(restBefore, restAfter);
}

/** The parameter was required in the release, so every existing call passes it and never saw the default. */
function wasRequired(released: unknown, c: Change): boolean {
  return Boolean(c.tool && c.parameter && paramOf(released, c.tool, c.parameter)?.required === true);
}

function classifyOne(c: Change, released: unknown): Unpriced[] {
  const as = (cls: ChangeClass): Unpriced[] => [{ ...c, class: cls }];
  switch (c.kind) {
    case "tool-removed":
    case "parameter-removed":
      return as("breaking");
    case "type-changed":
      return as(widens(c.before, c.after) ? "compatible" : "breaking");
    case "items-changed":
      return as(widensItems(c.before, c.after) ? "compatible" : "breaking");
    case "default-changed":
      // A caller that leaves out an optional parameter gets the default: changing it changes what that call does.
      return as(wasRequired(released, c) ? "compatible" : "breaking");
    case "tool-added":
      return as("compatible");
    case "parameter-added":
      return as(isObj(c.after) && c.after.required === true ? "breaking" : "compatible");
    case "required-changed":
      return as(c.after === true && c.before !== true ? "breaking" : "compatible");
    case "enum-changed":
      return as(classifyEnum(c.before, c.after));
    case "timeout-changed":
      return as(
        typeof c.before === "number" && typeof c.after === "number" && c.after < c.before ? "breaking" : "compatible",
      );
    case "description-changed":
    case "tools-reordered":
    case "parameters-reordered":
      return as("patch");
    case "field-changed":
      if (c.field === "version") return [];
      if (c.field === "credentials" && !c.tool) return classifyCredentials(c.before, c.after);
      if (c.field === "name" && !c.tool) return as("breaking");
      return as(PATCH_FIELDS.has(c.field ?? "") && !c.tool ? "patch" : "compatible");
    default:
      return as("compatible");
  }
}

/** Every change from `released` to `current`, classed; renames reported once as breaking. */
export function classifyChanges(released: unknown, current: unknown): Unpriced[] {
  const changes = manifestChanges(released, current);
  const tool = (c: Change) =>
    isObj(c.after) ? c.after : c.tool ? byName(isObj(released) ? released.tools : undefined).get(c.tool) : undefined;
  const tools = pairRenames(
    changes,
    "tool-removed",
    "tool-added",
    [(c) => tool(c)?.parameters ?? [], (c) => tool(c)?.description],
    () => true,
  );
  const param = (c: Change) =>
    isObj(c.after) ? c.after : c.tool && c.parameter ? paramOf(released, c.tool, c.parameter) : undefined;
  const params = pairRenames(
    changes,
    "parameter-removed",
    "parameter-added",
    [(c) => withoutName(param(c)), (c) => param(c)?.description],
    (a, b) => a.tool === b.tool,
  );
  const paired = new Set([...tools, ...params].flat());
  const out: Unpriced[] = [];
  for (const [gone, added] of tools)
    out.push({
      kind: "tool-renamed",
      tool: added.tool,
      before: gone.tool ?? null,
      class: "breaking",
      message: `tool '${gone.tool}' renamed to '${added.tool}'`,
    });
  for (const [gone, added] of params) {
    out.push({
      kind: "parameter-renamed",
      tool: added.tool,
      parameter: added.parameter,
      before: gone.parameter ?? null,
      class: "breaking",
      message: `tool '${added.tool}': parameter '${gone.parameter}' renamed to '${added.parameter}'`,
    });
  }
  for (const c of changes) if (!paired.has(c)) out.push(...classifyOne(c, released));
  const order: Record<ChangeClass, number> = { breaking: 0, compatible: 1, patch: 2 };
  return out.sort((a, b) => order[a.class] - order[b.class]);
}

function toolParams(manifest: unknown, tool: string): Json | undefined {
  return isObj(manifest) ? byName(manifest.tools).get(tool)?.parameters : undefined;
}

function paramOf(manifest: unknown, tool: string, parameter: string): Obj | undefined {
  return byName(toolParams(manifest, tool)).get(parameter);
}

/** The bump a change class asks for: breaking is major (minor while the major is 0), additions minor. */
export function bumpFor(cls: ChangeClass, released: string): Bump {
  if (cls === "breaking") return semver.major(released) === 0 ? "minor" : "major";
  return cls === "compatible" ? "minor" : "patch";
}

/** The bump from `released` to `version`, or "backwards". */
export function bumpBetween(released: string, version: string): Bump | "backwards" {
  if (semver.lt(version, released)) return "backwards";
  if (semver.major(version) > semver.major(released)) return "major";
  if (semver.minor(version) > semver.minor(released)) return "minor";
  return semver.eq(version, released) ? "none" : "patch";
}

/** The lowest version carrying `bump` over `released`. */
function needed(released: string, bump: Bump): string {
  return bump === "none" ? released : semver.inc(released, bump)!;
}

export function compareWithRelease(options: {
  against: string;
  released: unknown;
  current: unknown;
  releasedVersion: string;
  version: string;
}): AgainstResult {
  const { releasedVersion, version } = options;
  if (!semver.valid(version))
    throw new ExecutaError(`executa.json's version ${JSON.stringify(version)} is not SemVer`, {
      hint: 'use MAJOR.MINOR.PATCH, e.g. "1.2.0"',
    });
  const changes = classifyChanges(options.released, options.current).map((c) => ({
    ...c,
    needs: needed(releasedVersion, bumpFor(c.class, releasedVersion)),
  }));
  const required = changes.reduce<Bump>((max, c) => {
    const b = bumpFor(c.class, releasedVersion);
    return RANK[b] > RANK[max] ? b : max;
  }, "none");
  const bump = bumpBetween(releasedVersion, version);
  const ok = bump !== "backwards" && RANK[bump] >= RANK[required];
  return {
    against: options.against,
    released_version: releasedVersion,
    version,
    changes,
    required_bump: required,
    bump,
    ok,
    needs: needed(releasedVersion, required),
  };
}
