"""The plugin's tools. Each function marked ``@tool`` becomes a tool in manifest.json: its
docstring summary is the description, ``Args:`` describes the parameters, the type hints give
their types and the defaults their defaults. Run ``executa manifest`` after changing them.
"""

from __future__ import annotations

import re
from typing import Literal

from .executa import HostError, ToolContext, ToolError, tool
from .executa.errors import SAMPLING_NOT_GRANTED

# A word is a run of letters, digits, apostrophes and hyphens.
_WORD = re.compile(r"(?:[^\W_]|['-])+")

_FOLD = {"lower": str.lower, "upper": str.upper, "preserve": None}


@tool(timeout=10)
def text_stats(
    text: str,
    top: int = 3,
    letter_case: Literal["lower", "upper", "preserve"] = "lower",
    ignore: list[str] | None = None,
    words_per_minute: float = 238,
    unique: bool = False,
) -> dict:
    """Count the words and characters in a text and list its most frequent words.

    Args:
        text: The text to analyse.
        top: How many of the most frequent words to list.
        letter_case: How to fold letter case before counting.
        ignore: Words to leave out of the counts.
        words_per_minute: Reading speed used to estimate the reading time.
        unique: Count each distinct word once.
    """
    if top < 0:
        raise ToolError(f"top must be 0 or more (got {top})")
    if not words_per_minute > 0:
        raise ToolError(f"words_per_minute must be greater than 0 (got {words_per_minute})")
    fold = _FOLD[letter_case]
    ignored = {fold(w) if fold else w for w in ignore} if ignore else ()

    # word -> count; a dict keeps first-appearance order, and sorted() is stable.
    counts: dict[str, int] = {}
    counted = 0
    for word in _WORD.findall(text):
        if fold is not None:
            word = fold(word)
        if word in ignored:
            continue
        counted += 1
        counts[word] = counts.get(word, 0) + 1

    words = len(counts) if unique else counted
    # Most frequent first; ties in code point order of the (folded) word.
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]
    return {
        "words": words,
        "characters": len(text),
        "distinct_words": len(counts),
        "top": [{"word": word, "count": count} for word, count in ranked],
        "reading_minutes": int(words / words_per_minute * 100 + 0.5) / 100,
    }


@tool
def sign_message(message: str, *, ctx: ToolContext) -> dict:
    """Sign a message with HMAC-SHA256 using the SIGNING_SECRET credential.

    Args:
        message: The message to sign.
    """
    secret = ctx.credential("SIGNING_SECRET")
    if not secret:
        raise ToolError(
            "SIGNING_SECRET is not configured. Add it to this plugin's credentials in Anna, "
            "or export SIGNING_SECRET=... when running locally."
        )
    import hashlib
    import hmac

    signature = hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()
    return {"algorithm": "HMAC-SHA256", "signature": signature}


@tool(timeout=120)
def summarize(text: str, max_words: int = 50, *, ctx: ToolContext) -> dict:
    """Summarize a text with the host's language model (needs an Anna host that speaks protocol 2.0 and grants sampling).

    Args:
        text: The text to summarize.
        max_words: The longest summary to ask for, in words.
    """
    if max_words < 1:
        raise ToolError(f"max_words must be 1 or more (got {max_words})")
    try:
        result = ctx.host.sample(
            messages=[
                {
                    "role": "user",
                    "content": {"type": "text", "text": f"Summarize the following text in at most {max_words} words:\n\n{text}"},
                }
            ],
            max_tokens=max(16, min(8192, max_words * 4)),
            metadata={"tool": "summarize"},
        )
    except HostError as err:
        hint = " Grant sampling to this plugin in Anna's settings." if err.code == SAMPLING_NOT_GRANTED else ""
        raise ToolError(f"The host refused the sampling request: [{err.code}] {err.message}{hint}") from None
    result = result if isinstance(result, dict) else {}
    content = result.get("content")
    summary = content.get("text") if isinstance(content, dict) else None
    return {"summary": summary if isinstance(summary, str) else "", "model": result.get("model")}
