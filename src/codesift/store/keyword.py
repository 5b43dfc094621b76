"""BM25 keyword index on tantivy, fed with text already split by :mod:`codesift.text.tokens`.

Tokens arrive pre-split and lower-cased, so tantivy's whitespace tokenizer indexes them as they are; the
same tokenizer runs over queries. Name fields weigh more than the body (see ``FIELD_BOOSTS``).

Query compilation: every query term is one group of per-field term queries; documents holding all of them
can come first (``and_first``), then any-term matches. Three optional additions, each off unless asked:
``near`` (documents where consecutive query words occur within ``NEAR_SLOP`` positions of each other score
more: sloppy phrase queries over the positional fields), ``prefix`` (the last word of the query also
matches the terms it begins, for search-as-you-type) and ``expansion`` (extra terms, at their own
weight, that widen the any-term match; see :mod:`codesift.query.expand`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, cast

import tantivy

from codesift.store.derived import damage_of, is_panic, mark_damaged, mark_repaired
from codesift.store.footers import damaged_file
from codesift.text.punctuation import literal_terms
from codesift.text.recursion import recursion_terms
from codesift.text.tokens import STOP_WORDS, split_identifier, stem, to_index_text, tokenize

TEXT_FIELDS = ("name", "doc", "body", "pathtok")
# A name weighted above the body over-rewards a symbol whose name shares one query word (the name-match stage
# handles exact names); the doc field is a definition's own description, above the code in Go, Java, Rust and
# the C family. why: docs/design-decisions.md#field-boosts
FIELD_BOOSTS = {"name": 0.4, "doc": 1.0, "body": 1.0, "pathtok": 0.2}
# Fields indexed with term positions, so that phrase (NEAR) queries can run on them.
POSITION_FIELDS = ("name", "doc", "body")
NEAR_SLOP = 2  # moves allowed to match a pair of consecutive query words: one word between, or swapped
NEAR_WEIGHT = 1.0  # the near pairs' sloppy-phrase scores (over the number of pairs), times the field boost, times this
NEAR_MAX_PAIRS = 12  # a pasted paragraph does not become hundreds of phrase queries
PREFIX_MIN = 3  # the last word must be this long to be completed
PREFIX_TERMS = 8  # completions kept per field, the most frequent first
PREFIX_WEIGHT = 0.5  # a completion's term score counts this much of an exact term's
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
Clause = tuple[tantivy.Occur, tantivy.Query]  # one clause of a boolean query
PART = "keyword"  # the marker files' name (store.derived)
T = TypeVar("T")


class KeywordDamaged(Exception):
    """The keyword index could not be read (a damaged segment): the search answers without it, and the
    next writer rebuilds it from SQLite."""


def _read(index: KeywordIndex, fn: Callable[[], T]) -> T:
    """``fn()``, reading the index: a tantivy error (``ValueError``, ``OSError``) or a Rust panic there
    marks the index damaged and raises :class:`KeywordDamaged`. Interrupts pass through."""
    try:
        return fn()
    except (ValueError, OSError) as exc:
        raise index.damage(exc) from exc
    except BaseException as exc:
        if is_panic(exc):
            raise index.damage(exc) from exc
        raise


@dataclass(slots=True, frozen=True)
class KeywordDoc:
    """The fields the keyword index sees for one chunk."""

    chunk_id: int
    file_id: int
    path: str
    language: str
    kind: str
    name: str
    qualified_name: str
    signature: str
    decorators: str
    docstring: str
    text: str


def keyword_fields(name: str, qualified_name: str, docstring: str, text: str, path: str,
                   kind: str = "", language: str = "") -> tuple[str, str, str, str]:
    """The tokenized text of each field in ``TEXT_FIELDS`` order (pure: runs in indexing workers).

    The body also holds words for what the code writes without them: its punctuation literals' names
    (:mod:`codesift.text.punctuation`) and, for a definition that calls itself, ``recursive`` and its forms
    (:mod:`codesift.text.recursion`)."""
    body = (to_index_text((text,)), literal_terms(text), recursion_terms(kind, name, text, docstring, language))
    return (
        to_index_text((name, qualified_name)),
        to_index_text((docstring,)),
        " ".join(filter(None, body)),
        to_index_text((path,)),
    )


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_unsigned_field("id", stored=True, indexed=True, fast=True)
    sb.add_unsigned_field("file_id", indexed=True)
    for name in ("path", "lang", "kind"):
        sb.add_text_field(name, tokenizer_name="raw")
    for name in TEXT_FIELDS:
        option = "position" if name in POSITION_FIELDS else "freq"
        sb.add_text_field(name, tokenizer_name="whitespace", index_option=option)
    return sb.build()


def normalise_path_filter(pattern: str) -> str:
    """Drop leading ``./`` and ``/`` (paths are relative to the root) but keep dot-folders (``.github/``)."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.lstrip("/")


def extra_terms(pairs: Sequence[tuple[str, float]], known: set[str]) -> list[tuple[str, float]]:
    """(term, weight) of each index term of the (text, weight) pairs not in ``known`` (which then holds it),
    weight above 0; the first weight a term comes with counts."""
    out = []
    for text, weight in pairs:
        for term in dict.fromkeys(tokenize(text)):
            if term not in known and weight > 0:
                known.add(term)
                out.append((term, weight))
    return out


def glob_to_regex(pattern: str) -> str:
    """Translate a path filter to a full-match regex: a prefix, or when it has ``*?[`` also a glob.

    Glob semantics match SQLite's GLOB (used by the semantic retriever): ``*`` and ``?`` do not
    cross ``/`` here, ``**`` does, and ``[...]`` is a character class (``[!...]`` negated)."""
    pattern = normalise_path_filter(pattern)
    literal = re.escape(pattern) + ".*"
    if not any(c in pattern for c in "*?["):
        return literal
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "[":
            end = pattern.find("]", i + 2)
            if end != -1:
                body = pattern[i + 1 : end]
                negate = body.startswith(("!", "^"))
                body = body[1:] if negate else body
                out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
                i = end + 1
                continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(c, re.escape(c)))
        i += 1
    # A real path that contains glob characters (``glob[x].py``) still matches itself, as a prefix.
    return f"(?:{literal}|{''.join(out)})"


class KeywordIndex:
    """A tantivy index in one folder; one writer at a time, any number of readers."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.schema = _schema()
        self.recreated = False  # True when an unreadable/older index was replaced by an empty one
        self.damaged: str | None = None  # why this index is unreadable (found here or by another process)
        self.repairing: str | None = None  # the damage the rebuild under way repairs
        self._writer: tantivy.IndexWriter | None = None
        # Found by an earlier search: the owner rebuilds it under the write lock (clear() resets the folder), as a
        # writer may be at work in it now; until then searches answer without it.
        self.damaged = damage_of(folder.parent, PART)
        # Bytes changed inside a committed file pass tantivy's checks at open and panic in a search, or change scores.
        if self.damaged is None and (damage := damaged_file(folder)) is not None:
            self.index = self._fresh(damage)
            return
        try:
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
        except ValueError as exc:
            # An index from an older schema, or damaged (tantivy checks each file's footer): the keyword
            # index is derived data, so start afresh and let the owner refill it from SQLite.
            self.index = self._fresh(None if "schema" in str(exc).lower() else _reason(exc))
        except BaseException as exc:
            if not is_panic(exc):
                raise
            self.index = self._fresh(_reason(exc))  # a segment tantivy panics on while opening it

    def _fresh(self, damage: str | None) -> tantivy.Index:
        """An empty index in place of the one in the folder (deleted: it is rebuilt from SQLite)."""
        self._writer = None
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.recreated = True
        self.damaged = None
        if damage is not None:
            self.repairing = damage
            mark_damaged(self.folder.parent, PART, damage)  # kept until the rebuild is committed
        return tantivy.Index(self.schema, path=str(self.folder), reuse=True)

    def damage(self, exc: BaseException) -> KeywordDamaged:
        """Record that reading the index failed with ``exc``; the error to raise."""
        if self.damaged is None:
            self.damaged = _reason(exc)
            mark_damaged(self.folder.parent, PART, self.damaged)
        return KeywordDamaged(self.damaged)

    def check_count(self, chunks: int) -> bool:
        """Whether the index is damaged, told by its opening and its document count beside SQLite's ``chunks``
        (asked with no writer about: then every chunk has its document). A damaged index is marked so."""
        docs = self.num_docs()
        if docs != chunks and self.damaged is None:
            self.damaged = f"it holds {docs:,} documents for {chunks:,} chunks"
            mark_damaged(self.folder.parent, PART, self.damaged)
        return self.damaged is not None

    def reset(self) -> None:
        """Replace a damaged index with an empty one now (the caller refills it from SQLite)."""
        if self.damaged is not None:
            self.index = self._fresh(self.damaged)

    # -- writing --------------------------------------------------------------------------------
    def _w(self) -> tantivy.IndexWriter:
        if self._writer is None:
            self._writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    def delete_file(self, file_id: int) -> None:
        # delete_documents_by_term ignores u64 terms in tantivy-py 0.27; a term query works.
        self._w().delete_documents_by_query(tantivy.Query.term_query(self.schema, "file_id", file_id))

    def clear(self) -> None:
        if self.damaged is not None:  # its segments cannot be read, so not merged or deleted either
            self.reset()
        self._w().delete_all_documents()

    def add(self, doc: KeywordDoc) -> None:
        self.add_fields(doc.chunk_id, doc.file_id, doc.path, doc.language, doc.kind, keyword_fields(
            doc.name, doc.qualified_name, doc.docstring, doc.text, doc.path, doc.kind, doc.language))

    def add_fields(self, chunk_id: int, file_id: int, path: str, language: str, kind: str,
                   fields: tuple[str, str, str, str]) -> None:
        """Add a chunk whose text fields were already tokenized by :func:`keyword_fields`."""
        d = tantivy.Document()
        d.add_unsigned("id", chunk_id)
        d.add_unsigned("file_id", file_id)
        d.add_text("path", path)
        d.add_text("lang", language)
        d.add_text("kind", kind)
        for name, value in zip(TEXT_FIELDS, fields):
            d.add_text(name, value)
        self._w().add_document(d)

    def commit(self, *, final: bool = True) -> None:
        """Make the added documents visible. ``final=False`` keeps the writer (and its lock) for more
        batches instead of waiting for segment merges after every batch."""
        if self._writer is not None:
            self._writer.commit()
            if final:
                self._writer.wait_merging_threads()
                self._writer = None
                if self.repairing is not None:  # the rebuild from SQLite is committed
                    mark_repaired(self.folder.parent, PART, self.repairing, "rebuilt from SQLite")
                    self.repairing = None
        self.index.reload()

    def rollback(self) -> None:
        if self._writer is not None:
            self._writer.rollback()
            self._writer = None

    # -- reading --------------------------------------------------------------------------------
    def holds(self, text: str) -> bool:
        """Whether any indexed chunk holds one of the index terms of ``text`` in a text field."""
        def read() -> bool:
            searcher = self.index.searcher()
            return any(searcher.doc_freq(f, t) for t in tokenize(text) for f in TEXT_FIELDS)

        return _read(self, read)

    def held_terms(self, terms: Iterable[str]) -> tuple[int, int]:
        """How many distinct index ``terms`` there are (a query's, already tokenized), and how many of them some
        indexed chunk holds in a text field."""
        distinct = set(terms)

        def read() -> int:
            searcher = self.index.searcher()
            return sum(any(searcher.doc_freq(f, t) for f in TEXT_FIELDS) for t in distinct)

        return len(distinct), _read(self, read)

    def num_docs(self) -> int:
        """The documents in the index; 0 when it cannot be read (it is then marked damaged)."""
        def read() -> int:
            self.index.reload()
            return int(self.index.searcher().num_docs)

        try:
            return _read(self, read)
        except KeywordDamaged:
            return 0

    def search(
        self,
        query: str,
        limit: int,
        *,
        path: str | None = None,
        languages: Sequence[str] = (),
        kinds: Sequence[str] = (),
        services: Sequence[str] = (),
        and_first: bool = True,
        near: bool = False,
        near_weight: float = NEAR_WEIGHT,
        prefix: bool = False,
        expansion: Sequence[tuple[str, float]] = (),
        lift: Sequence[tuple[str, float]] = (),
    ) -> list[tuple[int, float]]:
        """BM25 over the text fields; filters restrict inside the engine.

        With ``and_first``, documents holding every query term come first (in BM25 order), then the
        broader any-term (OR) matches fill the list up to ``limit``. ``near`` adds the score of
        consecutive query words found close together (see ``NEAR_SLOP``), times ``near_weight``;
        ``prefix`` lets the query's last word match the terms it begins (``pars`` → ``parse``,
        ``parser``); ``expansion`` holds (text, weight) pairs whose terms join the any-term match at
        that weight; ``lift`` (text, weight) pairs whose terms add their score, at that weight, to a document
        the other terms matched, and never match one alone (far fewer documents to score).
        """
        terms = list(dict.fromkeys(tokenize(query)))
        if not terms:
            return []
        occur, Q = tantivy.Occur, tantivy.Query
        searcher = _read(self, self.index.searcher)
        completions = _read(self, lambda: self._completions(searcher, query)) if prefix else {}

        def per_field(term: str, weight: float = 1.0) -> list[Clause]:
            return [(occur.Should, Q.boost_query(Q.term_query(self.schema, f, term), FIELD_BOOSTS[f] * weight))
                    for f in TEXT_FIELDS]

        groups = []
        for term in terms:
            clauses = per_field(term)
            for completion in completions.get(term, ()):
                clauses += per_field(completion, PREFIX_WEIGHT)
            groups.append(Q.boolean_query(clauses))
        known = set(terms)
        # expansion terms may bring a document in, never required; lift terms score only what others matched
        widen = [Q.boolean_query(per_field(t, w)) for t, w in extra_terms(expansion, known)]
        # One flat union of every lift term in every field: the same sum of scores as a clause per term, and
        # one scorer to advance alongside the required terms instead of one per term (~1 ms off 10).
        lifted = [clause for t, w in extra_terms(lift, known) for clause in per_field(t, w)]
        raise_ = [(occur.Should, Q.boolean_query(lifted))] if lifted else []
        bonus = [(occur.Should, q) for q in self._near_queries(query, near_weight)] if near else []
        filters = []
        if path:
            filters.append((occur.Must, Q.regex_query(self.schema, "path", glob_to_regex(path))))
        if services:  # the raw path field starts with one of the services' folders
            alts = [(occur.Should, Q.regex_query(self.schema, "path", re.escape(s + "/") + ".*")) for s in services]
            filters.append((occur.Must, Q.boolean_query(alts)))
        for field, values in (("lang", languages), ("kind", kinds)):
            if values:
                alts = [(occur.Should, Q.term_query(self.schema, field, v)) for v in values]
                filters.append((occur.Must, Q.boolean_query(alts)))
        out: list[tuple[int, float]] = []
        if and_first and len(groups) > 1:
            every = [(occur.Must, g) for g in groups] + [(occur.Should, g) for g in widen]
            out = _read(self, lambda: self._run(searcher, every + raise_ + bonus + filters, limit))
        if len(out) < limit:
            seen = {cid for cid, _ in out}
            any_term = (occur.Must, Q.boolean_query([(occur.Should, g) for g in groups + widen]))
            hits = _read(self, lambda: self._run(searcher, [any_term] + raise_ + bonus + filters, limit))
            out += [h for h in hits if h[0] not in seen]
        return out[:limit]

    def _near_queries(self, query: str, weight: float) -> list[tantivy.Query]:
        """Sloppy phrase queries (BM25 over the pair's proximity matches), one per field and pair of
        consecutive query words; ``NEAR_SLOP`` 2 lets the pair also match in swapped order."""
        units = near_units(query)
        pairs = list(dict.fromkeys(p for p in zip(units, units[1:]) if p[0] != p[1]))[:NEAR_MAX_PAIRS]
        if pairs:  # a long sentence has many pairs: together they weigh as much as one
            weight /= len(pairs)
        out = []
        for pair in pairs:
            for f in POSITION_FIELDS:
                phrase = tantivy.Query.phrase_query(self.schema, f, list(pair), NEAR_SLOP)
                out.append(tantivy.Query.boost_query(phrase, FIELD_BOOSTS[f] * weight))
        return out

    @staticmethod
    def _completions(searcher: tantivy.Searcher, query: str) -> dict[str, list[str]]:
        """Query term → index terms its typed prefix begins (the most frequent ``PREFIX_TERMS``)."""
        out: dict[str, list[str]] = {}
        for term, typed in prefix_words(query):
            counts: dict[str, int] = {}
            for f in ("name", "body"):
                for found, n in searcher.terms_with_prefix(f, typed, limit=PREFIX_TERMS):
                    counts[found] = counts.get(found, 0) + n
            counts.pop(term, None)
            if counts:
                out[term] = sorted(counts, key=lambda t: (-counts[t], t))[:PREFIX_TERMS]
        return out

    @staticmethod
    def _run(searcher: tantivy.Searcher, clauses: list[Clause], limit: int) -> list[tuple[int, float]]:
        hits = searcher.search(tantivy.Query.boolean_query(clauses), limit, count=False).hits
        if not hits:
            return []
        # ``id`` is an integer fast field that every document has: never a float, a bool or None.
        ids = cast("list[int | None]", searcher.fast_field_values("id", [addr for _, addr in hits]))
        if None in ids:  # a damaged fast-field file
            raise ValueError("a document without its id (damaged fast fields)")
        # Segments are searched in parallel: equal scores come back in any order. Ties go by id, so the
        # same query always ranks the same way.
        return sorted(((int(cast("int", i)), float(score)) for (score, _), i in zip(hits, ids)),
                      key=lambda h: (-h[1], h[0]))


def _reason(exc: BaseException) -> str:
    return f"{'tantivy panicked' if is_panic(exc) else type(exc).__name__}: {exc}"[:300]


def near_units(query: str) -> list[str]:
    """The query's words as index terms, in order, one per identifier: a split identifier as its compound
    (its parts follow the compound in the index), a plain word stemmed; stop words left out."""
    units: list[str] = []
    for ident in _IDENT.findall(query):
        parts = split_identifier(ident)
        if not parts:
            continue
        if len(parts) > 1:
            unit = "".join(parts)
        elif parts[0] in STOP_WORDS:
            continue
        else:
            unit = stem(parts[0])
        if len(unit) <= 40 and (not units or units[-1] != unit):
            units.append(unit)
    return units


def prefix_words(query: str) -> list[tuple[str, str]]:
    """(query term, typed prefix) pairs for the last identifier of ``query`` when the query ends with it:
    its compound (``getAuthTo`` → ``getauthto``) and its last part as typed, not stemmed (``pars``
    must reach ``parse`` and ``parser``; stemmed it would be ``par``)."""
    found = list(_IDENT.finditer(query))
    last = found[-1] if found else None
    if last is None or last.end() != len(query.rstrip()):
        return []
    parts = split_identifier(last.group())
    out = []
    if len(parts) > 1 and len("".join(parts)) <= 40:
        out.append(("".join(parts), "".join(parts)))
    word = parts[-1] if parts else ""
    if len(word) >= PREFIX_MIN and word not in STOP_WORDS and not word.isdigit() and len(word) <= 40:
        out.append((stem(word), word))
    return out
