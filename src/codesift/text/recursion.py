"""Index terms for a definition that calls itself: ``recursive``, ``recursively``, ``recursion``.

"Recursively emit the completions of every subcommand" describes a function whose code never says so: it
calls its own name. A call counts when it is bare (``walk(child)``) or made on the definition's own object
(``self.walk``, ``this.walk``, ``Self::walk``, Go's receiver ``c.walk``); a call on another object
(``w.inner.Close()``) delegates to a namesake and is no recursion (so a walk over children written
``child.walk()`` is missed: without types the two read alike). In a method, a bare call counts only where
the language lets a method call itself so; where names have overloads, only a call with the definition's
number of arguments counts (``get(name)`` calling ``get(name, bounds)`` is another overload).
"""

from __future__ import annotations

import re

CALLABLE_KINDS = frozenset({"function", "method"})
TERMS = "recursive recursively recursion recurse recurs"
_SELF = frozenset({"self", "this", "Self", "cls"})
_GO_RECEIVER = re.compile(r"^\s*func\s*\(\s*(\w+)\s", re.M)
_COMMENT_HEADS = ("//", "#", "*", "/*", "--")
# Where a method may call itself without naming its object (``walk(next)`` in a Java method); elsewhere a
# bare call in a method is a namesake function's (Python's ``open`` inside ``File.open``).
BARE_METHOD_CALLS = frozenset({"java", "c_sharp", "cpp", "kotlin", "scala", "swift", "dart", "groovy", "ruby"})
# Where one name has overloads: a call counts when it passes as many arguments as the definition takes.
OVERLOADS = frozenset({"java", "c_sharp", "cpp", "kotlin", "scala", "swift", "dart", "groovy"})
MAX_SITES = 64  # call sites looked at, and 64 times as many mentions of the name: a generated file
# repeating one name is not scanned to its end
_DEFINERS = frozenset({"def", "fn", "func", "function", "fun", "sub"})  # a second signature, not a call


def recursion_terms(kind: str, name: str, text: str, docstring: str = "", language: str = "") -> str:
    """:data:`TERMS` when the ``kind`` definition named ``name`` calls itself in ``text``, else ``""``.

    A call in its docstring or in a comment (``>>> walk(tree)``) is no call. Plain string scanning: this
    runs on every definition while indexing."""
    if kind not in CALLABLE_KINDS or not name.isidentifier():
        return ""
    sites = _call_sites(name, text)
    if len(sites) < 2:
        return ""
    doc_at, doc_end = _span(docstring, text)
    sites = [at for at in sites if not (doc_at <= at < doc_end or _in_comment(text, at))]
    if sites and sites[0] < _signature_end(text):
        definition, calls = sites[0], sites[1:]
    else:  # ``const run = () => {``: the name is not followed by its parameters
        definition, calls = None, sites
    if not calls:
        return ""
    receiver = _GO_RECEIVER.search(text) if "func" in text else None
    own = _SELF | ({receiver.group(1)} if receiver else set())
    bare_ok = kind == "function" or language in BARE_METHOD_CALLS
    arity = _arity(text, definition) if language in OVERLOADS and definition is not None else None
    for at in calls:
        if _word_before(text, at) in _DEFINERS:
            continue
        qualifier = _qualifier(text, at)
        if (qualifier in own or (qualifier is None and bare_ok)) and (arity is None or _arity(text, at) == arity):
            return TERMS
    return ""


def _span(docstring: str, text: str) -> tuple[int, int]:
    """Where the docstring lies in ``text``, from its first line to its last (it is stored dedented)."""
    lines = docstring.strip().splitlines()
    if not lines:
        return -1, -1
    start = text.find(lines[0].strip())
    end = text.find(lines[-1].strip(), max(start, 0)) if start >= 0 else -1
    return (start, end + len(lines[-1].strip())) if end >= 0 else (-1, -1)


def _signature_end(text: str) -> int:
    """The end of the definition's first line: past its doc comment, annotations and decorators."""
    at = 0
    for line in text.split("\n"):
        stripped = line.strip()
        at += len(line) + 1
        if stripped and not stripped.startswith(_COMMENT_HEADS + ("@",)):
            return at
    return at


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _call_sites(name: str, text: str) -> list[int]:
    """Offsets of ``name`` standing as a word and followed by ``(`` (or by ``<…>(``, a generic call)."""
    out: list[int] = []
    n, size = len(name), len(text)
    at, mentions = text.find(name), 0
    while at >= 0 and len(out) <= MAX_SITES and (mentions := mentions + 1) <= 64 * MAX_SITES:
        end = at + n
        if (at == 0 or not _is_word(text[at - 1])) and (end == size or not _is_word(text[end])):
            k = end
            while k < size and text[k] in " \t":
                k += 1
            if k < size and text[k] == "<":
                close = text.find(">", k, k + 200)
                if close > 0 and "(" not in text[k:close] and "\n" not in text[k:close]:
                    k = close + 1
            if k < size and text[k] == "(":
                out.append(at)
        at = text.find(name, end)
    return out


def _in_comment(text: str, at: int) -> bool:
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line.lstrip().startswith(_COMMENT_HEADS) or "//" in line


def _word_before(text: str, at: int) -> str:
    """The identifier that ends just before ``at`` (spaces between allowed), or ``""``."""
    k = at
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    start = k
    while start > 0 and _is_word(text[start - 1]):
        start -= 1
    return text[start:k]


def _arity(text: str, at: int) -> int:
    """Arguments (or parameters) between the parentheses that follow ``at``: top-level commas + 1."""
    start = text.find("(", at)
    depth, commas, empty = 0, 0, True
    for k in range(start, min(len(text), start + 2000)):
        ch = text[k]
        if ch in "([{<":
            depth += 1
        elif ch in ")]}" or (ch == ">" and text[k - 1] not in "-="):  # not a lambda's -> or =>
            depth -= 1
            if depth == 0:
                break
        elif ch == "," and depth == 1:
            commas += 1
        elif not ch.isspace() and depth >= 1:
            empty = False
    return 0 if empty else commas + 1


def _qualifier(text: str, at: int) -> str | None:
    """``None`` for a bare call; the object before ``.``/``::``/``->`` otherwise (``""`` when it is no
    plain name: ``super().walk(``, ``make().walk(``)."""
    k = at
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    if text.endswith(".", 0, k):
        return _word_before(text, k - 1)
    if text.endswith(("::", "->"), 0, k):
        return _word_before(text, k - 2)
    return None
