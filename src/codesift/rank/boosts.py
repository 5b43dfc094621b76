"""Score adjustments that depend on one candidate and the query: pure functions, no I/O."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from codesift.datatypes import DEFINITION_KINDS, NOT_DEFINITIONS
from codesift.languages import is_example_path, is_test_path, language_for
from codesift.text.tokens import split_identifier, tokenize
from codesift.rank.candidate import Candidate
from codesift.rank.diversity import code_start
from codesift.query.shape import bare_name

_IMPORTANT_FILE = re.compile(
    r"^(readme(\..*)?|__init__\.py|main\.[a-z]+|index\.[jt]sx?|config\.[a-z]+|settings\.py)$", re.I)
DOC_KINDS = frozenset({"section"})
PROSE_LANGUAGES = frozenset({"markdown", "rst", "asciidoc", "text", "latex"})


def is_prose(kind: str, language: str) -> bool:
    """Documentation rather than code: Markdown sections and windows of prose files."""
    return kind in DOC_KINDS or language in PROSE_LANGUAGES


_DAY = 86_400.0


# One import/package/include statement, in any of the grammar languages.
_IMPORT_LINE = re.compile(
    r"""^(?:import\b|from\s+[\w.]+\s+import\b|package\s+[\w.]+;?$|(?:pub(?:\([\w:]+\))?\s+)?use\s+[\w:{]"""
    r"""|extern\s+crate\b|mod\s+\w+;$|\#\s*include\b|\#pragma\s+once|using\s+[\w.]+\s*;|namespace\s+[\w.\\]+;"""
    r"""|require(?:_relative|_once)?\b|(?:const|let|var)\s+[\w{}\s,:]+=\s*require\s*\("""
    r"""|export\s+(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\b)"""
)
# The rest of a multi-line import: a Go import line (``alias "path"``), names and brackets, a closing
# ``} from``; and JavaScript's ``'use strict'``.
_IMPORT_CONTINUATION = re.compile(
    r"""^(?:[\w.]*\s*"[^"]*"|[\w\s,{}()*:.\\]*|[\w\s,]*\}\s*from\s+\S+|["']use strict["'])\s*;?$""")
_IMPORT_SHARE = 0.8


def is_doc_block(text: str) -> bool:
    """A lone ``/** … */`` comment: mostly the doc of the code below it. One blank line above a definition, at its
    indentation, the parser makes it the definition's doc (express, koa and commander write their JSDoc so);
    what is left here sits above module code or farther off, and consolidation joins it to its neighbour when
    both are candidates."""
    t = text.strip()
    return t.startswith("/**") and t.endswith("*/") and t.count("*/") == 1


def is_import_block(kind: str, text: str) -> bool:
    """Module-level code that is only imports (and package lines): a location, never an answer to a search."""
    if kind != "module":
        return False
    lines = [s for s in (line.strip() for line in text.split("\n"))
             if s and not s.startswith(("//", "/*", "*", "# ", "#!"))]
    statements = sum(1 for s in lines if _IMPORT_LINE.match(s))
    if not statements:
        return False
    rest = sum(1 for s in lines if not _IMPORT_LINE.match(s) and _IMPORT_CONTINUATION.match(s))
    return statements + rest >= _IMPORT_SHARE * len(lines)


# Attributes/annotations/decorators that mark a test or test-only scope.
_TEST_DECORATOR = re.compile(
    r"^(#\[\s*(cfg\s*\(\s*test\s*\)|test\b|\w+::test\b|rstest\b|test_case\b)"
    r"|@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b"
    r"|@pytest\.(fixture|mark)\b)"
)
_JS_TEST_CALL = re.compile(r"^\s*(describe|it|test|suite)(\.\w+)*\s*\(")
_PY_MAIN_BLOCK = re.compile(r"^\s*if\s+__name__\s*==")


def is_test_code(name: str, qualified_name: str, kind: str, language: str, text: str,
                 decorators: tuple[str, ...] | list[str] = ()) -> bool:
    """Test code inside a source file: Rust ``#[test]`` fns and ``#[cfg(test)] mod tests``, Java/Kotlin
    ``@Test`` methods, pytest-marked or ``test_*`` Python functions and ``Test*`` classes, a Python
    ``if __name__ == "__main__"`` block, JavaScript/TypeScript ``describe(…)``/``it(…)`` blocks."""
    if any(_TEST_DECORATOR.match(d.strip()) for d in decorators):
        return True
    if language == "rust" and qualified_name.split(".", 1)[0] in ("tests", "test") and "." in qualified_name:
        return True
    if language == "python":
        if kind in ("function", "method") and name.startswith("test_"):
            return True
        if kind == "class" and re.match(r"Test[A-Z_]", name):
            return True
        if kind == "module" and _PY_MAIN_BLOCK.match(text):
            return True
    if kind == "module" and language in ("javascript", "typescript", "tsx") and _JS_TEST_CALL.match(text):
        return True
    return False


_TEST_WORDS = frozenset({"test", "tests", "spec", "specs", "fixture", "fixtures", "pytest", "unittest"})
_VERB_FOLLOWERS = frozenset({"whether", "if", "that"})  # "test whether …": the verb, not test code


def query_wants_tests(query: str) -> bool:
    """True when the query asks about tests (then tests are not demoted); ``for unit tests, …`` too."""
    words = re.findall(r"[a-z0-9_]+", query.lower())
    return any(w in _TEST_WORDS and not (w == "test" and i + 1 < len(words) and words[i + 1] in _VERB_FOLLOWERS)
               for i, w in enumerate(words))


# A name with the query's parts (``cookie_jar`` ~ ``CookieJar``, ``_bigint`` ~ ``bigint``) or the right name
# of another type (``Other::new`` ~ ``Point.new``): below the half bonus a name's other definitions keep
# (``RankSettings.namesake_factor``), so that any definition of the very name outranks it.
PARTIAL_MATCH = 0.45
# The name but for a trailing ``?``/``!``/``=``: the question's punctuation, or Ruby's ``save`` for ``save!``.
BARE_MATCH = 0.7


def name_match(identifiers: list[str], name: str, qualified_name: str, path: str = "", package: str = "") -> float:
    """How well a query identifier names this symbol: 1.0 for its name (case-insensitive), its qualified
    name or a tail of it, also after the package or namespace its file declares (Go's ``chi.URLParam``,
    ``chi.Mux.Handle``; C#'s ``Polly.Retry.RetryHelper``); 0.8 for ``qualifier.name`` where the qualifier is
    the file's folder or stem (Go ``pkg.Func``, Python ``module.func``); ``BARE_MATCH`` for one of those but
    for a trailing ``?``/``!``/``=``; ``PARTIAL_MATCH`` for the same camel/snake parts (``cookie_jar`` ~
    ``CookieJar``) or the right name under another qualifier; else 0. Qualifiers are dotted (see
    ``shape.identifier_words``)."""
    if not identifiers or not name:
        return 0.0
    lname, lqual, package = name.lower(), qualified_name.lower(), package.lower()
    parts: list[str] | None = None  # split only when a comparison needs it
    best = 0.0
    for ident in identifiers:
        li = ident.lower()
        if li == lname or li == lqual or lqual.endswith("." + li) or (
                package and _in_package(li, package, lqual, path)):
            return 1.0
        bare = bare_name(li)  # ``parse_args?`` asked as a question; ``save!`` where only ``save`` exists
        if bare != li and (bare == lname or bare == lqual or lqual.endswith("." + bare)):
            best = max(best, BARE_MATCH)
            continue
        qualifier, dot, last = li.rpartition(".")
        if dot and last == lname:
            where = [p.lower() for p in path.split("/")]
            if where and qualifier.rsplit(".", 1)[-1] in (*where[:-1], where[-1].split(".", 1)[0]):
                # Go's ``pkg.Func``; below a qualified name's own match (``Error.formatted`` in
                # src/error/mod.rs is not ``Message.formatted`` of the same file)
                best = max(best, 0.8)
                continue
            best = max(best, PARTIAL_MATCH)
        elif _may_share_parts(ident, lname):
            if parts is None:
                parts = split_identifier(name)
            if parts and list(_parts(ident)) == parts:
                best = max(best, PARTIAL_MATCH)
    return best


def _in_package(ident: str, package: str, lqual: str, path: str = "") -> bool:
    """Whether ``ident`` is the qualified name with the tail of its file's package or namespace in front:
    ``chi.urlparam``, ``polly.retry.retryhelper.run`` or ``retry.retryhelper.run``, C++'s ``os.now`` in
    ``spdlog.details.os``. In a C or C++ file (``path``), the head of it too: such a file's namespace is the first
    one it opens (``spdlog.details``), and its later definitions may sit in the enclosing one
    (``spdlog::pattern_formatter``); a Java or Kotlin file's package is exact."""
    full = f"{package}.{lqual}"
    if ident == full or full.endswith("." + ident):
        return True
    head = ident[: -len(lqual) - 1] if ident.endswith("." + lqual) else ""
    return bool(head) and f"{package}.".startswith(head + ".") and language_for(path) in ("c", "cpp")


@lru_cache(maxsize=1024)
def _parts(ident: str) -> tuple[str, ...]:
    return tuple(split_identifier(ident))


def _may_share_parts(ident: str, lname: str) -> bool:
    """False when ``ident`` and the lower-cased name ``lname`` cannot split into the same parts: the parts of a
    name of ASCII letters, digits and ``_`` spell it without its underscores. Most candidates of an identifier
    query fail this, and splitting each one's name was a quarter of ranking's time."""
    squeezed = lname.replace("_", "")
    return not (squeezed.isascii() and squeezed.isalnum()) or squeezed == "".join(_parts(ident))


def drop_aliases(identifiers: list[str], unknown: frozenset[str], cands: list[Candidate],
                 packages: dict[str, str] | None = None) -> list[str]:
    """``identifiers`` with a qualifier that is only an import alias dropped (``np.array``, ``_.debounce``):
    ``z.object`` is ``object`` when ``z`` (in ``unknown``: it names no definition) is no folder or file stem
    of the candidates, nor in the package / namespace their files declare (``packages``: path → dotted), nor a parent in
    the qualified names of those outside tests (Express's ``res.get``). ``Point::new`` and Go's ``pkg.Func``
    keep theirs."""
    if not unknown:
        return identifiers
    places: set[str] = set()
    for c in cands:
        parts = c.path.lower().split("/")
        places.update(parts[:-1])
        places.add(parts[-1].split(".", 1)[0])
        if packages and c.path in packages:
            places.update(packages[c.path].lower().split("."))
        if not is_test_path(c.path):  # a test patching ``z.ZodType.prototype`` does not define ``z``
            places.update(c.qualified_name.lower().split(".")[:-1])
    out = []
    for ident in identifiers:
        qualifier, dot, last = ident.rpartition(".")
        q = qualifier.rsplit(".", 1)[-1].lower()
        out.append(last if dot and q in unknown and q not in places else ident)
    return out


TYPE_ONLY_KINDS = frozenset({"interface", "type"})
# Definitions that declare data or signatures and run nothing (``RankSettings.declaration_factor``).
DECLARATION_KINDS = frozenset({"struct", "interface", "enum", "type"})
# Files of declarations only: TypeScript's ``.d.ts`` typings and Python's ``.pyi`` stubs. Their classes and
# methods are signatures with docs (commander's typings/index.d.ts repeats every documented method of lib/).
DECLARATION_FILE_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".pyi")


# The method a language's convention calls to render an object as text, by its signature: Go's Stringer and
# error (``String() string``, ``Error() string``), Java's, JavaScript's and C#'s ``toString()``, Python's
# ``__repr__``/``__str__``, Ruby's ``to_s``, Rust's ``Display``/``Debug`` ``fmt(&self, f: &mut Formatter)``.
# Its text holds the messages and names of what it describes, so it matches a question about that behaviour
# (cli's ``mutuallyExclusiveGroup.Error`` above the check that returns it) without doing any of it.
_STRINGIFIER = re.compile(
    r"\b(?:String|GoString|Error|toString|ToString)\s*\(\s*\)"
    r"|\b__(?:repr|str)__\s*\(\s*self\s*\)"
    r"|\bdef\s+to_s\b"
    r"|\bfn\s+fmt\s*\(\s*&\s*self\s*,\s*\w+\s*:\s*&\s*mut\s+(?:\w+::)*Formatter\b"
)
STRINGIFIER_NAMES = frozenset({"String", "GoString", "Error", "toString", "ToString", "__repr__", "__str__",
                               "to_s", "fmt"})
# Words of a question about an object's text: it may want the stringifier itself (a Rust ``Display`` impl that
# formats a duration or pads a column is the implementation).
_TEXT_WORDS = frozenset(tokenize(
    "show print format display string text message describe description render repr representation readable"
    " stringify"))


def is_stringifier(name: str, kind: str, text: str) -> bool:
    """A method by one of the conventional names whose signature is the convention's (see ``_STRINGIFIER``)."""
    return kind == "method" and name in STRINGIFIER_NAMES and bool(_STRINGIFIER.search(text[:400]))


_BOOL_RESULT = re.compile(
    r"->\s*(?:bool|Bool|boolean)\b"
    r"|\)\s*:\s*(?:boolean|Boolean|bool)\b"
    r"|\)\s*:\s*(?:asserts\s+)?\w+\s+is\s+\w"
    r"|\)\s*bool\s*$"
    r"|\b(?:boolean|bool|Boolean|BOOL)\s+[\w.:]+\s*(?:<[^<>]*>\s*)?\("
)
_QUESTION_HEADS = frozenset({"is", "has", "can", "should", "needs", "must", "does", "was", "are"})


def is_predicate(name: str, kind: str, text: str) -> bool:
    """A function or method that answers yes or no: its signature declares a boolean result (``-> bool``,
    ``): boolean``, Go's ``) bool``, ``boolean isX(``, TypeScript's ``x is T``), or its name asks a question
    (``isX``, ``has_key``, Ruby's ``empty?``) where nothing is declared."""
    if kind not in ("function", "method"):
        return False
    head = re.split(r"\{|:\s*\n", code_start(text[:800]), maxsplit=1)[0]  # after its doc comment
    if _BOOL_RESULT.search(head) or name.endswith("?"):
        return True
    parts = split_identifier(name)
    return len(parts) > 1 and parts[0] in _QUESTION_HEADS


def asks_yes_or_no(query: str) -> bool:
    """The sentence asks for a predicate: it opens with "whether", or with a verb and "whether" or "if"
    (``check whether the value needs quoting``, ``decide if a flag is hidden``), not a step that mentions one
    (``…, then decide whether to flush``) nor a condition (``if the flag is set, print …``)."""
    words = tokenize(query, keep_stop_words=True)[:3]
    return "whether" in words or "if" in words[1:]


def asks_for_text(query: str | set[str]) -> bool:
    """Whether the query has a word about showing, formatting or describing something as text. ``query`` may be
    given as its index terms (the ranking has them already)."""
    return not _TEXT_WORDS.isdisjoint(tokenize(query) if isinstance(query, str) else query)


def is_declaration_file(path: str) -> bool:
    """A typings or stub file: every definition in it is a declaration."""
    return path.endswith(DECLARATION_FILE_SUFFIXES)


def namesakes(cands: list[Candidate], spelled: frozenset[str] = frozenset(),
              kinds: frozenset[str] = frozenset()) -> dict[int, list[Candidate]]:
    """Per name defined more than once among ``cands`` (case aside): the implementation's chunk id → the
    other definitions. The implementation is a definition (not a block of module code named after its
    file), of a kind the query asks for (``class Session``) when it names one, spelled as the query spells
    it (``Session`` the class, ``session`` the function) when one is, then not a type-only declaration, not
    a Rust ``impl`` block of the type, not test code, then the longest body."""
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        groups.setdefault(c.name.lower(), []).append(c)
    out: dict[int, list[Candidate]] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        best = max(group, key=lambda c: (
            c.kind not in NOT_DEFINITIONS, c.kind in kinds, c.name in spelled,
            c.kind not in TYPE_ONLY_KINDS or c.kind in kinds, c.kind != "impl" or c.kind in kinds,
            not (is_test_path(c.path) or is_example_path(c.path)
                 or is_test_code(c.name, c.qualified_name, c.kind, c.language, c.text, c.decorators)),
            c.end_line - c.start_line, -c.chunk_id,
        ))
        out[best.chunk_id] = [c for c in group if c is not best]
    return out


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def holds_line(text: str, line: str) -> bool:
    """``text`` holds the pasted definition ``line`` as written, spacing and a trailing ``{``/``:`` aside
    (``func Equal(…) bool`` is not ``func Equal(…)``, which returns nothing)."""
    want = _squeezed(line).rstrip("{:;")
    return bool(want) and want in _squeezed(text)


def query_words(query: str) -> list[str]:
    """The query's lower-cased alphanumeric words, as :func:`phrase_name_match` compares them."""
    return re.findall(r"[a-z0-9]+", query.lower())


def phrase_name_match(query: str | list[str], name: str) -> float:
    """For plain-word queries: 1.0 when the words spell the symbol name's parts (``cookie jar`` ~ ``CookieJar``).
    ``query`` may be given as its :func:`query_words` (computed once for many names)."""
    words = query_words(query) if isinstance(query, str) else query
    # Cheap tests first: the words must at least spell the name once separators are dropped.
    if len(words) < 2:
        return 0.0
    spelled = "".join(words)
    if len(spelled) > len(name) or spelled != re.sub(r"[^a-z0-9]", "", name.lower()):
        return 0.0
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
    # Rounded: a score must not drift between two calls a second apart (ties would flip).
    return round(math.exp(-0.693 * age_days / half_life_days), 3)


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
