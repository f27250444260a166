/**
 * Finds tests that cannot fail, with the TypeScript compiler API: a `test(...)` or `it(...)` whose
 * body asserts nothing (no assert or expect call, no throw, no call to a function of the suite
 * that does either, however deep, or to a function handed in), and assertions on constants (`assert.ok(true)`,
 * `assert.equal(1, 1)`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface Finding {
  /** `path:line` of the test or the assertion. */
  where: string;
  problem: string;
}

/** Every test source: test/**\/*.ts (fixtures aside) and src/**\/*.test.ts. */
export function suiteFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, keep: (file: string) => boolean) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== "fixtures" && entry !== "node_modules") walk(path, keep);
      } else if (keep(entry)) out.push(path);
    }
  };
  walk(join(root, "test"), (f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  walk(join(root, "src"), (f) => f.endsWith(".test.ts"));
  return out.sort();
}

const ASSERTING_NAME = /^(assert|expect)/i;
const EQUALITY = new Set([
  "equal",
  "strictEqual",
  "deepEqual",
  "deepStrictEqual",
  "notEqual",
  "notStrictEqual",
  "notDeepEqual",
  "notDeepStrictEqual",
]);

/** The called name: `assert` for `assert(x)`, `equal` for `assert.equal(x)`, `deepEqual` for `t.assert.deepEqual(x)`. */
function calledName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** The leftmost identifier of a call's callee: `assert` for `assert.equal`, `t` for `t.assert.ok`. */
function calleeRoot(call: ts.CallExpression): string | undefined {
  let e: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

function isAssertCall(call: ts.CallExpression): boolean {
  const text = call.expression.getText();
  return (
    ASSERTING_NAME.test(calleeRoot(call) ?? "") ||
    /(^|\.)assert\./.test(text) ||
    ASSERTING_NAME.test(calledName(call) ?? "")
  );
}

function isConstant(node: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  return (
    ts.isLiteralExpression(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isPrefixUnaryExpression(node) && isConstant(node.operand))
  );
}

/** What is known of the functions a body may call. */
interface Known {
  /** Functions of the suite that assert, directly or through one another. */
  asserting: ReadonlySet<string>;
  /** Every function the suite declares by name, asserting or not. */
  declared: ReadonlySet<string>;
  /** The names the file imports (from our code or a package: they do not assert). */
  imported: ReadonlySet<string>;
}

/**
 * Whether `body` asserts: an assert/expect call, a throw, a call to an asserting function of the
 * suite, or a call to a function passed in (a parameter or loop variable: a table of scenarios).
 */
function asserts(body: ts.Node, known: Known): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isThrowStatement(node)) found = true;
    else if (
      ts.isCallExpression(node) &&
      (isAssertCall(node) || known.asserting.has(calledName(node) ?? "") || isPassedIn(node, known))
    )
      found = true;
    else ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

function isPassedIn(call: ts.CallExpression, known: Known): boolean {
  if (!ts.isIdentifier(call.expression)) return false;
  const name = call.expression.text;
  return !known.declared.has(name) && !known.imported.has(name) && !(name in globalThis);
}

function importedNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (!clause) continue;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
  }
  return names;
}

interface Named {
  name: string;
  body: ts.Node;
}

/** Functions declared by name (declarations, and consts bound to an arrow or function expression). */
function namedFunctions(source: ts.SourceFile): Named[] {
  const out: Named[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) out.push({ name: node.name.text, body: node.body });
    else if (ts.isMethodDeclaration(node) && node.body && ts.isIdentifier(node.name))
      out.push({ name: node.name.text, body: node.body });
    else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    ) {
      out.push({ name: node.name.text, body: node.initializer.body });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The function a test call runs: its last argument, when that is a function. */
function testBody(call: ts.CallExpression): ts.ArrowFunction | ts.FunctionExpression | undefined {
  const name = calledName(call);
  if (name !== "test" && name !== "it") return undefined;
  const last = call.arguments[call.arguments.length - 1];
  return last && (ts.isArrowFunction(last) || ts.isFunctionExpression(last)) ? last : undefined;
}

export function scan(root: string, files: readonly string[] = suiteFiles(root)): Finding[] {
  const sources = files.map((f) => ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true));
  const functions = sources.map((source) => ({
    source,
    named: namedFunctions(source),
    imported: importedNames(source),
  }));
  const declared = new Set(functions.flatMap((f) => f.named.map((n) => n.name)));
  // The functions that assert, directly or through one another: grown to a fixed point.
  const asserting = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const { named, imported } of functions) {
      for (const f of named)
        if (!asserting.has(f.name) && asserts(f.body, { asserting, declared, imported }))
          asserting.add(f.name), (grew = true);
    }
  }
  const findings: Finding[] = [];
  for (const { source, imported } of functions) {
    const known: Known = { asserting, declared, imported };
    const where = (node: ts.Node) =>
      `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const body = testBody(node);
        if (body && !asserts(body.body, known))
          findings.push({ where: where(node), problem: "the test asserts nothing: it cannot fail" });
        const name = calledName(node);
        if (isAssertCall(node) && name) {
          const checked =
            name === "ok" || name === "assert"
              ? node.arguments.slice(0, 1)
              : EQUALITY.has(name)
                ? node.arguments.slice(0, 2)
                : [];
          if (checked.length > 0 && checked.every(isConstant))
            findings.push({ where: where(node), problem: `${node.expression.getText()} on constants cannot fail` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}
