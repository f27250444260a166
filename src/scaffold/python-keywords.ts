/** Python's keywords (`keyword.kwlist`): never a module, function or parameter name. */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** Its soft keywords (`keyword.softkwlist`): legal names, but confusing as a module's. */
export const PYTHON_SOFT_KEYWORDS: ReadonlySet<string> = new Set(["case", "match", "type"]);
