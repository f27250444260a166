/** TypeScript types -> the extractor's shapes. Enum values keep their SOURCE order (read from the syntax). */
import ts = require("typescript");
import type { Literal, Shape } from "../source-model.js";

const NOT_JSON_HINTS: Record<string, string> = {
  Date: "use string (ISO-8601) instead of Date",
  Map: "use an object (Record<string, T>) instead of Map",
  Set: "use an array (T[]) instead of Set",
  WeakMap: "use an object (Record<string, T>) instead of WeakMap",
  WeakSet: "use an array (T[]) instead of WeakSet",
  Promise: "parameters arrive as plain JSON; use the value's type, not a Promise",
  RegExp: "use string (the pattern) instead of RegExp",
  Uint8Array: "use string (base64) instead of binary data",
  Buffer: "use string (base64) instead of Buffer",
  ArrayBuffer: "use string (base64) instead of binary data",
  URL: "use string instead of URL",
};

function unsupported(what: string, hint: string): Shape {
  return { kind: "unsupported", what, hint };
}

export class ShapeReader {
  constructor(private readonly checker: ts.TypeChecker) {}

  /** Properties in declaration order: grouped by file (in the checker's order of files), then by position. */
  orderedProperties(type: ts.Type): ts.Symbol[] {
    const props = this.checker.getPropertiesOfType(type);
    const files: string[] = [];
    const keyed = props.map((symbol, index) => {
      const decl = symbol.declarations?.[0];
      const file = decl?.getSourceFile().fileName;
      if (file !== undefined && !files.includes(file)) files.push(file);
      return { symbol, index, file, pos: decl?.pos ?? 0 };
    });
    const fileRank = (f: string | undefined) => (f === undefined ? files.length : files.indexOf(f));
    return keyed
      .sort((a, b) => fileRank(a.file) - fileRank(b.file) || (a.file === undefined ? a.index - b.index : a.pos - b.pos))
      .map((k) => k.symbol);
  }

  /** Strips null / undefined / void from a union; `optional` when undefined or void was there (null alone keeps it required). */
  splitOptional(type: ts.Type): { type: ts.Type[]; optional: boolean } {
    const members = type.isUnion() ? type.types : [type];
    const kept = members.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)));
    return { type: kept, optional: members.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) };
  }

  shape(type: ts.Type, node: ts.TypeNode | undefined): { shape: Shape; optional: boolean } {
    const { type: members, optional } = this.splitOptional(type);
    const missing = node && this.unresolvedName(node);
    // Buffer and the like stay unresolved here (this program loads no @types), and have their own hint.
    if (missing && Object.hasOwn(NOT_JSON_HINTS, missing))
      return { shape: unsupported(missing, NOT_JSON_HINTS[missing]!), optional };
    if (missing)
      return {
        shape: {
          kind: "unsupported",
          what: missing,
          problem: `cannot find name '${missing}'`,
          hint: "fix the spelling, or import or declare the type",
        },
        optional,
      };
    return { shape: this.shapeOfMembers(members, node), optional };
  }

  /** The first type name in `node` that names nothing (a misspelling the compiler reads as any). */
  private unresolvedName(node: ts.Node): string | undefined {
    // The compiler gives a name it cannot resolve its "error" type, an any that is not the keyword.
    if (
      ts.isTypeReferenceNode(node) &&
      (this.checker.getTypeFromTypeNode(node) as { intrinsicName?: string }).intrinsicName === "error"
    )
      return node.typeName.getText();
    return ts.forEachChild(node, (child) => this.unresolvedName(child));
  }

  private shapeOfMembers(members: ts.Type[], node: ts.TypeNode | undefined): Shape {
    if (members.length === 0) return unsupported("null or undefined alone", "give the parameter a value type");
    if (members.length === 1) return this.shapeOfOne(members[0]!, node);
    const literals = members.map((t) => this.literalValue(t));
    if (literals.every((v) => v !== undefined)) {
      const kinds = new Set(literals.map((v) => typeof v));
      if (kinds.size === 1) {
        const base = [...kinds][0] as "string" | "number" | "boolean";
        if (base === "boolean" && literals.length === 2) return { kind: "boolean" };
        return { kind: "enum", base, values: this.sourceOrder(literals as Literal[], node) };
      }
    }
    const shapes = members.map((t) => this.shapeOfOne(t, undefined));
    const bad = shapes.find((s) => s.kind === "unsupported");
    if (bad) return bad;
    const base = (s: Shape) =>
      s.kind === "enum" ? s.base : s.kind === "number" ? (s.integer ? "integer" : "number") : s.kind;
    const kinds = new Set(shapes.map(base));
    if (kinds.size === 1 && shapes.every((s) => s.kind !== "enum" && s.kind !== "array")) return shapes[0]!;
    return unsupported(
      `a union of ${[...new Set(members.map((t) => this.checker.typeToString(t)))].join(" | ")}`,
      "a parameter has one JSON type; split it into separate parameters or use one type",
    );
  }

  private literalValue(type: ts.Type): Literal | undefined {
    if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
    if (type.flags & ts.TypeFlags.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName === "true";
    return undefined;
  }

  private shapeOfOne(type: ts.Type, node: ts.TypeNode | undefined): Shape {
    const f = type.flags;
    const name = this.checker.typeToString(type);
    if (f & ts.TypeFlags.Any)
      return unsupported(
        name === "any" ? "any" : `an unresolved type (${name})`,
        "give the parameter a concrete type (string, number, an object type ...)",
      );
    if (f & ts.TypeFlags.Unknown)
      return unsupported("unknown", "give the parameter a concrete type (string, number, an object type ...)");
    if (f & ts.TypeFlags.Never) return unsupported("never", "give the parameter a concrete type");
    if (f & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral))
      return unsupported("bigint", "use number, or Integer, or string for values beyond 2^53");
    if (f & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol))
      return unsupported("symbol", "symbols cannot be sent as JSON; use string");
    if (f & ts.TypeFlags.TypeParameter) return unsupported(`the type parameter ${name}`, "use a concrete type");
    const literal = this.literalValue(type);
    if (literal !== undefined) {
      const base = typeof literal as "string" | "number" | "boolean";
      return { kind: "enum", base, values: [literal] };
    }
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping))
      return { kind: "string" };
    if (f & ts.TypeFlags.Number) return { kind: "number", integer: false };
    if (f & ts.TypeFlags.Boolean) return { kind: "boolean" };
    if (type.isIntersection()) return this.shapeOfIntersection(type);
    if (f & ts.TypeFlags.Object) return this.shapeOfObject(type as ts.ObjectType, node);
    if (f & ts.TypeFlags.NonPrimitive) return { kind: "object" };
    return unsupported(name, "use string, number, Integer, boolean, an array or an object type");
  }

  /** `number & { __integer?: never }` (the runtime's Integer) is an integer; other brands keep their primitive. */
  private shapeOfIntersection(type: ts.IntersectionType): Shape {
    if (type.aliasSymbol?.name === "Integer") return { kind: "number", integer: true };
    const primitive = type.types.find(
      (t) => t.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.StringLike | ts.TypeFlags.BooleanLike),
    );
    if (primitive) {
      const isNumber = Boolean(primitive.flags & ts.TypeFlags.Number);
      const branded = type.types.some((t) => t !== primitive && this.checker.getPropertyOfType(t, "__integer"));
      if (isNumber && branded) return { kind: "number", integer: true };
      return this.shapeOfOne(primitive, undefined);
    }
    const shapes = type.types.map((t) => this.shapeOfOne(t, undefined));
    return shapes.find((s) => s.kind !== "object") ?? { kind: "object" };
  }

  private shapeOfObject(type: ts.ObjectType, node: ts.TypeNode | undefined): Shape {
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const args = this.checker.getTypeArguments(type as ts.TypeReference);
      const elementNodes = this.elementNodes(node);
      if (this.checker.isTupleType(type)) {
        const shapes = args.map((t, i) => this.shape(t, elementNodes?.[i]).shape);
        if (shapes.length === 0) return unsupported("an empty tuple", "use an array type");
        const first = JSON.stringify(shapes[0]);
        if (shapes.some((s) => JSON.stringify(s) !== first)) {
          return unsupported(
            `the mixed tuple ${this.checker.typeToString(type)}`,
            "manifest arrays have one item type; use an object with named fields",
          );
        }
        return { kind: "array", element: shapes[0]! };
      }
      const element = this.shape(args[0]!, elementNodes?.[0]);
      if (element.optional && element.shape.kind !== "unsupported") return { kind: "array", element: element.shape };
      return { kind: "array", element: element.shape };
    }
    const symbolName = (type.aliasSymbol ?? type.getSymbol())?.name ?? "";
    if (Object.hasOwn(NOT_JSON_HINTS, symbolName)) return unsupported(symbolName, NOT_JSON_HINTS[symbolName]!);
    if (this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) {
      return unsupported("a function", "functions cannot be sent as JSON; take the data the function would work on");
    }
    if (this.checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0) {
      return unsupported("a class", "take a plain object type instead");
    }
    return { kind: "object" };
  }

  /** The element type nodes of an array or tuple type node, for the enum order of their items. */
  private elementNodes(node: ts.TypeNode | undefined): (ts.TypeNode | undefined)[] | undefined {
    const n = this.unwrapNode(node);
    if (!n) return undefined;
    if (ts.isArrayTypeNode(n)) return [n.elementType];
    if (ts.isTupleTypeNode(n))
      return n.elements.map((e) => (ts.isNamedTupleMember(e) ? e.type : ts.isOptionalTypeNode(e) ? e.type : e));
    if (ts.isTypeReferenceNode(n) && n.typeArguments?.length === 1) return [n.typeArguments[0]];
    if (ts.isTypeReferenceNode(n)) {
      const decl = this.aliasDeclaration(n);
      return decl ? this.elementNodes(decl.type) : undefined;
    }
    return undefined;
  }

  private unwrapNode(node: ts.TypeNode | undefined): ts.TypeNode | undefined {
    let n = node;
    while (
      n &&
      (ts.isParenthesizedTypeNode(n) || (ts.isTypeOperatorNode(n) && n.operator === ts.SyntaxKind.ReadonlyKeyword))
    )
      n = n.type;
    if (n && ts.isUnionTypeNode(n)) {
      const rest = n.types.filter((t) => !this.isNullish(t));
      if (rest.length === 1) return this.unwrapNode(rest[0]);
    }
    return n;
  }

  private isNullish(node: ts.TypeNode): boolean {
    return (
      node.kind === ts.SyntaxKind.UndefinedKeyword ||
      node.kind === ts.SyntaxKind.VoidKeyword ||
      (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword)
    );
  }

  private aliasDeclaration(node: ts.TypeReferenceNode): ts.TypeAliasDeclaration | undefined {
    let symbol = this.checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const decl = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
    return decl && !decl.typeParameters ? decl : undefined;
  }

  /** The checker's values, sorted into the order the source writes them. */
  private sourceOrder(values: Literal[], node: ts.TypeNode | undefined): Literal[] {
    const order = this.literalOrder(node, 0) ?? [];
    const rank = (v: Literal) => {
      const i = order.indexOf(v);
      return i === -1 ? order.length : i;
    };
    return values
      .map((v, i) => ({ v, i }))
      .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
      .map((x) => x.v);
  }

  private literalOrder(node: ts.Node | undefined, depth: number): Literal[] | undefined {
    if (!node || depth > 20) return undefined;
    if (ts.isParenthesizedTypeNode(node)) return this.literalOrder(node.type, depth + 1);
    if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => this.literalOrder(t, depth + 1) ?? []);
    if (ts.isLiteralTypeNode(node)) {
      const v = this.expressionLiteral(node.literal);
      return v === undefined ? [] : [v];
    }
    if (ts.isTypeReferenceNode(node)) return this.referenceOrder(node, depth);
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.KeyOfKeyword) {
      const operand = this.checker.getTypeFromTypeNode(node.type);
      return this.orderedProperties(operand).map((p) => p.name);
    }
    if (ts.isIndexedAccessTypeNode(node)) return this.indexedOrder(node, depth);
    return undefined;
  }

  private referenceOrder(node: ts.TypeReferenceNode, depth: number): Literal[] | undefined {
    let symbol = this.checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    if (!symbol) return undefined;
    if (symbol.flags & ts.SymbolFlags.Enum) {
      const decl = symbol.declarations?.find(ts.isEnumDeclaration);
      return decl?.members.flatMap((m) => {
        const v = this.checker.getConstantValue(m);
        return v === undefined ? [] : [v];
      });
    }
    if (symbol.flags & ts.SymbolFlags.EnumMember) {
      const decl = symbol.declarations?.find(ts.isEnumMember);
      const v = decl && this.checker.getConstantValue(decl);
      return v === undefined ? undefined : [v];
    }
    const alias = symbol.declarations?.find(ts.isTypeAliasDeclaration);
    if (alias) return this.literalOrder(alias.type, depth + 1);
    return undefined;
  }

  /** `(typeof X)[number]` over an `as const` array, `(typeof X)[keyof typeof X]` over an `as const` object. */
  private indexedOrder(node: ts.IndexedAccessTypeNode, depth: number): Literal[] | undefined {
    let object = node.objectType;
    while (ts.isParenthesizedTypeNode(object)) object = object.type;
    if (ts.isTypeQueryNode(object)) {
      const symbol = this.checker.getSymbolAtLocation(object.exprName);
      const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
      const decl = target?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer) {
        const init = this.unwrapExpression(decl.initializer);
        if (ts.isArrayLiteralExpression(init)) return init.elements.flatMap((e) => this.literalOf(e));
        if (ts.isObjectLiteralExpression(init)) {
          return init.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? this.literalOf(p.initializer) : []));
        }
      }
    }
    const objectType = this.checker.getTypeFromTypeNode(node.objectType);
    const index = this.checker.getTypeFromTypeNode(node.indexType);
    if (index.isStringLiteral()) {
      const prop = this.checker.getPropertyOfType(objectType, index.value);
      const decl = prop?.valueDeclaration;
      if (decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)))
        return this.literalOrder(decl.type, depth + 1);
    }
    return undefined;
  }

  private literalOf(expression: ts.Expression): Literal[] {
    const v = this.expressionLiteral(this.unwrapExpression(expression));
    return v === undefined ? [] : [v];
  }

  unwrapExpression(expression: ts.Expression): ts.Expression {
    let e = expression;
    while (
      ts.isAsExpression(e) ||
      ts.isSatisfiesExpression(e) ||
      ts.isParenthesizedExpression(e) ||
      ts.isTypeAssertionExpression(e)
    )
      e = e.expression;
    return e;
  }

  expressionLiteral(e: ts.Node): Literal | undefined {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
    if (ts.isNumericLiteral(e)) return Number(e.text);
    if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand))
      return -Number(e.operand.text);
    return undefined;
  }
}
