"""Code-aware tokenization shared by indexing and querying.

``getAuthToken`` and ``get_auth_token`` both become ``getauthtoken get auth token``: the compound is
kept beside its parts so that an exact identifier still outranks documents that merely share a part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # an identifier, or a word of prose
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# Split camelCase / PascalCase / acronyms / digit runs: HTTPServer2Handler -> HTTP Server 2 Handler
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

STOP_WORDS = frozenset(
    """a an and are as at be by for from how i if in into is it its of on or that the their then
    there these this those to was were what when where which while who why will with does do done
    can could should would me my we our you your""".split()
)

_MAX_TOKEN = 40  # longer "words" are hashes or data blobs, not vocabulary


def split_identifier(ident: str) -> list[str]:
    """Return the lower-cased parts of an identifier (camel, Pascal, snake, digits)."""
    parts: list[str] = []
    for piece in ident.split("_"):
        if piece:
            parts.extend(p.lower() for p in _PART.findall(piece))
    return parts


_CAMEL_EDGE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def words_for_model(text: str) -> str:
    """``parseArgsFromStdin`` → ``parse Args From Stdin``: camel humps as words for the dense model.

    MiniLM's word pieces cut the compound across its words (``par ##sea ##rg ##sf ##rom ##st ##din``) but
    the split form at them (``par ##se ar ##gs from st ##din``), as they already do snake_case at ``_``
    (docs/design-decisions.md#camel-words)."""
    return _CAMEL_EDGE.sub(" ", text)


def stem(token: str) -> str:
    """A deliberately light English suffix stripper (plural / -ing / -ed), applied to both sides."""
    n = len(token)
    if n <= 3 or token.isdigit():
        return token
    if token.endswith("ies") and n > 4:
        return token[:-3] + "y"
    if token.endswith("ie"):  # cookie/cookies and entry/entries meet at the same stem
        return token[:-2] + "y"
    if token.endswith("sses"):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        token = token[:-1]
        if token.endswith("ing") and n > 6:  # settings meet setting at set, strings string at str
            token = _undouble(token[:-3])
    elif token.endswith("ing") and n > 5:
        token = _undouble(token[:-3])
    elif token.endswith("ed") and n > 4:
        token = _undouble(token[:-2])
    return token


def _undouble(token: str) -> str:
    """``runn`` (running) → ``run``, ``stopp`` → ``stop``; ``fill``, ``pass``, ``buzz``, ``stuff`` and ``add``
    keep their pair."""
    if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "aeioulsfz":
        return token[:-1]
    return token


def iter_tokens(text: str, *, keep_stop_words: bool = False) -> Iterator[str]:
    """Yield index terms for ``text``: per identifier its compound (if split) then its parts."""
    for match in _IDENT.finditer(text):
        ident = match.group()
        parts = split_identifier(ident)
        if not parts:
            continue
        if len(parts) > 1:
            compound = "".join(parts)
            if len(compound) <= _MAX_TOKEN:
                yield compound
        for part in parts:
            if len(part) > _MAX_TOKEN or (not keep_stop_words and part in STOP_WORDS):
                continue
            yield stem(part)


def tokenize(text: str, *, keep_stop_words: bool = False) -> list[str]:
    """List form of :func:`iter_tokens`."""
    return list(iter_tokens(text, keep_stop_words=keep_stop_words))


_CACHE: dict[str, str] = {}
_CACHE_MAX = 300_000


def _ident_terms(ident: str) -> str:
    """The index terms of one identifier as a string, memoised: code repeats its identifiers a lot."""
    terms = _CACHE.get(ident)
    if terms is None:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        terms = _CACHE[ident] = " ".join(iter_tokens(ident))
    return terms


def to_index_text(parts: Iterable[str]) -> str:
    """Join the tokens of several texts into one whitespace-separated string for the keyword engine.

    Same terms as :func:`iter_tokens`, computed per distinct identifier once (a 3× speed-up on real
    code, where most identifiers are repeats)."""
    out: list[str] = []
    for text in parts:
        if text:
            for ident in _IDENT.findall(text):
                terms = _ident_terms(ident)
                if terms:
                    out.append(terms)
    return " ".join(out)
