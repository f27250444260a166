/** Finds the `@tool` functions of a source file and reads their parameters. */
import ts = require("typescript");
import type { Diagnostic, Json } from "../../../protocol/index.js";
import type { SourceInitializer, SourceParam, SourceTool } from "../source-model.js";
import { HostCallReader } from "./host-calls.js";
import { closestJsDoc, commentText, findTag, plainComment, tagText } from "./jsdoc.js";
import { locationOf } from "./location.js";
import { ShapeReader } from "./types.js";

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

interface Candidate {
  fn: FunctionNode;
  /** The node the JSDoc and the error location belong to. */
  anchor: ts.Node;
  localName: string;
  doc: ts.JSDoc;
}

export class ToolReader {
  private readonly shapes: ShapeReader;
  private readonly hostCalls: HostCallReader;

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly projectDir: string,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.shapes = new ShapeReader(checker);
    this.hostCalls = new HostCallReader(checker, projectDir);
  }

  private error(node: ts.Node, message: string, hint?: string, severity: "error" | "warning" = "error"): void {
    this.diagnostics.push({ severity, message, ...(hint && { hint }), ...locationOf(node, this.projectDir) });
  }

  readFile(sf: ts.SourceFile): SourceTool[] {
    const exported = this.exportNames(sf);
    const tools: SourceTool[] = [];
    for (const c of this.candidates(sf)) {
      const names = exported.get(c.localName) ?? [];
      if (names.length === 0) {
        this.error(
          c.anchor,
          `@tool on '${c.localName}', which is not exported`,
          `export it: \`export function ${c.localName}\``,
        );
        continue;
      }
      const tool = this.readTool(c, names[0]!);
      if (tool) tools.push(tool);
    }
    return tools;
  }

  /** local name -> the names the module exports it under. */
  private exportNames(sf: ts.SourceFile): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const add = (local: string, exported: string) => out.set(local, [...(out.get(local) ?? []), exported]);
    for (const st of sf.statements) {
      const mods = ts.canHaveModifiers(st) ? ts.getModifiers(st) : undefined;
      const isExport = mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const isDefault = mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (ts.isFunctionDeclaration(st) && st.name && isExport) add(st.name.text, isDefault ? "default" : st.name.text);
      if (ts.isVariableStatement(st) && isExport) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, d.name.text);
      }
      if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) add((el.propertyName ?? el.name).text, el.name.text);
      }
      if (ts.isExportAssignment(st) && !st.isExportEquals && ts.isIdentifier(st.expression))
        add(st.expression.text, "default");
    }
    return out;
  }

  private candidates(sf: ts.SourceFile): Candidate[] {
    const out: Candidate[] = [];
    for (const st of sf.statements) {
      if (ts.isFunctionDeclaration(st)) {
        const doc = closestJsDoc(st);
        if (!findTag(doc, "tool")) continue;
        if (!st.name) {
          this.error(st, "@tool on an anonymous default export", "give the function a name");
          continue;
        }
        if (st.body === undefined) continue; // an overload signature
        out.push({ fn: st, anchor: st.name, localName: st.name.text, doc: doc! });
        continue;
      }
      if (ts.isVariableStatement(st)) {
        const doc = closestJsDoc(st);
        if (!findTag(doc, "tool")) continue;
        for (const d of st.declarationList.declarations) {
          const init = d.initializer && this.shapes.unwrapExpression(d.initializer);
          if (!ts.isIdentifier(d.name) || !init || !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
            this.error(
              d.name,
              "@tool must be on a function",
              "write `export const f = (args: {...}) => ...` or `export function f(...)`",
            );
            continue;
          }
          out.push({ fn: init, anchor: d.name, localName: d.name.text, doc: doc! });
        }
        continue;
      }
      const doc = closestJsDoc(st);
      if (findTag(doc, "tool")) this.error(st, "@tool must be on a function", "tag an exported function with @tool");
    }
    return out;
  }

  private readTool(c: Candidate, exportName: string): SourceTool | undefined {
    const location = locationOf(c.anchor, this.projectDir);
    const toolTag = findTag(c.doc, "tool");
    const name = tagText(toolTag)?.split(/\s+/)[0] || c.localName;
    const params = [...c.fn.parameters];
    const last = params[params.length - 1];
    const context = last && this.isContext(last) ? params.pop() : undefined;
    for (const p of params) {
      if (this.isContext(p)) this.error(p, "the ToolContext parameter must be the last one");
    }
    const paramTags = (c.doc.tags ?? [])
      .flatMap((t) => (ts.isJSDocParameterTag(t) ? [t] : []))
      .map((t) => ({
        name: (t as ts.JSDocParameterTag).name.getText(),
        text: normaliseParamText(ts.getTextOfJSDocComment((t as ts.JSDocParameterTag).comment) ?? ""),
        location: locationOf(t, this.projectDir),
      }));
    const base = {
      name,
      exportName,
      file: location.file,
      description: commentText(c.doc.comment),
      timeoutTag: tagText(findTag(c.doc, "timeout")),
      paramTags: paramTags.map(({ name: n, location: l }) => ({ name: n, location: l })),
      location,
      hostCalls: this.hostCalls.read(c.fn, context),
    };
    const single = params.length === 1 ? params[0]! : undefined;
    if (
      single &&
      (ts.isObjectBindingPattern(single.name) || (ts.isIdentifier(single.name) && single.name.text === "args"))
    ) {
      const read = this.argsParams(single);
      return read && { ...base, style: "args", params: read };
    }
    const positional: SourceParam[] = [];
    for (const p of params) {
      if (!ts.isIdentifier(p.name)) {
        this.error(
          p,
          "a destructured parameter must be the only one (besides ctx)",
          "take one args object, or name each parameter",
        );
        return undefined;
      }
      if (p.dotDotDotToken) {
        this.error(p, "a rest parameter cannot be a tool parameter", "take an array parameter instead");
        return undefined;
      }
      const type = this.checker.getTypeAtLocation(p);
      const { shape, optional } = this.shapes.shape(type, p.type);
      const tag = paramTags.find((t) => t.name === (p.name as ts.Identifier).text);
      positional.push({
        name: p.name.text,
        shape,
        optional: optional || Boolean(p.questionToken) || Boolean(p.initializer),
        ...(tag?.text && { description: tag.text }),
        integerTag: false,
        ...(p.initializer && { initializer: this.initializer(p.initializer) }),
        location: locationOf(p.name, this.projectDir),
      });
    }
    return { ...base, style: "positional", params: positional };
  }

  private isContext(p: ts.ParameterDeclaration): boolean {
    const type = this.checker.getTypeAtLocation(p);
    const symbolName = (type.aliasSymbol ?? type.getSymbol())?.name;
    if (symbolName === "ToolContext") return true;
    return Boolean(
      p.type && ts.isTypeReferenceNode(p.type) && p.type.typeName.getText().split(".").pop() === "ToolContext",
    );
  }

  private argsParams(param: ts.ParameterDeclaration): SourceParam[] | undefined {
    if (!param.type) {
      this.error(
        param,
        "the args object has no type annotation",
        "annotate it: `{ text }: { text: string }` or `args: Args`",
      );
      return undefined;
    }
    const { type: members } = this.shapes.splitOptional(this.checker.getTypeFromTypeNode(param.type));
    const type = members[0];
    if (members.length !== 1 || !type || !(type.flags & ts.TypeFlags.Object || type.isIntersection())) {
      this.error(
        param.type,
        `the args object must have one object type, not ${this.checker.typeToString(this.checker.getTypeFromTypeNode(param.type))}`,
        "use an object type literal, an interface or a type alias of one",
      );
      return undefined;
    }
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      this.error(param.type, "the args object cannot be an array", "use an object type with named properties");
      return undefined;
    }
    const defaults = new Map<string, ts.Expression>();
    if (ts.isObjectBindingPattern(param.name)) {
      for (const el of param.name.elements) {
        const key = el.propertyName ?? el.name;
        if (el.initializer && (ts.isIdentifier(key) || ts.isStringLiteral(key))) defaults.set(key.text, el.initializer);
      }
    }
    const out: SourceParam[] = [];
    for (const prop of this.shapes.orderedProperties(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = this.checker.getTypeOfSymbolAtLocation(prop, param);
      const typeNode = decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) ? decl.type : undefined;
      const { shape, optional } = this.shapes.shape(propType, typeNode);
      const doc = decl && closestJsDoc(decl);
      let description = doc ? commentText(doc.comment) : "";
      let describedByPlainComment = false;
      if (!description && decl) {
        const plain = plainComment(decl);
        if (plain) {
          description = plain;
          describedByPlainComment = true;
        }
      }
      const init = defaults.get(prop.name);
      out.push({
        name: prop.name,
        shape,
        optional: optional || Boolean(prop.flags & ts.SymbolFlags.Optional) || Boolean(init),
        ...(description && { description }),
        ...(describedByPlainComment && { describedByPlainComment }),
        integerTag: Boolean(findTag(doc, "integer")),
        ...(init && { initializer: this.initializer(init) }),
        ...(findTag(doc, "default") && { defaultTag: tagText(findTag(doc, "default")) ?? "" }),
        location: locationOf(decl && ts.isPropertySignature(decl) ? decl.name : (decl ?? param), this.projectDir),
      });
    }
    return out;
  }

  private initializer(expression: ts.Expression): SourceInitializer {
    return { text: expression.getText(), ...jsonOf(this.shapes, expression) };
  }
}

function normaliseParamText(text: string): string {
  return commentText(text.replace(/^\s*-\s*/, ""));
}

/** The JSON value of a literal initializer (strings, numbers, booleans, null, arrays and objects of those). */
function jsonOf(shapes: ShapeReader, expression: ts.Expression): { value?: Json } {
  const e = shapes.unwrapExpression(expression);
  const scalar = shapes.expressionLiteral(e);
  if (scalar !== undefined) return { value: scalar };
  if (e.kind === ts.SyntaxKind.NullKeyword) return { value: null };
  if (ts.isArrayLiteralExpression(e)) {
    const items: Json[] = [];
    for (const el of e.elements) {
      const v = jsonOf(shapes, el);
      if (!("value" in v)) return {};
      items.push(v.value!);
    }
    return { value: items };
  }
  if (ts.isObjectLiteralExpression(e)) {
    const obj: Record<string, Json> = {};
    for (const p of e.properties) {
      if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return {};
      const v = jsonOf(shapes, p.initializer);
      if (!("value" in v)) return {};
      obj[p.name.text] = v.value!;
    }
    return { value: obj };
  }
  return {};
}
