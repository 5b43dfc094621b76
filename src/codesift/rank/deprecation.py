"""What a definition says of its own deprecation: whether it is marked deprecated, and the names its note
tells the reader to use instead.

A mark is the language's annotation or attribute on the definition (Java and Kotlin ``@Deprecated``, Python's
``@deprecated``, C# ``[Obsolete]``, Rust ``#[deprecated]``, C++ ``[[deprecated]]``, Swift ``@available(*,
deprecated)``) or its doc comment's tag (``@deprecated``, Doxygen's ``\\deprecated``, Go's ``Deprecated:``
paragraph). Python's ``.. deprecated::`` directive is not one: docstrings use it for a single parameter too
(attrs' ``evolve``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["deprecation_note", "is_deprecated", "replacement_names"]

_WORD = "eprecated"  # of ``deprecated`` and ``Deprecated``
_MARK = re.compile(
    r"^\s*(?:@Deprecated\b|@(?:[\w.]+\.)?deprecated\b|\[(?:System\.)?Obsolete(?:Attribute)?\b|#\[deprecated\b"
    r"|#\[cfg_attr\(.*\bdeprecated\(|\[\[deprecated\b|@available\(.*\bdeprecated)",
    re.S,
)
# A doc line that opens with the tag, and what it says up to the next tag or the end.
_OPENS = r"^[ \t]*(?:\*[ \t]*)?(?:@deprecated\b|\\deprecated\b|Deprecated: )"
_TAG = re.compile(_OPENS, re.M)
_NOTE = re.compile(_OPENS + r"(.*?)(?=^[ \t]*(?:\*[ \t]*)?@\w|\Z)", re.M | re.S)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)*")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PARTS = re.compile(r"\.|#|::")
_CODE_SHAPED = re.compile(r"[a-z][A-Z]|_|^[A-Z][a-z]+[A-Z]")


def is_deprecated(doc: str, decorators: Sequence[str]) -> bool:
    """Whether the doc comment's tag or one of the definition's annotations marks it deprecated."""
    # every mark holds one of these two words: most definitions are answered without a regular expression
    return ((_WORD in doc and bool(_TAG.search(doc)))
            or any((_WORD in d or "Obsolete" in d) and _MARK.search(d) for d in decorators))


def deprecation_note(doc: str, decorators: Sequence[str]) -> str | None:
    """What the definition's deprecation says, on one line (``Use {@link Builder#setHeader} instead.``), ``""``
    when it is marked without a word, None when it is not marked."""
    if not is_deprecated(doc, decorators):
        return None
    notes = _notes(doc, decorators)
    return " ".join(notes[0].split()) if notes else ""


def _notes(doc: str, decorators: Sequence[str]) -> list[str]:
    """The texts of the doc's deprecation tags, then the string arguments of the marking annotations."""
    return ([m.group(1) for m in _NOTE.finditer(doc) if m.group(1).strip()]
            + [s for d in decorators if _MARK.search(d) for s in _QUOTED.findall(d) if s.strip()])


def replacement_names(doc: str, decorators: Sequence[str], own: str) -> frozenset[str]:
    """The names the deprecation note points to (``Use {@link Builder#setHeader}`` → ``setHeader``): every
    identifier of it spelt as code (camelCase, snake_case, qualified, called or in backticks), last part only,
    but ``own``. An annotation's note is its string arguments (``[Obsolete("Use X")]``)."""
    names: set[str] = set()
    for note in _notes(doc, decorators):
        for token in _IDENT.findall(note):
            last = _PARTS.split(token)[-1]
            if last == own:
                continue
            if token != last or _CODE_SHAPED.search(last) or f"`{token}" in note or f"{token}(" in note:
                names.add(last)
    return frozenset(names)
