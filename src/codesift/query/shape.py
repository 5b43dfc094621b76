"""Classify a query's shape and pick the keyword/vector RRF weights for it.

Identifier-like queries are answered best by exact terms; sentences by the dense model. Equal-weight
fusion of a weak and a strong list hurts, so the weights follow the shape.
"""

from __future__ import annotations

import re
from enum import Enum

from codesift.datatypes import dotted

_WORD = re.compile(r"[^\s]+")
# A C++ destructor's name begins with ``~``. A trailing ``?``, ``!`` or ``=`` is part of the name in Ruby
# (``empty?``, ``save!``, the setter ``root=``) and ``?`` a sentence's punctuation elsewhere (``who calls
# parse_args?``): kept here, told apart by ``boosts.name_match``.
# C++ and C# name an operator by its symbol (``operator==``, ``Matrix::operator[]``); ``->`` aside, which reads as a
# qualifier, and ``operator()`` spelled out by :func:`_uncalled`.
_OPERATOR = r"operator(?:\(\)|\[\]|<=>|<<=|>>=|<<|>>|&&|\|\||\+\+|--|[-+*/%^&|~!=<>]=?)"
_SEGMENT = rf"(?:{_OPERATOR}|~?[A-Za-z_$][\w$]*)"
_IDENTISH = re.compile(rf"^(?:::|\\)?{_SEGMENT}(?:(?:\.|::|->|#|\\){_SEGMENT})*[?!=]?(?:\(\))?$")
_OPERATOR_NAME = re.compile(rf"(?:^|\.|::){_OPERATOR}$")


class QueryShape(str, Enum):
    IDENTIFIER = "identifier"  # 1–2 tokens, at least one looks like code (snake, camel, dotted)
    SINGLE_WORD = "single_word"  # one plain word
    MOSTLY_IDENTIFIERS = "mostly_identifiers"  # half or more of the words look like code
    NATURAL_LANGUAGE = "natural_language"  # 4+ plain words
    OTHER = "other"


# (keyword, vector). The keyword side is 2× the weights first tuned on four Python/JavaScript corpora: MiniLM is
# the weaker retriever outside Python. why: docs/design-decisions.md#shape-weights
DEFAULT_WEIGHTS: dict[QueryShape, tuple[float, float]] = {
    QueryShape.IDENTIFIER: (3.0, 0.6),
    QueryShape.SINGLE_WORD: (2.4, 0.9),
    QueryShape.MOSTLY_IDENTIFIERS: (2.6, 0.8),
    QueryShape.NATURAL_LANGUAGE: (2.4, 1.0),
    QueryShape.OTHER: (2.0, 1.0),
}


def looks_like_identifier(word: str) -> bool:
    """snake_case, camelCase, PascalCase with an inner capital, dotted paths, ``foo()``, ``__init__``."""
    word = _clean(word)
    if not _IDENTISH.match(word):
        return False
    core = word.rstrip("()").rstrip("?!=")
    return (
        "_" in core
        or _OPERATOR_NAME.search(word.rstrip("()")) is not None
        or any(sep in core for sep in (".", "::", "->", "#", "\\"))
        or bool(re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|^[A-Z][a-z]+[A-Z]", core))
        or word.endswith("()")
    )


# Words naming the kind of definition asked for (``class Session``, ``type Command struct``, ``fn main``)
# → the chunk kinds they mean; and the filler around them (``find the Session class``).
_CALLABLE = frozenset({"function", "method"})
KIND_WORDS: dict[str, frozenset[str]] = {
    "class": frozenset({"class"}), "struct": frozenset({"struct"}), "interface": frozenset({"interface"}),
    "trait": frozenset({"trait"}), "enum": frozenset({"enum"}), "impl": frozenset({"impl"}),
    "type": frozenset({"type", "struct", "interface", "enum", "class"}),
    "def": _CALLABLE, "func": _CALLABLE, "fn": _CALLABLE, "function": _CALLABLE,
    "method": frozenset({"method"}),
}
_FILLER = frozenset({"find", "show", "the", "a", "an", "where", "is", "defined", "definition", "declaration", "of"})


# A pasted definition line: modifiers and declaration words first, or ``Type name(`` (Java, C, C#).
_DECL_START = re.compile(
    r"^\s*(?:(?:export|default|pub(?:\([\w:]+\))?|public|private|protected|internal|static|final|abstract|"
    r"override|async|unsafe|extern|inline|virtual|const|open|suspend)\s+)*"
    r"(?P<kw>def|func|fn|function|fun|class|struct|interface|trait|enum|type|impl|module|record|object)\b")
# C/C++ export macros (``LUALIB_API``, ``SPDLOG_INLINE``: capitals with an underscore) and ``const`` may lead.
_TYPED_START = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|"
                          r"synchronized|async|sealed|extern|unsafe|inline|constexpr|const|unsigned|"
                          r"[A-Z][A-Z0-9]*_[A-Z0-9_]+)\s+)*"
                          r"[A-Za-z_][\w.:]*(?:<[^()]*>)?(?:\[\])*[*&?]*\s+[*&]*[A-Za-z_]\w*(?:<[^()]*?>)?"
                          r"(?:::~?[A-Za-z_]\w*)*\s*\(")
# A C function-like macro: ``#define luaL_checkint(L,n)``.
_MACRO_START = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\(")
_GO_RECEIVER = re.compile(r"^\s*func\s*\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)")
# C++'s Type::name( and Type<T>::name(
_CALLED = re.compile(r"([A-Za-z_$][\w$]*(?:<[^()]*?>)?(?:::[A-Za-z_$~][\w$]*)*[?!]?)\s*(?:<[^()]*>)?\s*\(")
# A C/C++ export macro may stand between the keyword and the name: ``class SPDLOG_API logger``.
_AFTER_KW = re.compile(r"\b(?:class|struct|interface|trait|enum|type|impl|module|record|object)\s+"
                       r"(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+\s+)?([A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*)")
_CODE_MARKS = re.compile(r"[(){}\[\]:;=<>,*&]")


# Declaration words that are plain English too ("object storage"), so only read in a pasted definition line.
_DECL_KINDS = {"fun": KIND_WORDS["function"], "module": frozenset({"module_def", "namespace"}),
               "object": frozenset({"class"}), "record": frozenset({"class", "struct"})}
# A first parameter that makes the definition a method: Python's ``self``/``cls``, Rust's ``&self``, ``&'a mut self``.
_SELF_PARAM = re.compile(r"\(\s*(?:&\s*(?:'\w+\s+)?)?(?:mut\s+)?(?:self|cls)\b")


def declared_name(query: str) -> tuple[str, frozenset[str]] | None:
    """(name, chunk kinds) of a pasted definition line — ``def list_domains(self) -> list[str]``,
    ``func (c *Command) Execute() error``, ``public Builder toBuilder()``, ``pub struct Config`` — else None."""
    if "\n" in query.strip():
        return None
    macro = _MACRO_START.match(query)
    if macro is not None:
        return macro.group(1), KIND_WORDS["function"]
    start = _DECL_START.match(query)
    if start is None and not _TYPED_START.match(query):
        return None
    kw = start.group("kw") if start else "function"
    receiver = _GO_RECEIVER.match(query)
    if receiver:
        return f"{receiver.group(1)}.{receiver.group(2)}", frozenset({"method"})
    callable_kw = kw in ("def", "func", "fn", "function", "fun")
    named = None if callable_kw else _AFTER_KW.search(query)  # ``class CodeBlock``, ``pub struct Config``
    rest = query[start.end():] if start else query
    called = named or _CALLED.search(rest)
    if called is None:
        return None
    name = re.sub(r"<[^()]*?>", "", called.group(1))
    code = _CODE_MARKS.search(query) or (named is not None and len(named.group(0).split()) > 2)  # an export macro
    if not code and not (name[:1].isupper() or looks_like_identifier(name)):
        return None  # "object storage" is English: ``class Session``-style queries are named_kind's
    if callable_kw and _SELF_PARAM.match(rest, called.end() - 1):
        return dotted(name), frozenset({"method"})
    if kw == "func" and "." not in name:  # Go (the one parsed language that says ``func``): no receiver
        return dotted(name), frozenset({"function"})
    return dotted(name), KIND_WORDS.get(kw) or _DECL_KINDS.get(kw, KIND_WORDS["function"])


def pasted_definition(query: str) -> bool:
    """A definition line with its punctuation (``def list_domains(self) -> list[str]``), not ``class Session``."""
    return declared_name(query) is not None and bool(_CODE_MARKS.search(query))


_USAGE_QUESTION = re.compile(
    r"^\s*(?:who|what|which\s+\w+)\s+(?:calls|uses|references|imports|instantiates)\s+(?P<a>\S+)\s*$"
    r"|^\s*where\s+(?:is|are)\s+(?P<b>\S+)\s+(?:used|called|referenced|imported)\b"
    r"|^\s*(?:usages|uses|callers|references|calls)\s+(?:of|to)\s+(?P<c>\S+)\s*$", re.I)


def _asked_name(word: str) -> str | None:
    """The dotted name a question's word spells (``parse_args()?`` → ``parse_args``), or None for a plain
    word ("where are cookies used": a word, not a name)."""
    word = _clean(word).rstrip("?,")
    if not _IDENTISH.match(word) or not (looks_like_identifier(word) or word[:1].isupper()):
        return None
    return dotted(_uncalled(word))


def usage_question(query: str) -> str | None:
    """The name a query asks the references of (``who calls parse_args?``, ``where is Session used``,
    ``usages of merge_setting``): search ranks by similarity, find_usages lists the references."""
    m = _USAGE_QUESTION.match(query)
    return _asked_name(next(g for g in m.groups() if g)) if m is not None else None


# "where is X checked to …": the question is about the code that uses X, not about X's own definition.
_USE_VERBS = ("used|checked|called|read|consulted|tested|referenced|invoked|handled|detected|compared|inspected"
              "|honou?red|applied|passed|consumed|evaluated|looked|queried|accessed|imported|instantiated|caught")
_USED_WHERE = re.compile(rf"^\s*where\s+(?:is|are)\s+(?P<name>\S+)\s+(?:{_USE_VERBS})\b", re.I)


def used_name(query: str) -> str | None:
    """The name whose *uses* a query asks for — ``where is mapFallbackValue checked before …``, ``where is
    CosineSimilarity used to …``, ``who calls parse_args`` — or None (``where are cookies used``: a word, not
    a name)."""
    m = _USED_WHERE.match(query)
    name = _asked_name(m.group("name")) if m is not None else usage_question(query)  # also ``who calls X``
    return name.rsplit(".", 1)[-1] if name else None


def named_kind(query: str) -> tuple[str, frozenset[str]] | None:
    """(name, chunk kinds) for a query that asks for one definition by name, with its kind or a few words
    around it — ``class Session``, ``find the Session class``, ``type Command struct``, ``where is Session
    defined`` (no kind: an empty set) — or a pasted definition line (:func:`declared_name`); else None."""
    declared = declared_name(query)
    if declared is not None:
        return declared
    words = _WORD.findall(query)
    if not 2 <= len(words) <= 5:
        return None
    lowered = [w.lower().rstrip("?.") for w in words]
    rest = [w for w, lw in zip(words, lowered) if lw not in KIND_WORDS and lw not in _FILLER]
    if len(rest) != 1 or not _IDENTISH.match(_clean(rest[0])):
        return None
    kinds = [KIND_WORDS[lw] for lw in lowered if lw in KIND_WORDS]
    return dotted(_uncalled(_clean(rest[0]))), frozenset().union(*kinds)


def identifier_words(query: str) -> list[str]:
    """The words of ``query`` that look like code identifiers, cleaned of quotes and call parens, with
    every language's qualifier syntax (``Type::method``, ``obj->field``, ``Class#method``) written
    as a dot, the separator of codesift's qualified names. A query of one plain word (``Session``,
    ``merge``) may be a name too, as may the one word beside a kind (``class Session``)."""
    words = _WORD.findall(query)
    if len(words) == 1 and _IDENTISH.match(_clean(words[0])):
        return [dotted(_uncalled(_clean(words[0])))]
    asked = named_kind(query)
    if asked is not None:
        return [asked[0]]
    return [dotted(_uncalled(_clean(w))) for w in words if looks_like_identifier(w)]


def _uncalled(word: str) -> str:
    """``word`` without call parens (``parse()`` → ``parse``), but C++'s call operator keeps its own
    (``Functor::operator()``)."""
    if word.endswith("operator()()"):
        return word[:-2]
    return word if word.endswith("operator()") else word.rstrip("()")


def bare_name(identifier: str) -> str:
    """``identifier`` without a trailing ``?``/``!``/``=`` (Ruby's predicate, bang and setter names, or
    punctuation)."""
    return identifier.rstrip("?!=")


def _clean(word: str) -> str:
    """A query word without quotes and sentence punctuation around it (``"parse_args".`` → ``parse_args``;
    ``parse()?`` → ``parse()``)."""
    word = word.strip("`'\",;:").rstrip(".").strip("`'\",;:")
    return word[:-1] if word[-3:-1] == "()" and word[-1] in "?!" else word


def classify(query: str) -> QueryShape:
    """The shape of ``query`` (see :class:`QueryShape`)."""
    words = _WORD.findall(query.strip())
    if not words:
        return QueryShape.OTHER
    idents = sum(looks_like_identifier(w) for w in words)
    if len(words) <= 2 and idents:
        return QueryShape.IDENTIFIER
    if len(words) == 1:
        return QueryShape.SINGLE_WORD
    if idents * 2 >= len(words):
        return QueryShape.MOSTLY_IDENTIFIERS
    if len(words) >= 4:
        return QueryShape.NATURAL_LANGUAGE
    return QueryShape.OTHER
