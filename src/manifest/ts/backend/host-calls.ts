/**
 * The calls a tool function makes on values reached from its context (`ctx.host.X(...)`,
 * `const { host } = ctx; host.X(...)`, `const s = await ctx.host.agent.create(); s.run(...)`),
 * followed into the project's own functions it calls. The runtime's types name the roots
 * (ToolContext, HostClient, AgentSession), so a parameter or variable of one of those types is
 * found wherever it came from; where a type does not resolve, the value is traced by its source.
 * Which calls are helpers, and the method each sends, is ../../host-helpers.ts's to say.
 */
import { relative, sep } from "node:path";
import ts = require("typescript");
import type { RawHostCall } from "../../host-helpers.js";
import { locationOf } from "./location.js";

type FunctionLike = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

/** What an expression is, as far as the host goes: the tool's context, or something off the host client or a session. */
type Value = { kind: "context" } | { kind: "host"; root: "host" | "session"; path: string[] };

const CONTEXT: Value = { kind: "context" };
const TYPE_ROOTS = new Map<string, Value>([
  ["ToolContext", CONTEXT],
  ["HostClient", { kind: "host", root: "host", path: [] }],
  ["AgentSession", { kind: "host", root: "session", path: [] }],
]);
/** How deep the reader follows calls into the project's functions, and how many it reads per tool. */
const MAX_DEPTH = 6;
const MAX_FUNCTIONS = 200;
/** How many steps (aliases, property reads) one value may take. */
const MAX_STEPS = 24;

function skipOuter(node: ts.Expression): ts.Expression {
  let e = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(e) ||
      ts.isAwaitExpression(e) ||
      ts.isNonNullExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isTypeAssertionExpression(e)
    )
      e = e.expression;
    else return e;
  }
}

function member(base: Value | undefined, name: string): Value | undefined {
  if (!base) return undefined;
  if (base.kind === "context") return name === "host" ? { kind: "host", root: "host", path: [] } : undefined;
  return { ...base, path: [...base.path, name] };
}

export class HostCallReader {
  /** Parameters of followed functions, bound to what the call passed them. */
  private readonly bound = new Map<ts.ParameterDeclaration, Value>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly projectDir: string,
  ) {}

  /** The calls of `tool`; `context` is its ToolContext parameter, when it has one. */
  read(tool: FunctionLike, context?: ts.ParameterDeclaration): RawHostCall[] {
    this.bound.clear();
    if (context) this.bound.set(context, CONTEXT);
    const calls: RawHostCall[] = [];
    const seen = new Set<ts.Node>([tool]);
    const queue: { fn: FunctionLike; depth: number }[] = [{ fn: tool, depth: 0 }];
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { fn, depth } = next;
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node)) {
          const callee = this.value(node.expression, 0);
          if (callee?.kind === "host") calls.push(this.record(node, callee));
          else if (depth < MAX_DEPTH && seen.size < MAX_FUNCTIONS) {
            const target = this.projectFunction(node.expression);
            if (target && !seen.has(target)) {
              seen.add(target);
              this.bindArguments(target, node);
              queue.push({ fn: target, depth: depth + 1 });
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      if (fn.body) visit(fn.body);
    }
    return calls;
  }

  private record(call: ts.CallExpression, callee: Extract<Value, { kind: "host" }>): RawHostCall {
    return {
      ...locationOf(call, this.projectDir),
      root: callee.root,
      path: callee.path,
      args: call.arguments.map((a) => this.constantString(a)),
      callee: call.expression.getText(),
    };
  }

  private constantString(arg: ts.Expression): string | null {
    if (ts.isStringLiteralLike(arg)) return arg.text;
    const type = this.checker.getTypeAtLocation(arg);
    return type.isStringLiteral() ? type.value : null;
  }

  /** The root a node's type names (the runtime's ToolContext, HostClient, AgentSession). */
  private typeRoot(node: ts.Node): Value | undefined {
    const type = this.checker.getTypeAtLocation(node);
    const name = (type.aliasSymbol ?? type.getSymbol())?.name;
    return name === undefined ? undefined : TYPE_ROOTS.get(name);
  }

  private value(node: ts.Expression, steps: number): Value | undefined {
    if (steps > MAX_STEPS) return undefined;
    const e = skipOuter(node);
    const typed = this.typeRoot(e);
    if (typed) return typed;
    if (ts.isPropertyAccessExpression(e)) return member(this.value(e.expression, steps + 1), e.name.text);
    if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression))
      return member(this.value(e.expression, steps + 1), e.argumentExpression.text);
    if (ts.isCallExpression(e)) {
      const base = this.value(e.expression, steps + 1);
      return base?.kind === "host" ? { ...base, path: [...base.path, "()"] } : undefined;
    }
    if (ts.isIdentifier(e)) return this.identifierValue(e, steps + 1);
    return undefined;
  }

  private identifierValue(id: ts.Identifier, steps: number): Value | undefined {
    const symbol = this.checker.getSymbolAtLocation(id);
    const decl = symbol?.valueDeclaration;
    if (!decl) return undefined;
    if (ts.isParameter(decl)) return this.bound.get(decl);
    if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) && decl.initializer)
      return this.value(decl.initializer, steps);
    if (ts.isBindingElement(decl)) return this.bindingValue(decl, steps);
    return undefined;
  }

  /** `const { host } = ctx`, `{ host: { storage } }: ToolContext`: the destructured member. */
  private bindingValue(el: ts.BindingElement, steps: number): Value | undefined {
    if (steps > MAX_STEPS || el.dotDotDotToken || !ts.isObjectBindingPattern(el.parent)) return undefined;
    const key = el.propertyName ?? el.name;
    if (!(ts.isIdentifier(key) || ts.isStringLiteral(key))) return undefined;
    const owner = el.parent.parent;
    let base: Value | undefined;
    if (ts.isVariableDeclaration(owner)) base = owner.initializer && this.value(owner.initializer, steps + 1);
    else if (ts.isBindingElement(owner)) base = this.bindingValue(owner, steps + 1);
    else if (ts.isParameter(owner)) base = this.typeRoot(owner) ?? this.bound.get(owner);
    return member(base, key.text);
  }

  private bindArguments(target: FunctionLike, call: ts.CallExpression): void {
    target.parameters.forEach((param, i) => {
      const arg = call.arguments[i];
      if (!arg || param.dotDotDotToken || this.bound.has(param)) return;
      const value = this.value(arg, 0);
      if (value) this.bound.set(param, value);
    });
  }

  /** The function of this project (not the runtime, not node_modules) a call's callee names. */
  private projectFunction(callee: ts.Expression): FunctionLike | undefined {
    const e = skipOuter(callee);
    const name = ts.isPropertyAccessExpression(e) ? e.name : ts.isIdentifier(e) ? e : undefined;
    let symbol = name && this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    for (const decl of symbol?.declarations ?? []) {
      if (!this.isProjectSource(decl.getSourceFile())) continue;
      if ((ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) && decl.body) return decl;
      const init =
        (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) &&
        decl.initializer
          ? skipOuter(decl.initializer)
          : undefined;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return init;
    }
    return undefined;
  }

  private isProjectSource(sf: ts.SourceFile): boolean {
    if (sf.isDeclarationFile) return false;
    const rel = relative(this.projectDir, sf.fileName).split(sep).join("/");
    return !rel.startsWith("../") && !rel.split("/").includes("node_modules") && !rel.startsWith("src/executa/");
  }
}
