"""Result-list diversity and consolidation: per-file caps, content dedup, merging adjacent chunks."""

from __future__ import annotations

import re
from collections import Counter

from codesift.datatypes import NOT_DEFINITIONS
from codesift.query.parsed import ParsedQuery
from codesift.rank.candidate import Candidate
from codesift.rank.deprecation import is_deprecated, replacement_names

MAX_MERGED_SPAN = 200  # a merged passage longer than this stops being a useful pointer
# The longest function that takes the place of a function nested in it (``enclosing_first``): attrs' ``define``
# is 388 lines, most of them its docstring, and the best answer over its ``wrap``; past this a closure inside
# a long module-style function stays the better pointer. Not fitted: both query sets score the same for any
# bound from 388 lines up; at 200 zod's 221-line ``JSONSchemaGenerator.emit`` and attrs' ``define`` lose.
MAX_ENCLOSING_SPAN = 400
# A function longer than a useful pointer that holds more definitions than this is a module in all but name
# (immer's 292-line ``enablePatches``, whose ten inner functions are each an answer): like a long class, its
# members stay the pointers. A decorator holds one or two (its wrapper), a factory of closures a few, under
# 200 lines (TanStack's ``createRetryer``). why: docs/design-decisions.md#max-pointer-nested
MAX_POINTER_NESTED = 3


_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LEADING_LINES = 40  # comment lines looked through before a chunk's code starts (a license header)


def _is_comment(line: str) -> bool:
    return line.startswith(("//", "/*", "*", "*/")) or (line.startswith("#") and not line.startswith(("#!", "#[")))


def code_start(text: str) -> str:
    """``text`` from its first line of code: leading blank and comment lines and an ``export`` dropped."""
    first = text.lstrip()[:2]
    if first and first[0] not in "/#*e":  # the usual case: code from the first line
        return text
    pos = 0
    for _ in range(_LEADING_LINES):
        end = text.find("\n", pos)
        line = text[pos:] if end < 0 else text[pos:end]
        if line.strip() and not _is_comment(line.lstrip()):
            break
        if end < 0:
            return ""
        pos = end + 1
    rest = text[pos:].lstrip()
    if rest[:1] == "e" and rest.startswith("export "):
        rest = rest[7:].lstrip()
        rest = rest[8:].lstrip() if rest.startswith("default ") else rest
    return rest


def content_key(text: str, size: int = 200, *, comments: bool = False) -> str:
    """What two copies of one chunk share: its first ``size`` characters of code from its first line of code
    (a license header, an ``export`` in front and spacing aside); with ``comments``, the comments inside
    dropped too (a bundle's ``function f`` repeats a module's ``export function f`` without them)."""
    head = code_start(text[: size * 8])
    if comments:
        head = head[: size * 3]
        head = _BLOCK_COMMENT.sub("", head) if "/*" in head else head
        head = "\n".join(line for line in head.split("\n") if not _is_comment(line.lstrip()))
    return " ".join(head[:size].split())


def dedupe_content(cands: list[Candidate]) -> list[Candidate]:
    """Drop later candidates whose code (:func:`content_key`) repeats an earlier one's (copies, vendored twins);
    among definitions of one name, their code without comments too (a bundle of the modules beside it)."""
    names = Counter(c.name for c in cands if c.kind not in NOT_DEFINITIONS)
    seen: set[str] = set()
    seen_named: set[tuple[str, str]] = set()
    out = []
    for c in cands:
        key = content_key(c.text)
        if key and key in seen:
            continue
        if names[c.name] > 1 and c.kind not in NOT_DEFINITIONS:
            named = (c.name, content_key(c.text, comments=True))
            if named in seen_named:
                continue
            seen_named.add(named)
        seen.add(key)
        out.append(c)
    return out


def cap_per_file(cands: list[Candidate], max_per_file: int) -> list[Candidate]:
    """Keep at most ``max_per_file`` candidates of any one file, in order."""
    counts: dict[str, int] = {}
    out = []
    for c in cands:
        n = counts.get(c.path, 0)
        if n < max_per_file:
            out.append(c)
        counts[c.path] = n + 1
    return out


def best_of_each_file_first(cands: list[Candidate]) -> list[Candidate]:
    """Each file's best candidate in score order, then the remaining candidates in score order."""
    seen: set[str] = set()
    first: list[Candidate] = []
    rest: list[Candidate] = []
    for c in cands:
        (rest if c.path in seen else first).append(c)
        seen.add(c.path)
    return first + rest


def members_first(cands: list[Candidate], container_kinds: frozenset[str]) -> list[Candidate]:
    """Put each long container (class, struct, impl… over ``MAX_MERGED_SPAN`` lines) right after the
    last of its members among the candidates, with that member's score.

    A class chunk holds all its methods' text, so it matches whatever one of them matches; when its
    methods are candidates too, they are the pointers worth reading and the long class only their
    context (docs/design-decisions.md#members-first). A short class stays where it is (it may well be the
    answer), as does one the query names.
    A long container nested in another (a builder class inside its class) is placed by its own members,
    never used as the outer one's anchor."""

    def movable(c: Candidate) -> bool:
        return (c.kind in container_kinds and "name_match" not in c.explain
                and c.end_line - c.start_line + 1 > MAX_MERGED_SPAN)

    keys: list[float] = []
    for i, c in enumerate(cands):
        key = float(i)
        if movable(c):
            for j in range(i + 1, len(cands)):
                m = cands[j]
                if m.path == c.path and c.start_line < m.start_line and m.end_line <= c.end_line and not movable(m):
                    key = j + 0.5
                    c.score = min(c.score, m.score)
        keys.append(key)
    order = sorted(range(len(cands)), key=lambda i: (keys[i], i))
    return [cands[i] for i in order]


FUNCTION_KINDS = frozenset({"function", "method"})


# An overload this short ranked above a longer one of the same name in its file is a wrapper that delegates to it
# (jcommander's ``usage()`` and ``usage(String)`` over the 107-line ``usage(StringBuilder, String)``): the longer
# one takes its place. The terse set (``bench/quality/devset.py --queries terse``): 5 queries up, none down; the public,
# dev and short sets unchanged; 5, 10 and 12 lines score alike.
MAX_WRAPPER_SPAN = 10


def implementation_first(cands: list[Candidate]) -> list[Candidate]:
    """The best-ranked function or method of at most ``MAX_WRAPPER_SPAN`` lines of a name gives its place to
    the longest overload below it (same file and qualified name, longer than that), and follows it. Not when
    the query names it: an identifier query picks among a name's definitions itself (``pipeline.rank``'s
    namesakes)."""
    out = list(cands)
    seen: set[tuple[str, str]] = set()
    overloaded: set[tuple[str, str]] = set()  # (path, qualified name) of two functions or more
    for c in out:
        if c.kind in FUNCTION_KINDS:
            key = (c.path, c.qualified_name)
            (overloaded if key in seen else seen).add(key)
    done: set[tuple[str, str]] = set()  # moved once
    i = -1
    while overloaded and (i := i + 1) < len(out):
        c = out[i]
        group = (c.path, c.qualified_name)
        if (group not in overloaded or group in done or c.kind not in FUNCTION_KINDS or c.span > MAX_WRAPPER_SPAN
                or "name_match" in c.explain):
            continue
        done.add(group)
        longer = [j for j in range(i + 1, len(out)) if out[j].kind in FUNCTION_KINDS and out[j].path == c.path
                  and out[j].qualified_name == c.qualified_name and out[j].span > MAX_WRAPPER_SPAN]
        if longer:
            impl = out.pop(max(longer, key=lambda j: (out[j].span, -j)))
            impl.score = max(impl.score, c.score)
            out.insert(i, impl)
    return out


# Languages whose functions can be declared without a body: a prototype, an interface or abstract member,
# Kotlin's ``expect``; and those of them whose bodies need no braces (``fun f() = x``).
BODILESS_LANGUAGES = frozenset({"c", "cpp", "c_sharp", "java", "php", "kotlin", "typescript", "tsx", "rust", "swift",
                                "scala", "dart"})
_EXPRESSION_BODIED = frozenset({"kotlin", "swift", "scala", "dart"})
_EXPRESSION_BODY = re.compile(r"\)[^(){}=]*=(?![=>])")
# Words of a query about the declaration itself, where it stays first (not "header" or "expect": HTTP headers
# and "what to expect" ask about no declaration).
_ASKS_FOR_DECLARATION = re.compile(
    r"\b(interfaces?|abstract|declar\w*|signatures?|prototypes?|protocols?|contracts?)\b", re.I)


def is_bodiless(c: Candidate) -> bool:
    """A function or method declared without a body: ``int f(int);``, an interface or abstract member,
    ``expect fun f(): T``."""
    if c.kind not in FUNCTION_KINDS or c.language not in BODILESS_LANGUAGES:
        return False
    code = "\n".join(line for line in code_start(c.text).splitlines() if not _is_comment(line.strip()))
    if "{" in code or "=>" in code:
        return False
    if c.language in _EXPRESSION_BODIED:  # ``fun f(…): T = …``; a doubt (``x: Foo = Foo(), …``) reads as a body
        return _EXPRESSION_BODY.search(code) is None
    return code.rstrip().endswith(";")


def declaration_yields(cands: list[Candidate], query: str, depth: int = 20) -> list[Candidate]:
    """A function declared without a body (an interface or abstract member, a header prototype, an ``expect``)
    ranked above a definition of its name with a body, among the first ``depth``, gives that one its place and
    follows it: the question is what the code does, and the body does it. Not when the query names the
    declaration (an identifier query picks among a name's definitions itself) or asks for an interface."""
    if _ASKS_FOR_DECLARATION.search(query):
        return cands
    out = list(cands)
    i = -1
    while (i := i + 1) < min(depth, len(out)):
        c = out[i]
        if "name_match" in c.explain or not is_bodiless(c):
            continue
        body = next((j for j in range(i + 1, min(depth, len(out))) if out[j].name == c.name
                     and out[j].language == c.language and out[j].kind in FUNCTION_KINDS and not is_bodiless(out[j])),
                    None)
        if body is not None:
            impl = out.pop(body)
            impl.score = max(impl.score, c.score)
            impl.explain["declaration_yields"] = 1.0
            out.insert(i, impl)
            i += 1  # the declaration, now right after its implementation
    return out


# Words of a query about deprecated code itself, where the old definition keeps its place.
_ASKS_FOR_DEPRECATED = re.compile(r"\b(deprecat\w*|obsolete|legacy)\b", re.I)


def deprecated_yields(cands: list[Candidate], query: str, depth: int = 20) -> list[Candidate]:
    """A deprecated definition (rank.deprecation) ranked above the one its note says to use instead, among the
    first ``depth``, follows it: two generations of an API side by side (commons-csv's ``withHeader`` and
    ``Builder.setHeader``), the current one first. Each place keeps its score. Not when the query names the old
    definition or asks about deprecated code; a replacement that is itself deprecated or not in sight moves nothing."""
    if _ASKS_FOR_DEPRECATED.search(query):
        return cands
    out = list(cands)
    moved: set[int] = set()
    i = -1
    while (i := i + 1) < min(depth, len(out)):
        c = out[i]
        if id(c) in moved or "name_match" in c.explain or not is_deprecated(c.doc, c.decorators):
            continue
        instead = replacement_names(c.doc, c.decorators, c.name)
        j = next((j for j in range(i + 1, min(depth, len(out))) if out[j].name in instead
                  and not is_deprecated(out[j].doc, out[j].decorators)), None)
        if j is not None:
            scores = [x.score for x in out[i:j + 1]]
            out.insert(j, out.pop(i))
            for x, score in zip(out[i:j + 1], scores):
                x.score = score
            c.explain["deprecated_yields"] = 1.0
            moved.add(id(c))
            i -= 1  # the result now at i has not been looked at
    return out


def contained_yields(cands: list[Candidate], depth: int = 20) -> list[Candidate]:
    """A result whose lines lie inside a better-ranked result of its file (``WhatFailureGroupHandler.handle`` below
    ``WhatFailureGroupHandler``) was shown with it: among the first ``depth``, it follows the results that are not
    inside one above them, so the first places hold more of the code base. Each place keeps its score. Not a
    result the query names, nor one inside a container over ``MAX_MERGED_SPAN`` lines, too long to point at it."""
    head = cands[:depth]
    inside = [i for i, c in enumerate(head) if "name_match" not in c.explain and any(
        o.path == c.path and o.start_line <= c.start_line and c.end_line <= o.end_line
        and c.span < o.span <= MAX_MERGED_SPAN for o in head[:i])]
    if not inside:
        return cands
    moved = set(inside)
    order = [c for i, c in enumerate(head) if i not in moved] + [head[i] for i in inside]
    for c, score in zip(order, [c.score for c in head]):
        c.score = score
    for i in inside:
        head[i].explain["contained_yields"] = 1.0
    return order + cands[depth:]


def named_first(cands: list[Candidate], query: ParsedQuery) -> list[Candidate]:
    """For a name typed as the query (``Session``, ``class Session``, ``logger::log``, ``Polly.Retry.RetryHelper``),
    the definitions it names exactly (``named``, labelled HIGH) come first, in their order: the learned re-ranker,
    reading the share of the query's terms in each result's name, put spdlog's macro ``SPDLOG_LOGGER_CALL`` over
    ``logger.log`` for ``spdlog::logger::log`` and a class over its constructor. Each place keeps its score. Not for
    a sentence or a pasted definition line, whose words the re-ranker weighs."""
    if not query.identifiers or query.sentence or query.pasted:
        return cands
    named = [c for c in cands if c.named]
    if not named or all(c.named for c in cands[:len(named)]):
        return cands
    scores = [c.score for c in cands]
    out = named + [c for c in cands if not c.named]
    for c, score in zip(out, scores):
        c.score = score
    for c in named:
        c.explain["named_first"] = 1.0
    return out


def is_module_like(c: Candidate) -> bool:
    """A function too long to be a pointer that holds many definitions (see ``MAX_POINTER_NESTED``)."""
    return c.span > MAX_MERGED_SPAN and c.nested > MAX_POINTER_NESTED


def enclosing_first(cands: list[Candidate]) -> list[Candidate]:
    """A function nested in another (a closure, an inner helper) ranked above the function that encloses it
    gives that function its place, listed as merged into it: the enclosing one holds its text and is what
    the code is called by (zod's ``treeifyError`` over its ``processError``, click's ``decorator`` closures).
    Not when the query names the nested one, nor for an enclosing function over ``MAX_ENCLOSING_SPAN`` lines
    or one over ``MAX_MERGED_SPAN`` lines holding more than ``MAX_POINTER_NESTED`` definitions (``nested``).
    """
    out = list(cands)
    by_path: dict[str, list[Candidate]] = {}
    for c in out:
        if c.kind in FUNCTION_KINDS and c.span <= MAX_ENCLOSING_SPAN and not is_module_like(c):
            by_path.setdefault(c.path, []).append(c)
    i = -1
    while (i := i + 1) < len(out):
        c = out[i]
        if c.kind not in FUNCTION_KINDS or "name_match" in c.explain:
            continue
        around = {id(e) for e in by_path.get(c.path, ())
                  if e is not c and e.start_line < c.start_line and c.end_line <= e.end_line}
        j = next((j for j in range(i + 1, len(out)) if id(out[j]) in around), None) if around else None
        if j is not None:
            e = out.pop(j)
            e.score = max(e.score, c.score)
            e.merged_names.append(c.qualified_name)
            out[i] = e
            i -= 1  # the enclosing function may itself be nested in another
    return out


def consolidate(cands: list[Candidate], max_gap: int = 1) -> list[Candidate]:
    """Merge candidates of one file that touch or overlap (gap ≤ ``max_gap`` lines) into one passage.

    Nested chunks (a class and its method) are not merged: the narrower one is the better pointer.
    Nor is a candidate whose name the query spells out: the user asked for exactly that symbol.
    The merged passage keeps the best score and position and lists the merged names (``+N nearby``).
    """
    out: list[Candidate] = []
    by_path: dict[str, list[Candidate]] = {}  # only candidates of one file can merge
    for c in cands:
        for kept in by_path.get(c.path, ()):
            if "name_match" in c.explain or "name_match" in kept.explain:
                continue
            nested = (kept.start_line <= c.start_line and c.end_line <= kept.end_line) or (
                c.start_line <= kept.start_line and kept.end_line <= c.end_line
            )
            touching = c.start_line <= kept.end_line + max_gap + 1 and kept.start_line <= c.end_line + max_gap + 1
            span = max(kept.end_line, c.end_line) - min(kept.start_line, c.start_line) + 1
            if touching and not nested and span <= MAX_MERGED_SPAN:
                if c.start_line < kept.start_line:
                    kept.text = c.text + "\n" + kept.text
                else:
                    kept.text = kept.text + "\n" + c.text
                kept.start_line = min(kept.start_line, c.start_line)
                kept.end_line = max(kept.end_line, c.end_line)
                kept.merged_names.append(c.qualified_name)
                break
        else:
            out.append(c)
            by_path.setdefault(c.path, []).append(c)
    return out
