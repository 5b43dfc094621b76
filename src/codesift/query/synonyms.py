"""Words of one meaning in code: a query saying "option" also looks for ``flag``, "remove" for ``strip``.

A question describes behaviour in the asker's words; the code names the same thing in its own (Go's and
Rust's command-line libraries say *flag* where Python's say *option*; one library *strips* what another
*drops*). The keyword retriever matches terms exactly, so each group below is general vocabulary of
programming, the same for every repository and language: any word of a group brings in the others. Unlike
:mod:`codesift.query.abbrev` (one meaning, a short spelling), these are different words, and only sentences get
them (``remove`` alone is a name).
"""

from __future__ import annotations

from functools import lru_cache

from codesift.text.tokens import tokenize

__all__ = ["MIN_WORDS", "synonyms"]

# One group per line, each kept when, measured on its own, it raised the public or the dev set and lowered neither
# (the groups measured and left out, and why ``toggle`` is not an option word: docs/design-decisions.md#synonym-groups).
_GROUPS = """
option flag switch
remove delete strip drop discard
run execute invoke
directory folder
split separate
error exception failure fault
check verify validate ensure
log trace journal
default fallback
callback hook listener handler
create make construct
"""
# Phrases the code says in one word (phrase, … | the word), looked up from the phrase only: "single-letter"
# options are ``short`` ones in every command-line library (getopt's word). why: docs/design-decisions.md#phrases
_PHRASES = """
single letter, one letter | short
"""
MIN_WORDS = 3  # a query of fewer words is a name or a phrase, searched as typed


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    """Index term → the terms of its group."""
    out: dict[str, list[str]] = {}
    for line in _GROUPS.strip().splitlines():
        terms = list(dict.fromkeys(t for word in line.split() for t in tokenize(word, keep_stop_words=True)))
        for t in terms:
            out.setdefault(t, []).extend(o for o in terms if o != t)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


@lru_cache(maxsize=1)
def _phrases() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Term sequence of a phrase → the terms it is written as."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for line in _PHRASES.strip().splitlines():
        forms, _, words = line.partition("|")
        said = tuple(t for w in words.split() for t in tokenize(w, keep_stop_words=True))
        for form in forms.split(","):
            out[tuple(tokenize(form, keep_stop_words=True))] = said
    return out


def synonyms(query: str) -> list[str]:
    """Index terms that mean what one of the query's words (or phrases) means, not already in the query;
    none for a query of fewer than ``MIN_WORDS`` words."""
    if len(query.split()) < MIN_WORDS:
        return []
    terms = tokenize(query, keep_stop_words=True)
    have = set(terms)
    table, phrases = _table(), _phrases()
    found = [s for t in terms for s in table.get(t, ())]
    found += [s for n in {len(k) for k in phrases} for i in range(len(terms) - n + 1)
              for s in phrases.get(tuple(terms[i:i + n]), ())]
    return list(dict.fromkeys(s for s in found if s not in have))
