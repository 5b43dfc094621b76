"""Score adjustments that depend on one candidate and the query: pure functions, no I/O."""

from __future__ import annotations

import math
import re

from ..model import DEFINITION_KINDS
from ..tokenize import split_identifier, tokenize

_TEST_DIRS = frozenset({"test", "tests", "testing", "spec", "specs", "__tests__", "e2e", "testdata"})
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample", "demo", "demos", "benchmarks", "bench"})
_TEST_FILE = re.compile(
    r"(^test_.*|.*_test\.[a-z]+|.*\.(test|spec)\.[jt]sx?|conftest\.py|.*Tests?\.(java|kt|cs)|.*_spec\.rb)$"
)
_IMPORTANT_FILE = re.compile(r"^(readme(\..*)?|__init__\.py|main\.[a-z]+|index\.[jt]sx?|config\.[a-z]+|settings\.py)$", re.I)
DOC_KINDS = frozenset({"section"})
PROSE_LANGUAGES = frozenset({"markdown", "rst", "asciidoc", "text", "latex"})


def is_prose(kind: str, language: str) -> bool:
    """Documentation rather than code: Markdown sections and windows of prose files."""
    return kind in DOC_KINDS or language in PROSE_LANGUAGES
_DAY = 86_400.0


def is_test_path(path: str) -> bool:
    """Tests, specs and fixtures: by folder name or by file-name convention."""
    parts = path.split("/")
    return any(p.lower() in _TEST_DIRS for p in parts[:-1]) or bool(_TEST_FILE.match(parts[-1]))


def is_example_path(path: str) -> bool:
    return any(p.lower() in _EXAMPLE_DIRS for p in path.split("/")[:-1])


def query_wants_tests(query: str) -> bool:
    return any(t in {"test", "tests", "spec", "fixture", "pytest", "unittest"} for t in query.lower().split())


def name_match(identifiers: list[str], name: str, qualified_name: str) -> float:
    """1.0 when a query identifier is the symbol's name (case-insensitive, or its qualified tail);
    0.6 when it has the same camel/snake parts (``cookie_jar`` ~ ``CookieJar``); else 0."""
    if not identifiers or not name:
        return 0.0
    lname, lqual = name.lower(), qualified_name.lower()
    parts = split_identifier(name)
    best = 0.0
    for ident in identifiers:
        li = ident.lower()
        if li == lname or li == lqual or lqual.endswith("." + li):
            return 1.0
        if parts and split_identifier(ident) == parts:
            best = 0.6
    return best


def phrase_name_match(query: str, name: str) -> float:
    """For plain-word queries: 1.0 when the words spell the symbol name's parts (``cookie jar`` ~ ``CookieJar``)."""
    words = [w for w in re.findall(r"[A-Za-z0-9]+", query.lower())]
    parts = split_identifier(name)
    return 1.0 if len(parts) > 1 and words == parts else 0.0


def path_overlap(query_terms: set[str], path: str) -> float:
    """Share of the query's terms that appear in the file path (``session`` → ``sessions.py``)."""
    if not query_terms:
        return 0.0
    path_terms = set(tokenize(path.rsplit(".", 1)[0]))
    return len(query_terms & path_terms) / len(query_terms)


def recency(mtime: float, now: float, half_life_days: float = 7.0) -> float:
    """e^(−0.693·age/half-life): 1 for a file touched now, 0.5 after one half-life."""
    if mtime <= 0:
        return 0.0
    age_days = max(0.0, now - mtime) / _DAY
    return math.exp(-0.693 * age_days / half_life_days)


def rerank_factor(kind: str, language: str, path: str, text: str, recent: float,
                  docs_factor: float = 1.05) -> tuple[float, dict[str, float]]:
    """The multiplicative re-rank boosts for one candidate, with the factors that applied."""
    factors: dict[str, float] = {}
    if kind in DEFINITION_KINDS:
        factors["definition"] = 1.10
    elif is_prose(kind, language):
        factors["docs"] = docs_factor
    if _IMPORTANT_FILE.match(path.rsplit("/", 1)[-1]):
        factors["important_file"] = 1.05
    if recent > 0.5:
        factors["recent"] = 1.0 + 0.02 * recent
    size = len(text.strip())
    if size < 50:
        factors["tiny"] = 0.90
    elif size > 400:
        factors["substantial"] = 1.02
    total = 1.0
    for f in factors.values():
        total *= f
    return total, factors
