"""The calls a tool makes on values reached from its context, found with `ast`.

Part of create-executa's Python extractor (extract_tools.py). A value is reached from the context
when it is the tool's ``ctx`` (or a parameter annotated ToolContext), ``ctx.host`` and what hangs
off it, a variable assigned one of those, a parameter annotated HostClient or AgentSession, or a
parameter of a project function the tool passed one of those to. Every call on such a value is
reported with the names from the host client (or the agent session) to the callee; create-executa
(src/manifest/host-helpers.ts) decides which are host-service helpers and what each sends.
"""

import ast

# How deep calls are followed into the project's functions, and how many are read per tool.
MAX_DEPTH = 6
MAX_FUNCTIONS = 200

CONTEXT = ("context",)
ROOT_TYPES = {"ToolContext": CONTEXT, "HostClient": ("host", "host", ()), "AgentSession": ("host", "session", ())}


def annotation_root(node):
    """The root an annotation names: ``ToolContext``, ``executa.HostClient``, ``"AgentSession"``, ``X | None``."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return annotation_root(node.left) or annotation_root(node.right)
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)):
        head = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
        return annotation_root(node.slice) if head == "Optional" else None
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return ROOT_TYPES.get(name)


def member(base, name):
    if base is None:
        return None
    if base == CONTEXT:
        return ("host", "host", ()) if name == "host" else None
    return ("host", base[1], base[2] + (name,))


def value(node, env):
    """What an expression is: the context, a host value (root, path), or None."""
    if isinstance(node, ast.Await):
        return value(node.value, env)
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.Attribute):
        return member(value(node.value, env), node.attr)
    if isinstance(node, ast.Call):
        base = value(node.func, env)
        return ("host", base[1], base[2] + ("()",)) if base is not None and base != CONTEXT else None
    return None


def parameters(fn):
    a = fn.args
    return a.posonlyargs + a.args + a.kwonlyargs


def body_nodes(fn):
    """Every node of the function's body (not its decorators or defaults)."""
    for st in fn.body:
        yield from ast.walk(st)


def assignments(fn, env):
    """Adds the names the body assigns a reached value to (`host = ctx.host`, `s = ctx.host.agent.create()`)."""
    for _ in range(3):
        changed = False
        for node in body_nodes(fn):
            pairs = []
            if isinstance(node, ast.Assign):
                pairs = [(t, node.value) for t in node.targets]
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                pairs = [(node.target, node.value)]
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                pairs = [(item.optional_vars, item.context_expr) for item in node.items if item.optional_vars is not None]
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id not in env:
                root = annotation_root(node.annotation)
                if root is not None:
                    env[node.target.id] = root
                    changed = True
            for target, expr in pairs:
                if isinstance(target, ast.Name) and target.id not in env:
                    v = value(expr, env)
                    if v is not None:
                        env[target.id] = v
                        changed = True
        if not changed:
            return


class HostCalls:
    def __init__(self, project):
        self.project = project
        self.functions = {}
        for name, module in project.modules.items():
            self.functions[name] = {st.name: st for st in module.tree.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def of_tool(self, module, fn):
        """The calls the tool makes on reached values, in its body and the project functions it calls."""
        env = {}
        for arg in parameters(fn):
            root = CONTEXT if arg.arg == "ctx" else annotation_root(arg.annotation)
            if root is not None:
                env[arg.arg] = root
        calls, seen = [], {id(fn)}
        queue = [(module, fn, env, 0)]
        while queue:
            module, fn, env, depth = queue.pop(0)
            assignments(fn, env)
            for node in body_nodes(fn):
                if not isinstance(node, ast.Call):
                    continue
                callee = value(node.func, env)
                if callee is not None and callee != CONTEXT:
                    calls.append(self.record(module, node, callee))
                    continue
                if depth >= MAX_DEPTH or len(seen) >= MAX_FUNCTIONS:
                    continue
                target = self.function(module, node.func)
                if target is not None and id(target[1]) not in seen:
                    seen.add(id(target[1]))
                    queue.append((target[0], target[1], self.bind(target[1], node, env), depth + 1))
        return calls

    def record(self, module, call, callee):
        keywords = {}
        for kw in call.keywords:
            text = self.constant(module, kw.value)
            if kw.arg is not None and text is not None:
                keywords[kw.arg] = text
        out = {
            "file": module.rel, "line": call.lineno, "column": call.col_offset + 1,
            "root": callee[1], "path": list(callee[2]),
            "args": [self.constant(module, a) for a in call.args],
            "callee": ast.unparse(call.func),
        }
        if keywords:
            out["keywords"] = keywords
        return out

    def constant(self, module, node):
        """A string literal, or a module-level name bound to one."""
        if isinstance(node, ast.Name):
            node = module.aliases.get(node.id, node)
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def bind(self, fn, call, env):
        """The callee's parameters that the call passes a reached value, and those annotated with a root type."""
        params = parameters(fn)
        positional = fn.args.posonlyargs + fn.args.args
        bound = {}
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred) or i >= len(positional):
                break
            v = value(arg, env)
            if v is not None:
                bound[positional[i].arg] = v
        names = {p.arg for p in params}
        for kw in call.keywords:
            v = value(kw.value, env) if kw.arg in names else None
            if v is not None:
                bound[kw.arg] = v
        for p in params:
            root = annotation_root(p.annotation)
            if root is not None:
                bound.setdefault(p.arg, root)
        return bound

    def function(self, module, func, depth=0):
        """(module, function) of the project a callee names: a module-level function, imported or not."""
        if depth > 10:
            return None
        if isinstance(func, ast.Name):
            found = self.functions.get(module.name, {}).get(func.id)
            if found is not None:
                return (module, found) if self.followed(module) else None
            if func.id in module.imports:
                base, orig = module.imports[func.id]
                target = self.project.modules.get(base)
                if target is not None:
                    return self.function(target, ast.Name(id=orig), depth + 1)
            return None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in module.imports:
            base, orig = module.imports[func.value.id]
            target = self.project.modules.get(base + "." + orig if base else orig)
            if target is not None:
                return self.function(target, ast.Name(id=func.attr), depth + 1)
        return None

    def followed(self, module):
        """The vendored runtime (a package named executa) is where the helpers are, not the tool's code."""
        return "executa" not in module.name.split(".")
