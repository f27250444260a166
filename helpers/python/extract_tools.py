"""Reads the @tool functions of a Python plugin project with `ast` and prints them as JSON.

Part of create-executa (`executa manifest`). Standard library only; the project's code is parsed,
never imported. Usage: python3 extract_tools.py <project-dir>
"""

import ast
import json
import os
import re
import sys

# The helper's own folder first, also when the interpreter leaves the script's folder off sys.path (PYTHONSAFEPATH).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_calls import HostCalls  # noqa: E402

SKIP_DIRS = {
    ".git", ".venv", "venv", "env", ".env", "node_modules", "__pycache__", "build", "dist",
    "tests", "test", ".tox", ".mypy_cache", ".pytest_cache", "site-packages", ".eggs",
}
BINDINGS_FILE = "executa_bindings.py"

PRIMITIVES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "dict": "object"}
ARRAYS = {"list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "tuple", "Tuple", "set", "Set", "frozenset", "FrozenSet"}
MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping"}
HINTS = {
    "Any": "give the parameter a concrete type (str, int, float, bool, list[str], a TypedDict ...)",
    "object": "give the parameter a concrete type",
    "bytes": "use str (base64) instead of bytes",
    "bytearray": "use str (base64) instead of bytes",
    "datetime": "use str (ISO-8601) instead of datetime",
    "date": "use str (ISO-8601) instead of date",
    "time": "use str (ISO-8601) instead of time",
    "Decimal": "use float or str instead of Decimal",
    "complex": "use two float parameters instead of complex",
    "Callable": "functions cannot be sent as JSON",
    "Path": "use str instead of Path",
    "UUID": "use str instead of UUID",
}
# Docstring section headings. Every line test below is a plain string operation or a regex without
# nested or adjacent unbounded repetition, so a pathological line costs time linear in its length.
SECTIONS = {
    "Args", "Arguments", "Parameters", "Params", "Keyword Args", "Keyword Arguments", "Returns", "Return", "Yields", "Raises",
    "Example", "Examples", "Note", "Notes", "See Also", "Attributes", "Warns", "Warnings", "References",
}
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PARAM_SECTIONS = {"Args", "Arguments", "Parameters", "Params", "Keyword Args", "Keyword Arguments"}


class Unsupported(Exception):
    def __init__(self, what, hint):
        super().__init__(what)
        self.what = what
        self.hint = hint


def normalise(text):
    paragraphs, current = [], []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return "\n\n".join(paragraphs)


def section_of(line):
    """(name, ends with a colon) when the line is a section heading such as `Args:`, else None."""
    text = line.strip()
    colon = text.endswith(":")
    name = text[:-1].rstrip() if colon else text
    return (name, colon) if name in SECTIONS else None


def is_underline(line):
    """A NumPy-style heading underline: three or more dashes."""
    text = line.strip()
    return len(text) >= 3 and text == "-" * len(text)


def parse_docstring(doc):
    """(description, {param: description}) from a Google- or NumPy-style docstring."""
    if not doc:
        return "", {}
    lines = doc.expandtabs().split("\n")
    summary, params = [], {}
    i, n = 0, len(lines)

    def heading(at):
        found = section_of(lines[at])
        numpy = bool(found) and at + 1 < n and is_underline(lines[at + 1])
        return found[0] if found and (found[1] or numpy) else None, numpy

    while i < n:
        name, numpy = heading(i)
        if name:
            i += 2 if numpy else 1
            body = []
            while i < n and not heading(i)[0]:
                body.append(lines[i])
                i += 1
            if name in PARAM_SECTIONS:
                params.update(parse_numpy_params(body) if numpy else parse_google_params(body))
            continue
        summary.append(lines[i])
        i += 1
    return normalise("\n".join(summary)), params


def _indent(line):
    return len(line) - len(line.lstrip())


def google_param(line):
    """`name (type): text` or `*args: text` -> (name, text), else None."""
    text = line.lstrip()
    stars = len(text) - len(text.lstrip("*"))
    if stars > 2:
        return None
    m = IDENTIFIER.match(text, stars)
    if not m:
        return None
    rest = text[m.end():].lstrip()
    if rest.startswith("("):
        close = rest.find(")")
        if close < 0:
            return None
        rest = rest[close + 1:].lstrip()
    if not rest.startswith(":"):
        return None
    return m.group(0), rest[1:].strip()


def numpy_param(line):
    """`name : type` or `name` -> name, else None."""
    text = line.strip()
    m = IDENTIFIER.match(text)
    if not m:
        return None
    rest = text[m.end():].lstrip()
    return m.group(0) if rest == "" or rest.startswith(":") else None


def parse_google_params(body):
    out, current, base = {}, None, None
    for line in body:
        if not line.strip():
            continue
        indent = _indent(line)
        found = google_param(line)
        if found and (base is None or indent <= base):
            base = indent
            current = found[0]
            out[current] = found[1]
        elif current is not None:
            out[current] = (out[current] + " " + line.strip()).strip()
    return {k: normalise(v) for k, v in out.items()}


def parse_numpy_params(body):
    out, current, base = {}, None, None
    for line in body:
        if not line.strip():
            continue
        indent = _indent(line)
        name = numpy_param(line)
        if name and (base is None or indent <= base):
            base = indent
            current = name
            out[current] = ""
        elif current is not None:
            out[current] = (out[current] + " " + line.strip()).strip()
    return {k: normalise(v) for k, v in out.items()}


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return base + "." + node.attr if base else node.attr
    return None


def last_name(node):
    d = dotted(node)
    return d.rsplit(".", 1)[-1] if d else None


class Module:
    def __init__(self, name, path, rel, tree, is_package):
        self.name, self.path, self.rel, self.tree, self.is_package = name, path, rel, tree, is_package
        self.classes, self.aliases, self.imports = {}, {}, {}
        for st in tree.body:
            if isinstance(st, ast.ClassDef):
                self.classes[st.name] = st
            elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                self.aliases[st.targets[0].id] = st.value
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None and last_name(st.annotation) == "TypeAlias":
                self.aliases[st.target.id] = st.value
            elif type(st).__name__ == "TypeAlias":  # `type X = ...` (3.12)
                self.aliases[st.name.id] = st.value
            elif isinstance(st, ast.ImportFrom):
                base = self.resolve_from(st)
                for a in st.names:
                    self.imports[a.asname or a.name] = (base, a.name)

    def resolve_from(self, st):
        if not st.level:
            return st.module or ""
        parts = self.name.split(".")
        if not self.is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - (st.level - 1)] if st.level > 1 else parts
        return ".".join(parts + ([st.module] if st.module else []))


class Project:
    def __init__(self, root):
        self.root = root
        self.modules = {}
        self.errors = []
        for path in self.python_files():
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            parts = rel[:-3].split("/")
            if parts[0] == "src" and len(parts) > 1:
                parts = parts[1:]
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            try:
                with open(path, "rb") as f:
                    data = f.read()
                source = data.decode("utf-8")
                tree = ast.parse(source, filename=rel)
            except UnicodeDecodeError as e:
                line = data.count(b"\n", 0, e.start) + 1
                column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
                self.errors.append({"severity": "error", "message": "the file is not UTF-8: byte 0x%02x cannot be decoded" % data[e.start], "file": rel, "line": line, "column": column, "hint": "save the file as UTF-8"})
                continue
            except SyntaxError as e:
                self.errors.append({"severity": "error", "message": "syntax error: %s" % e.msg, "file": rel, "line": e.lineno or 1, "column": e.offset or 1})
                continue
            except (ValueError, RecursionError, MemoryError) as e:
                why = str(e) or ("it nests deeper than Python's parser can go" if isinstance(e, (RecursionError, MemoryError)) else type(e).__name__)
                self.errors.append({"severity": "error", "message": "cannot parse the file: %s" % why, "file": rel, "line": 1, "column": 1, "hint": "split the deeply nested expression into named parts"})
                continue
            except OSError as e:
                self.errors.append({"severity": "error", "message": "cannot read the file: %s" % (e.strerror or e), "file": rel, "line": 1, "column": 1})
                continue
            self.modules[name] = Module(name, path, rel, tree, is_package)

    def python_files(self):
        out = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".") and not d.endswith(".egg-info"))
            for f in sorted(filenames):
                if f.endswith(".py") and f != BINDINGS_FILE and not f.startswith("test_") and not f.endswith("_test.py") and f != "conftest.py":
                    out.append(os.path.join(dirpath, f))
        return out

    def lookup(self, module, name, depth=0):
        """The (module, kind, node) a name refers to, following imports inside the project."""
        if depth > 10:
            return None
        if name in module.classes:
            return module, "class", module.classes[name]
        if name in module.aliases:
            return module, "alias", module.aliases[name]
        if name in module.imports:
            base, orig = module.imports[name]
            target = self.modules.get(base)
            if target is not None:
                return self.lookup(target, orig, depth + 1)
            sub = self.modules.get(base + "." + orig if base else orig)
            if sub is not None:
                return sub, "module", None
        return None


class Extractor:
    def __init__(self, project):
        self.project = project
        self.diagnostics = list(project.errors)
        self.host_calls = HostCalls(project)

    def diag(self, severity, module, node, message, hint=None):
        d = {"severity": severity, "message": message, "file": module.rel, "line": node.lineno, "column": node.col_offset + 1}
        if hint:
            d["hint"] = hint
        self.diagnostics.append(d)

    # ---- types -------------------------------------------------------------------------------

    def schema(self, module, node, depth=0):
        """(schema dict, optional) for an annotation; raises Unsupported."""
        if depth > 20:
            raise Unsupported("a recursive type alias", "use a plain type")
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.schema(module, ast.parse(node.value, mode="eval").body, depth + 1)
        if isinstance(node, ast.Constant) and node.value is None:
            raise Unsupported("None alone", "give the parameter a value type")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.union(module, self.flatten_or(node), depth)
        if isinstance(node, ast.Subscript):
            return self.subscript(module, node, depth)
        name = dotted(node)
        if name is None:
            raise Unsupported(ast.unparse(node), "use str, int, float, bool, list[T], Literal[...], an Enum or a TypedDict")
        short = name.rsplit(".", 1)[-1]
        if "." not in name:
            found = self.project.lookup(module, name)
            if found is not None and found[1] != "module":
                return self.named(found, depth)
        if short in PRIMITIVES and (name == short or name.startswith("builtins.")):
            return {"type": PRIMITIVES[short]}, False
        if short in MAPPINGS:
            return {"type": "object"}, False
        if short in ARRAYS:
            raise Unsupported("%s without an item type" % short, "give the item type, e.g. list[str]")
        if short in HINTS:
            raise Unsupported(short, HINTS[short])
        if "." in name:
            head = name.split(".", 1)[0]
            found = self.project.lookup(module, head)
            if found is not None and found[1] == "module":
                inner = self.project.lookup(found[0], name.split(".", 1)[1])
                if inner is not None:
                    return self.named(inner, depth)
        raise Unsupported("the type %s, which the extractor cannot see" % name, "define it in the project (TypedDict, dataclass, Enum or alias), or use a built-in type")

    def flatten_or(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.flatten_or(node.left) + self.flatten_or(node.right)
        return [node]

    def union(self, module, members, depth):
        optional = False
        kept = []
        for m in members:
            if (isinstance(m, ast.Constant) and m.value is None) or dotted(m) == "None":
                optional = True
            else:
                kept.append(m)
        if not kept:
            raise Unsupported("None alone", "give the parameter a value type")
        schemas = []
        for m in kept:
            s, opt = self.schema(module, m, depth + 1)
            optional = optional or opt
            schemas.append(s)
        if len(schemas) == 1:
            return schemas[0], optional
        if all("enum" in s for s in schemas) and len({s["type"] for s in schemas}) == 1:
            values = []
            for s in schemas:
                values += [v for v in s["enum"] if v not in values]
            return {"type": schemas[0]["type"], "enum": values}, optional
        if len({json.dumps(s, sort_keys=True) for s in schemas}) == 1:
            return schemas[0], optional
        raise Unsupported("the union %s" % " | ".join(ast.unparse(m) for m in kept), "a parameter has one JSON type; use one type or split the parameter")

    def subscript(self, module, node, depth):
        head = last_name(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Optional":
            s, _ = self.schema(module, args[0], depth + 1)
            return s, True
        if head == "Union":
            return self.union(module, list(args), depth)
        if head == "Annotated":
            return self.schema(module, args[0], depth + 1)
        if head == "Literal":
            values = []
            for a in args:
                if not isinstance(a, ast.Constant) or a.value is None:
                    raise Unsupported("Literal[%s]" % ast.unparse(a), "use str, int, float or bool literals")
                values.append(a.value)
            return self.literal_schema(values, "Literal"), False
        if head in ARRAYS:
            items = [a for a in args if not (isinstance(a, ast.Constant) and a.value is Ellipsis)]
            if head in ("tuple", "Tuple") and len(items) > 1 and len({ast.dump(a) for a in items}) > 1:
                raise Unsupported("the mixed tuple %s" % ast.unparse(node), "manifest arrays have one item type")
            item, _ = self.schema(module, items[0], depth + 1)
            return {"type": "array", "items": item}, False
        if head in MAPPINGS:
            return {"type": "object"}, False
        if head in HINTS:
            raise Unsupported(head, HINTS[head])
        raise Unsupported(ast.unparse(node), "use str, int, float, bool, list[T], Literal[...], an Enum or a TypedDict")

    def literal_schema(self, values, what):
        kinds = set()
        for v in values:
            kinds.add("boolean" if isinstance(v, bool) else "integer" if isinstance(v, int) else "number" if isinstance(v, float) else "string" if isinstance(v, str) else "other")
        if "other" in kinds:
            raise Unsupported("%s with values that are not str, int, float or bool" % what, "use str or int values")
        if kinds == {"integer", "number"}:
            kinds = {"number"}
        if len(kinds) != 1:
            raise Unsupported("%s mixing %s" % (what, " and ".join(sorted(kinds))), "use values of one type")
        return {"type": kinds.pop(), "enum": values}

    def named(self, found, depth):
        module, kind, node = found
        if kind == "alias":
            return self.schema(module, node, depth + 1)
        bases = {last_name(b) for b in node.bases}
        if bases & {"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"}:
            values = []
            for st in node.body:
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and not st.targets[0].id.startswith("_"):
                    if not isinstance(st.value, ast.Constant):
                        raise Unsupported("the Enum %s with a computed value (%s)" % (node.name, ast.unparse(st.value)), "give every member a literal value")
                    values.append(st.value.value)
            if not values:
                raise Unsupported("the empty Enum %s" % node.name, "give it members")
            return self.literal_schema(values, "the Enum %s" % node.name), False
        decorators = {last_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
        if bases & {"TypedDict", "BaseModel", "NamedTuple"} or "dataclass" in decorators:
            return {"type": "object"}, False
        raise Unsupported("the class %s" % node.name, "use a TypedDict or a dataclass for object parameters")

    # ---- tools -------------------------------------------------------------------------------

    def tool_decorator(self, fn):
        for d in fn.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            if last_name(target) == "tool":
                return d
        return None

    def extract(self):
        tools, locations, bindings, host_calls = [], [], [], []
        packages = set()
        for name in sorted(self.project.modules):
            module = self.project.modules[name]
            top = set(id(st) for st in module.tree.body)
            for node in ast.walk(module.tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                dec = self.tool_decorator(node)
                if dec is None:
                    continue
                if id(node) not in top:
                    self.diag("error", module, node, "@tool on '%s', which is not a module-level function" % node.name, "move it to the top level of the module")
                    continue
                tool = self.read_tool(module, node, dec)
                if tool is None:
                    continue
                tools.append(tool[0])
                locations.append(tool[1])
                host_calls.append(self.host_calls.of_tool(module, node))
                bindings.append({"tool": tool[0]["name"], "module": module.name, "symbol": node.name})
                packages.add(module.name.split(".")[0])
        if not tools and not any(d["severity"] == "error" for d in self.diagnostics):
            files = sorted(m.rel for m in self.project.modules.values())
            read = ", ".join(files[:5]) + (" ..." if len(files) > 5 else "") if files else "no Python files"
            self.diagnostics.append({
                "severity": "error",
                "message": "no function is decorated with @tool (read: %s)" % read,
                "file": files[0] if files else "pyproject.toml", "line": 1, "column": 1,
                "hint": "decorate each tool function with @tool (from <your package>.executa import tool), or take the manifest from the running plugin: executa manifest --from-plugin -- <command>",
            })
        package_dir = None
        if bindings:
            roots = {b["module"].split(".")[0] for b in bindings}
            if len(roots) > 1:
                self.diagnostics.append({"severity": "error", "message": "tools are spread over several top-level packages: %s" % ", ".join(sorted(roots)), "hint": "keep the tools in one package; the bindings file goes into it"})
            else:
                root = roots.pop()
                mod = self.project.modules.get(root)
                if mod is None or not mod.is_package:
                    first = next(b for b in bindings)
                    m = self.project.modules[first["module"]]
                    self.diagnostics.append({"severity": "error", "message": "the tools in %s are not inside a package" % m.rel, "file": m.rel, "line": 1, "column": 1, "hint": "put them in a package (a folder with __init__.py)"})
                else:
                    package_dir = os.path.dirname(mod.rel)
        return {"tools": tools, "locations": locations, "hostCalls": host_calls, "bindings": bindings, "diagnostics": self.diagnostics, "packageDir": package_dir}

    def read_tool(self, module, fn, dec):
        opts = {}
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                try:
                    opts[kw.arg] = ast.literal_eval(kw.value)
                except ValueError:
                    self.diag("error", module, kw.value, "@tool(%s=...) must be a literal" % kw.arg)
            if dec.args:
                try:
                    opts.setdefault("name", ast.literal_eval(dec.args[0]))
                except ValueError:
                    self.diag("error", module, dec.args[0], "@tool(name) must be a literal string")
        description, param_docs = parse_docstring(ast.get_docstring(fn, clean=True))
        if isinstance(opts.get("description"), str):
            description = normalise(opts["description"])
        name = opts.get("name", fn.name)
        tool = {"name": name, "description": description}
        if "timeout" in opts:
            t = opts["timeout"]
            if isinstance(t, bool) or not isinstance(t, int) or t <= 0:
                self.diag("error", module, dec, "timeout of tool '%s' must be a whole number of seconds above 0, not %r" % (name, t), "write e.g. @tool(timeout=30)")
            else:
                tool["timeout"] = t
        a = fn.args
        if a.vararg or a.kwarg:
            self.diag("error", module, a.vararg or a.kwarg, "*args and **kwargs cannot be tool parameters", "name each parameter")
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
        out, locs = [], []
        for arg, default in params:
            if arg.arg == "ctx" or (arg.annotation is not None and last_name(arg.annotation) == "ToolContext"):
                continue
            p = self.read_param(module, name, arg, default, param_docs)
            if p is not None:
                out.append(p)
                locs.append({"file": module.rel, "line": arg.lineno, "column": arg.col_offset + 1})
        for documented in param_docs:
            if documented not in [p[0].arg for p in params]:
                self.diag("warning", module, fn, "the docstring documents '%s', which is not a parameter of '%s'" % (documented, name))
        tool["parameters"] = out
        loc = {"file": module.rel, "line": fn.lineno, "column": fn.col_offset + 1, "parameters": locs}
        return tool, loc

    def read_param(self, module, tool, arg, default, docs):
        if arg.annotation is None:
            self.diag("error", module, arg, "parameter '%s' of tool '%s' has no type hint" % (arg.arg, tool), "annotate it, e.g. %s: str" % arg.arg)
            return None
        try:
            schema, optional = self.schema(module, arg.annotation)
        except Unsupported as e:
            self.diag("error", module, arg, "parameter '%s' of tool '%s': %s has no manifest type" % (arg.arg, tool, e.what), e.hint)
            return None
        p = {"name": arg.arg, "type": schema["type"]}
        if docs.get(arg.arg):
            p["description"] = docs[arg.arg]
        p["required"] = default is None
        if default is not None:
            try:
                value = ast.literal_eval(default)
                if isinstance(value, tuple):
                    value = list(value)
                json.dumps(value)
                if value is not None:
                    p["default"] = value
            except (ValueError, TypeError):
                self.diag("warning", module, default, "the default of '%s' (%s) is not a literal, so the manifest has no default for it" % (arg.arg, ast.unparse(default)), "use a literal default")
        if "enum" in schema:
            p["enum"] = schema["enum"]
        if "items" in schema:
            p["items"] = schema["items"]
        return p


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    project = Project(root)
    result = Extractor(project).extract()
    sys.stdout.write(json.dumps(result, ensure_ascii=False))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
