"""The query, parsed once at the top of a search and handed to every stage that needs its meaning.

Its shape, the identifiers it names and their qualifiers, its index terms, the kind of definition it asks
for, the name a usage question is about and whether it is a pasted definition line: each stage reads them
here instead of working them out again from the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from codesift.query.shape import (QueryShape, classify, identifier_words, named_kind, pasted_definition, usage_question,
                                  used_name)
from codesift.text.tokens import tokenize


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query's text and what it means (see :func:`parse_query`)."""

    text: str
    shape: QueryShape
    identifiers: tuple[str, ...]  # code-like words, as :func:`~codesift.query.shape.identifier_words`
    qualifiers: frozenset[str]  # the identifiers' qualifiers: ``chi`` of ``chi.URLParam``
    terms: tuple[str, ...]  # index terms, as the keyword side tokenizes (stop words dropped)
    named_kind: tuple[str, frozenset[str]] | None  # ``find the Session class``: the name and the kinds asked for
    usage_target: str | None  # ``who calls parse_args?``: the name whose uses are asked for
    used_name: str | None  # the name a usage question is about, ranked below what uses it
    pasted: bool  # a definition line pasted as the query (``func Equal(t TestingT, …) bool``)
    typing: bool = True  # the text did not end with whitespace: its last word may be unfinished

    @property
    def sentence(self) -> bool:
        """Four or more words that do not name a definition's kind: a description, whose names are context."""
        return len(self.text.split()) >= 4 and self.named_kind is None


def parse_query(text: str, *, typing: bool = True) -> ParsedQuery:
    """``text`` (already checked and cleaned, see :func:`codesift.limits.check_query`) parsed once."""
    identifiers = tuple(identifier_words(text))
    return ParsedQuery(
        text=text,
        shape=classify(text),
        identifiers=identifiers,
        qualifiers=frozenset(i.rsplit(".", 2)[-2] for i in identifiers if "." in i),
        terms=tuple(tokenize(text)),
        named_kind=named_kind(text),
        usage_target=usage_question(text),
        used_name=used_name(text),
        pasted=pasted_definition(text),
        typing=typing,
    )


def as_parsed(query: ParsedQuery | str) -> ParsedQuery:
    """``query`` parsed, for callers that hold only its text (tests, training scripts)."""
    return query if isinstance(query, ParsedQuery) else parse_query(query)
