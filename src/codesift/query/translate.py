"""Learned translations: a query saying "glob" also looks for ``pattern`` and ``fnmatch``.

A question describes behaviour in words that the code it is about may never spell: "the boolean switch that can
be negated" is a function full of ``negative`` and ``flag``, "the string similarity score" one of ``distance``
and ``prefix``. :mod:`codesift.query.synonyms` and :mod:`codesift.query.abbrev` hold the few such links a person
can vouch for; this table holds the many that documented code shows. ``translations.tsv`` (beside this module) was
learned from some 260k definitions of public code in six languages whose doc comment describes them
(``../shared/train``, none of the evaluation corpora; ``train/translations.py`` rebuilds it): for each word of
the first doc sentences, the identifier parts that its functions' code uses far more often than code in
general does in the same language (at least 4×, across at least 5 projects). The same for every repository; a
word not in the table brings nothing. The terms raise, at a low weight (``[rank] translation_weight``), the score
of a definition the query's own words matched; they never bring in one of their own.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from codesift.text.tokens import STOP_WORDS, WORD, split_identifier, stem

__all__ = ["MIN_WORDS", "TABLE_FILE", "query_words", "translations"]

TABLE_FILE = "translations.tsv"
MIN_WORDS = 2  # a single word is a name or a topic: searched as typed


def query_words(text: str) -> list[str]:
    """The plain words of a sentence as index terms, in order, once each: identifiers that are one lower-case
    word of three letters or more, not a stop word. ``parseArgs`` or ``max_len`` name code, not behaviour."""
    out: dict[str, None] = {}
    for match in WORD.finditer(text):
        parts = split_identifier(match.group())
        if len(parts) == 1 and len(parts[0]) >= 3 and parts[0] not in STOP_WORDS:
            out[stem(parts[0])] = None
    return list(out)


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """Query word → its code terms, best first, from the shipped table (``#`` lines are its header)."""
    out: dict[str, tuple[str, ...]] = {}
    text = files(__package__).joinpath(TABLE_FILE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            word, _, terms = line.partition("\t")
            out[word] = tuple(terms.split())
    return out


def translations(query: str) -> list[str]:
    """Code terms that the query's words translate to, not already among those words; none for a query of
    fewer than ``MIN_WORDS`` plain words."""
    words = query_words(query)
    if len(words) < MIN_WORDS:
        return []
    table = _table()
    have = set(words)
    found = dict.fromkeys(t for w in words for t in table.get(w, ()) if t not in have)
    return list(found)
