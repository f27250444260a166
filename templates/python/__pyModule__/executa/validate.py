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


def parameters_of(tool: dict) -> tuple:
    """The tool's parameters as check_arguments reads them, taken out of the manifest once per tool:
    ``(name, required, default, whether the default is copied for each invoke, type, the Python
    type that passes as is, item type, enum)`` each."""
    out = []
    for p in tool.get("parameters") or []:
        default = p.get("default")
        items = p.get("items")
        item_type = (items.get("type") if isinstance(items, dict) else None) or p.get("items_type") or "string"
        type_name = p.get("type")
        out.append(
            (
                p["name"],
                p.get("required", True) is not False,
                default,
                isinstance(default, (dict, list)),
                type_name,
                _EXACT.get(type_name),
                item_type,
                p.get("enum"),
            )
        )
    return tuple(out)


def check_arguments(parameters: tuple, args: dict):
    """Checks ``args`` against a tool's parameters (``parameters_of(tool)``).

    Returns:
        ``(arguments, None)``: what the tool sees. ``null`` for an optional parameter means "not
        given", a missing optional parameter gets the manifest ``default`` when it has one, and
        whole numbers for ``integer`` parameters are ints. Or ``(None, problems)``: one
        ``{parameter, message}`` per parameter and issue.
    """
    errors = []
    out = {}
    for name, required, default, copy_default, type_name, exact, item_type, enum in parameters:
        value = args.get(name)
        if value is None:
            if required:
                errors.append({"parameter": name, "message": "required"})
            elif default is not None:
                out[name] = _copy(default) if copy_default else default
            continue
        if type(value) is not exact:
            value, problem = _type_problem(value, type_name)
            if problem is not None:
                errors.append({"parameter": name, "message": problem})
                continue
            if type_name == "array":
                checked = []
                for i, item in enumerate(value):
                    item, problem = _type_problem(item, item_type)
                    if problem is not None:
                        errors.append({"parameter": name, "message": f"item {i}: {problem}"})
                    checked.append(item)
                value = checked
        if enum is not None and not any(_same(allowed, value) for allowed in enum):
            errors.append({"parameter": name, "message": "must be one of: " + ", ".join(_show(e) for e in enum)})
        out[name] = value
    for name in args:
        if name not in out and all(p[0] != name for p in parameters):
            errors.append({"parameter": name, "message": "unknown parameter"})
    return (None, errors) if errors else (out, None)
