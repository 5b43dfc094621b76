"""grep: exact and regex search over the indexed files, each hit with its enclosing symbol.

Candidate files come from the trigram index of file contents (``store/grams.py``): a literal of three or
more characters, or the literals a regex cannot match without (``required_literals``), name the files
that may hold a match, so only those are read. A regex with no such literal reads every file that
passes the filters, and the answer says so. Every hit is found in the live file, never in the
index: a file that changed since it was indexed is read as it is now, its symbols re-parsed, and the
answer says which files were stale. Matching is per line, like ripgrep: a match never spans lines.
"""

from __future__ import annotations

import re
import time
import weakref
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codesift.text.source import content_hash, decode_source
from codesift.search.filters import check_path_in_services
from codesift.store import grams
from codesift.tools.payloads import GrepAnswer, GrepHit

try:
    import re._constants as _c  # type: ignore[import-not-found]
    import re._parser as _sre  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python < 3.11 keeps them at the top level
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _sre  # type: ignore[no-redef]

if TYPE_CHECKING:  # pragma: no cover
    from codesift.search.run import Filters
    from codesift.tools.base import Workspace

MAX_PATTERN_CHARS = 1_000
MAX_LINE_CHARS = 1_000  # a hit's line (and each context line) is cut here: minified code has huge lines
MAX_REPARSED = 50  # stale files whose symbols are re-parsed for the enclosing names; beyond, stored ranges
NO_SYMBOL_KINDS = ("module", "window")  # chunks that are not symbols: never an "enclosing" name


class GrepError(ValueError):
    """A pattern that cannot be searched (empty, invalid regex, a newline); the message says why."""


# -- which strings a match cannot do without ---------------------------------------------------------
Required = list[list[str]]  # AND of groups, each an OR of strings


def required_literals(pattern: str, *, regex: bool) -> Required:
    """Groups of strings (AND of ORs) that every match contains, each at least three characters long;
    empty when the index cannot narrow the search (the files are then read in full).

    Case is ignored: the trigram index folds it."""
    if not regex:  # NUL ends an FTS5 string: the pieces around it are looked up instead
        return [[piece] for piece in pattern.split("\x00") if len(piece) >= grams.MIN_LITERAL]
    try:
        parsed = _sre.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return []
    try:
        reqs, _ = _sequence(list(parsed))
    except RecursionError:  # pragma: no cover - absurdly nested groups
        return []
    return [sorted(group) for group in dict.fromkeys(reqs)]


def _usable(group: frozenset[str]) -> bool:
    return bool(group) and all(len(s) >= grams.MIN_LITERAL for s in group)


def _sequence(items: list[tuple[Any, Any]]) -> tuple[list[frozenset[str]], str | None]:
    """(required groups, the exact string when the sequence matches only that string) of a parsed
    sequence. Adjacent literals (also across groups and ``+`` repeats) are joined into one string."""
    reqs: list[frozenset[str]] = []
    run = ""
    exact = True

    def flush() -> None:
        nonlocal run
        if len(run) >= grams.MIN_LITERAL:
            reqs.append(frozenset([run]))
        run = ""

    for op, av in items:
        if op is _c.LITERAL and av not in (10, 0):  # a newline never matches (per line); NUL ends FTS5 text
            run += chr(av)
        elif op is _c.AT:  # ^ $ \b: zero width, the literals around it are still adjacent
            exact = False
        elif op is _c.SUBPATTERN or op is getattr(_c, "ATOMIC_GROUP", None):
            inner = list(av[-1]) if op is _c.SUBPATTERN else list(av)
            sub, sub_exact = _sequence(inner)
            if sub_exact is not None:
                run += sub_exact
            else:
                flush()
                reqs += sub
                exact = False
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            low, high, inner = av
            exact = False
            if low < 1:
                flush()
                continue
            sub, sub_exact = _sequence(list(inner))
            if sub_exact:
                run += sub_exact  # the first repetition follows what came before
                if high != 1:
                    flush()
                    run = sub_exact  # ... and the last one precedes what comes after
            else:
                flush()
                reqs += sub
        elif op is _c.BRANCH:
            exact = False
            flush()
            reqs += _branch(av[1])
        else:  # classes, any character, back-references, look-arounds: the run ends here
            exact = False
            flush()
    flush_exact = run if exact else None
    flush()
    return [g for g in reqs if _usable(g)], flush_exact if exact else None


def _branch(alternatives: list[Any]) -> list[frozenset[str]]:
    """One OR group for an alternation when every alternative needs a string: the most selective
    group of each (its shortest string the longest), joined."""
    chosen: set[str] = set()
    for alternative in alternatives:
        reqs, exact = _sequence(list(alternative))
        if exact is not None and len(exact) >= grams.MIN_LITERAL:
            reqs = [frozenset([exact])]
        if not reqs:
            return []
        chosen |= max(reqs, key=lambda g: (min(len(s) for s in g), -len(g)))
    return [frozenset(chosen)]


# -- matching --------------------------------------------------------------------------------------
def compile_pattern(pattern: str, *, regex: bool, case_sensitive: bool) -> re.Pattern[str]:
    """The compiled pattern (a literal is escaped); raises GrepError with the reason."""
    if not pattern:
        raise GrepError("the pattern is empty: give a string or a regex to look for")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise GrepError(f"the pattern is {len(pattern):,} characters long; at most {MAX_PATTERN_CHARS:,} are accepted")
    try:
        pattern.encode("utf-8")
    except UnicodeEncodeError:
        raise GrepError("the pattern is not valid Unicode (a lone surrogate)") from None
    if "\n" in pattern and not regex:
        raise GrepError("the pattern holds a newline: matches are searched line by line, like ripgrep")
    flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
    try:
        return re.compile(pattern if regex else re.escape(pattern), flags)
    except (re.error, RecursionError, OverflowError) as exc:
        raise GrepError(f"invalid regex {pattern!r}: {exc}") from None


def matching_lines(text: str, compiled: re.Pattern[str], literal: str | None = None,
                   anchor: str | None = None) -> list[tuple[int, int, str]]:
    """(line number, column, line) of every line of ``text`` holding a match, 1-based.

    ``literal``: the pattern is this exact string, found with ``str.find``. ``anchor``: a string every
    match contains; only the lines holding it are searched with the regex (each line on its own).
    Otherwise the regex runs over the whole text and a match that would span lines is checked again
    within its first line alone, so the answer is always ripgrep's line-by-line one."""
    out: list[tuple[int, int, str]] = []
    needle = literal if literal is not None else anchor
    if needle is not None and needle not in text:
        return out
    pos, line_no, counted_to, size = 0, 1, 0, len(text)
    while pos <= size:
        if needle is not None:
            start = text.find(needle, pos)
            if start < 0:
                break
            end = start + len(needle) if literal is not None else size + 1  # an anchor: search its line
        else:
            m = compiled.search(text, pos)
            if m is None:
                break
            start, end = m.start(), m.end()
        line_start = text.rfind("\n", 0, start) + 1
        if line_start >= size and (size == 0 or text[-1] == "\n"):
            break  # an empty match after the last newline: there is no line there
        line_end = text.find("\n", start)
        line_end = size if line_end < 0 else line_end
        if end > line_end:  # an anchor's line, or a match that spans lines: search this line alone
            m = compiled.search(text, line_start, line_end)
            start = m.start() if m is not None else -1
        if start >= 0:
            line_no += text.count("\n", counted_to, line_start)
            counted_to = line_start
            out.append((line_no, start - line_start + 1, text[line_start:line_end].rstrip("\r")))
        pos = line_end + 1
    return out


# -- enclosing symbols -----------------------------------------------------------------------------
@dataclass(slots=True)
class _Spans:
    """A file's symbol line ranges, for the innermost one covering a line."""

    spans: list[tuple[int, int, str, str]] = field(default_factory=list)  # (start, end, qualified, kind)
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.spans.sort(key=lambda s: (s[0], -s[1]))  # same start: the outer one first
        self.starts = [s[0] for s in self.spans]

    def at(self, line: int) -> tuple[str, str] | None:
        """(qualified name, kind) of the innermost span covering ``line``: symbols nest, so the covering
        span that starts last."""
        for i in range(bisect_right(self.starts, line) - 1, -1, -1):
            start, end, qualified, kind = self.spans[i]
            if end >= line:
                return qualified, kind
        return None


def _stored_spans(ws: "Workspace", file_id: int) -> _Spans:
    return _Spans(ws.store.file_spans(file_id, NO_SYMBOL_KINDS))


def _live_spans(text: str, path: str) -> _Spans:
    from codesift.languages import language_for
    from codesift.parse import extract_chunks

    chunks = extract_chunks(text, language_for(path) or "text", path)
    return _Spans([(c.start_line, c.end_line, c.qualified_name, c.kind) for c in chunks
                   if c.kind not in NO_SYMBOL_KINDS])


# -- the tool --------------------------------------------------------------------------------------
def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + "…"


_UNINDEXED: "weakref.WeakKeyDictionary[Workspace, tuple[tuple[str | None, ...], bool]]" = weakref.WeakKeyDictionary()


def _any_unindexed(ws: "Workspace") -> bool:
    """Whether some file has no text in the trigram index (see ``grams.unindexed``); asked again only
    when files were written since (a query over every file: ~3 ms at 4k files)."""
    key = (ws.store.get_meta("files_generation"), ws.store.get_meta("next_chunk_id"))
    cached = _UNINDEXED.get(ws)
    if cached is None or cached[0] != key:
        cached = (key, bool(ws.store.grep_unindexed()))
        _UNINDEXED[ws] = cached
    return cached[1]


def _files(ws: "Workspace", required: Required, filters: Filters) -> tuple[list[Any], str]:
    """The files to read, by path, and how they were chosen."""
    unindexed = ws.store.grep_unindexed(filters) if required and _any_unindexed(ws) else []
    if required:
        rows = ws.store.grep_candidates(required, filters)
        strategy = "index"
    else:
        rows = ws.store.files_where(filters)
        strategy = "scan"
    if unindexed and required:
        seen = {r[0] for r in rows}
        rows = sorted([*rows, *(r for r in unindexed if r[0] not in seen)], key=lambda r: r[1])
    return rows, strategy


def grep(ws: "Workspace", pattern: str, *, regex: bool = False, path: str | None = None,
         language: str | list[str] | None = None, service: str | list[str] | None = None, case_sensitive: bool = True,
         context_lines: int = 0, limit: int = 100, offset: int = 0) -> GrepAnswer:
    """Lines matching ``pattern`` (a literal, or a Python regex with ``regex``) in the indexed files,
    by path and line, with the innermost enclosing symbol; ``offset``/``limit`` page through them."""
    started = time.perf_counter()
    if limit < 1:
        raise GrepError("limit must be a positive integer")
    if offset < 0 or context_lines < 0:
        raise GrepError("offset and context_lines must be >= 0")
    compiled = compile_pattern(pattern, regex=regex, case_sensitive=case_sensitive)
    literal = pattern if not regex and case_sensitive else None
    filters = ws.filters(path, language, None, service)
    check_path_in_services(filters)
    required = required_literals(pattern, regex=regex)
    rows, strategy = _files(ws, required, filters)
    # The index matched trigrams in any order and case: the strings themselves rule out most of the rest
    # before the regex runs (exact code points only when no flag can make the regex ignore case).
    prefilter = required if regex and case_sensitive and "(?" not in pattern else []
    singles = [group[0] for group in prefilter if len(group) == 1]
    anchor = max(singles, key=len) if singles else None  # only its lines are searched with the regex
    total_files = ws.store.count_files(filters)
    want = offset + limit
    hits: list[GrepHit] = []
    skipped = 0  # hits before ``offset`` in files wholly before it: counted, not kept
    stale: list[str] = []
    missing: list[str] = []
    files_read = 0
    files_with_hits = reparsed = 0
    more = False
    for file_id, rel, digest in rows:
        try:
            data = ws.read(rel)
        except OSError:
            missing.append(rel)
            continue
        files_read += 1
        is_stale = content_hash(data) != digest
        if is_stale:
            stale.append(rel)
        text, _ = decode_source(data)
        if prefilter and not all(any(s in text for s in group) for group in prefilter):
            continue
        found = matching_lines(text, compiled, literal, anchor)
        if not found:
            continue
        files_with_hits += 1
        if skipped + len(hits) + len(found) <= offset:  # a page further on: this file's hits are only counted
            skipped += len(found)
            continue
        reparse = is_stale and reparsed < MAX_REPARSED
        reparsed += reparse
        spans = _live_spans(text, rel) if reparse else _stored_spans(ws, file_id)
        lines = text.split("\n") if context_lines else []
        for line_no, column, line in found:
            if skipped + len(hits) >= want:
                more = True
                break
            where_in = spans.at(line_no)
            hit: GrepHit = {"path": rel, "line": line_no, "column": column, "text": _clip(line),
                            "enclosing": where_in[0] if where_in else None,
                            "enclosing_kind": where_in[1] if where_in else None}
            if is_stale:
                hit["stale"] = True
            if context_lines:
                lo = max(1, line_no - context_lines)
                hit["before"] = [_clip(s.rstrip("\r")) for s in lines[lo - 1 : line_no - 1]]
                hit["after"] = [_clip(s.rstrip("\r")) for s in lines[line_no : line_no + context_lines]]
            hits.append(hit)
        if more:
            break
    notes = _notes(strategy, required, stale, missing, regex)
    if not total_files:  # explain the empty answer
        notes += ws.filter_notes(filters)
    results = hits[offset - skipped:]
    return {
        "pattern": pattern, "regex": regex, "case_sensitive": case_sensitive, "context_lines": context_lines,
        "offset": offset, "limit": limit, "results": results, "more": more,
        "total": None if more else skipped + len(hits), "files_with_hits": files_with_hits,
        "strategy": strategy, "literals": required, "candidate_files": len(rows), "files_read": files_read,
        "indexed_files": total_files, "stale_files": stale, "missing_files": missing, "notes": notes,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }


def _notes(strategy: str, required: Required, stale: list[str], missing: list[str], regex: bool) -> list[str]:
    notes = []
    if strategy == "scan":
        why = ("the regex has no literal of 3+ characters that every match must contain" if regex
               else "a literal under 3 characters cannot use the trigram index")
        notes.append(f"no index narrowing: every indexed file that passes the filters is read (in path order, "
                     f"until the limit is reached): {why}")
    if stale:
        shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
        notes.append(f"index stale for {len(stale)} file(s) ({shown}): hits come from the live file, but "
                     "files changed since indexing may be missing from the candidates; run `codesift index`")
    if missing:
        notes.append(f"{len(missing)} indexed file(s) no longer exist (e.g. {missing[0]}); run `codesift index`")
    return notes
