"""Argument validation: an invoke's ``arguments`` against the tool's manifest parameters."""


def json_type(value) -> str:
    """The JSON type name of a value, as the error messages say it."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_MAX_SAFE_INTEGER = 2**53 - 1
_RANGE = f"integer out of range (±{_MAX_SAFE_INTEGER})"


def _type_problem(value, type_name):
    """(the value the tool sees, why it does not have the manifest type or None)."""
    def expected():
        return value, f"expected {type_name}, got {json_type(value)}"

    kind = type(value)
    if type_name == "integer":
        if kind is int:
            return (value, None) if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER else (value, _RANGE)
        if kind is not float:
            return expected()
        if not -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:  # also NaN and Infinity
            return value, _RANGE
        return (int(value), None) if value.is_integer() else expected()
    if type_name == "number":
        if kind is not int and kind is not float:
            return expected()
        try:
            finite = float(value) - float(value) == 0
        except OverflowError:
            finite = False
        return (value, None) if finite else (value, "number out of range")
    if type_name == "string":
        return (value, None) if kind is str else expected()
    if type_name == "boolean":
        return (value, None) if kind is bool else expected()
    if type_name == "object":
        return (value, None) if kind is dict else expected()
    if type_name == "array":
        return (value, None) if kind is list else expected()
    return value, None  # a type the runtime does not know: let the tool decide


def _same(a, b) -> bool:
    """JSON equality: true is not 1, 1 is 1.0."""
    return json_type(a) == json_type(b) and a == b


def _show(value) -> str:
    """A value as JavaScript's String() writes it (the same message in every language)."""
    if isinstance(value, str):
        return value
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# The manifest types whose values pass as they come when they have this Python type.
_EXACT = {"string": str, "boolean": bool, "object": dict}


class Parameters:
    """A tool's parameters as check_arguments reads them, taken out of the manifest once per tool."""

    def __init__(self, tool: dict) -> None:
        # name -> (position, type, the Python type that passes as is, item type, enum)
        self.checks = {}
        self.required = []  # (position, name)
        self.defaults = {}  # name -> the default of an optional parameter that has one
        self.copied = []  # (name, default) for the defaults that are objects or arrays: each invoke gets a copy
        listed = tool.get("parameters") or []
        self.unknown = len(listed)  # where errors about unknown parameters sort: after every parameter's
        for position, p in enumerate(listed):
            name, default, type_name = p["name"], p.get("default"), p.get("type")
            items = p.get("items")
            item_type = (items.get("type") if isinstance(items, dict) else None) or p.get("items_type") or "string"
            self.checks.setdefault(name, (position, type_name, _EXACT.get(type_name), item_type, p.get("enum")))
            if p.get("required", True) is not False:
                self.required.append((position, name))
            elif isinstance(default, (dict, list)):
                self.copied.append((name, default))
            elif default is not None:
                self.defaults[name] = default


def check_arguments(parameters: Parameters, args: dict):
    """Checks ``args`` against a tool's parameters.

    Returns:
        ``(arguments, None)``: what the tool sees. ``null`` for an optional parameter means "not
        given", a missing optional parameter gets the manifest ``default`` when it has one, and
        whole numbers for ``integer`` parameters are ints. Or ``(None, problems)``: one
        ``{parameter, message}`` per parameter and issue, in the manifest's order of parameters,
        then the unknown ones.
    """
    errors = []  # (position, problem)
    out = dict(parameters.defaults)
    checks = parameters.checks
    for name, value in args.items():
        check = checks.get(name)
        if check is None:
            errors.append((parameters.unknown, {"parameter": name, "message": "unknown parameter"}))
            continue
        if value is None:
            continue  # not given: its default, or "required" below
        position, type_name, exact, item_type, enum = check
        if type(value) is not exact:
            value, problem = _type_problem(value, type_name)
            if problem is not None:
                errors.append((position, {"parameter": name, "message": problem}))
                continue
            if type_name == "array":
                checked = []
                for i, item in enumerate(value):
                    item, problem = _type_problem(item, item_type)
                    if problem is not None:
                        errors.append((position, {"parameter": name, "message": f"item {i}: {problem}"}))
                    checked.append(item)
                value = checked
        if enum is not None and not any(_same(allowed, value) for allowed in enum):
            message = "must be one of: " + ", ".join(_show(e) for e in enum)
            errors.append((position, {"parameter": name, "message": message}))
        out[name] = value
    for position, name in parameters.required:
        if args.get(name) is None:
            errors.append((position, {"parameter": name, "message": "required"}))
    if errors:
        errors.sort(key=lambda error: error[0])
        return None, [problem for _, problem in errors]
    for name, default in parameters.copied:
        if name not in out:
            out[name] = _copy(default)
    return out, None
