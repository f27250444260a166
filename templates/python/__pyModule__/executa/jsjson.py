"""JSON text as JavaScript writes it (``JSON.stringify``): what a host written in JavaScript sees
and measures. Python writes some numbers differently (``1.0``, ``1e-07``)."""

from .writer import to_json_bytes


def number_text(value: float) -> str:
    """A finite number as JavaScript writes it (Number::toString): the shortest digits that round-trip."""
    if value == 0:
        return "0"
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len((whole + fraction).lstrip("0")))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    sign = "-" if value < 0 else ""
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    head = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{head}e{'+' if e >= 0 else '-'}{abs(e)}"


def _scalar_size(value) -> int:
    if isinstance(value, str):
        return len(to_json_bytes(value))  # escapes and lone surrogates (U+FFFD) as the writer sends them
    if value is None or value is True:
        return 4
    if value is False:
        return 5
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            return 4  # an integer past the float range: Infinity to JavaScript, written null
        return len(number_text(number)) if number - number == 0 else 4
    return 0  # not JSON: the writer refuses it when the request is sent


def json_size(value) -> int:
    """The UTF-8 length of ``JSON.stringify(value)`` once the value went over the wire, without building the text."""
    size = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            size += 2 + 2 * len(item) - (1 if item else 0)  # braces, a colon per member, commas between
            for key, child in item.items():
                size += _scalar_size(key if isinstance(key, str) else str(key))
                stack.append(child)
        elif isinstance(item, (list, tuple)):
            size += 2 + max(0, len(item) - 1)
            stack.extend(item)
        else:
            size += _scalar_size(item)
    return size
