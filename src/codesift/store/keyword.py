"""BM25 keyword index on tantivy, fed with text already split by :mod:`codesift.tokenize`.

Tokens arrive pre-split and lower-cased, so tantivy's whitespace tokenizer indexes them as they are; the
same tokenizer runs over queries. Name fields weigh more than the body (see ``FIELD_BOOSTS``).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import tantivy

from ..tokenize import to_index_text, tokenize

TEXT_FIELDS = ("name", "doc", "body", "pathtok")
# Measured on the public bench (bench/quality.py, keyword mode): name fields weighted above the body
# over-reward symbols whose *name* shares one query word (static_folder for "serve a file from a
# folder"); exact-name queries are handled by the ranking pipeline's name-match stage instead.
FIELD_BOOSTS = {"name": 0.4, "doc": 0.3, "body": 1.0, "pathtok": 0.2}


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


def keyword_fields(name: str, qualified_name: str, docstring: str, text: str, path: str) -> tuple[str, str, str, str]:
    """The tokenized text of each field in ``TEXT_FIELDS`` order (pure: runs in indexing workers)."""
    return (
        to_index_text((name, qualified_name)),
        to_index_text((docstring,)),
        to_index_text((text,)),
        to_index_text((path,)),
    )


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_unsigned_field("id", stored=True, indexed=True, fast=True)
    sb.add_unsigned_field("file_id", indexed=True)
    for name in ("path", "lang", "kind"):
        sb.add_text_field(name, tokenizer_name="raw")
    for name in TEXT_FIELDS:
        sb.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    return sb.build()


def normalise_path_filter(pattern: str) -> str:
    """Drop leading ``./`` and ``/`` (paths are relative to the root) but keep dot-folders (``.github/``)."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.lstrip("/")


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
        try:
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
        except ValueError:
            # An index from an older schema: the keyword index is derived data, so start afresh and
            # let the owner refill it from SQLite.
            shutil.rmtree(folder)
            folder.mkdir(parents=True)
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
            self.recreated = True
        self._writer: tantivy.IndexWriter | None = None

    # -- writing --------------------------------------------------------------------------------
    def _w(self) -> tantivy.IndexWriter:
        if self._writer is None:
            self._writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    def delete_file(self, file_id: int) -> None:
        # delete_documents_by_term ignores u64 terms in tantivy-py 0.27; a term query works.
        self._w().delete_documents_by_query(tantivy.Query.term_query(self.schema, "file_id", file_id))

    def clear(self) -> None:
        self._w().delete_all_documents()

    def add(self, doc: KeywordDoc) -> None:
        self.add_fields(doc.chunk_id, doc.file_id, doc.path, doc.language, doc.kind, keyword_fields(
            doc.name, doc.qualified_name, doc.docstring, doc.text, doc.path))

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
        self.index.reload()

    def rollback(self) -> None:
        if self._writer is not None:
            self._writer.rollback()
            self._writer = None

    # -- reading --------------------------------------------------------------------------------
    def num_docs(self) -> int:
        self.index.reload()
        return self.index.searcher().num_docs

    def search(
        self,
        query: str,
        limit: int,
        *,
        path: str | None = None,
        languages: Sequence[str] = (),
        kinds: Sequence[str] = (),
        and_first: bool = True,
    ) -> list[tuple[int, float]]:
        """BM25 over the text fields; filters restrict inside the engine.

        With ``and_first``, documents holding every query term come first (in BM25 order), then the
        broader any-term (OR) matches fill the list up to ``limit``.
        """
        terms = list(dict.fromkeys(tokenize(query)))
        if not terms:
            return []
        occur = tantivy.Occur
        groups = [
            tantivy.Query.boolean_query([
                (occur.Should, tantivy.Query.boost_query(tantivy.Query.term_query(self.schema, f, term), FIELD_BOOSTS[f]))
                for f in TEXT_FIELDS
            ])
            for term in terms
        ]
        filters = []
        if path:
            filters.append((occur.Must, tantivy.Query.regex_query(self.schema, "path", glob_to_regex(path))))
        for field, values in (("lang", languages), ("kind", kinds)):
            if values:
                alts = [(occur.Should, tantivy.Query.term_query(self.schema, field, v)) for v in values]
                filters.append((occur.Must, tantivy.Query.boolean_query(alts)))
        searcher = self.index.searcher()
        out: list[tuple[int, float]] = []
        if and_first and len(groups) > 1:
            out = self._run(searcher, [(occur.Must, g) for g in groups] + filters, limit)
        if len(out) < limit:
            seen = {cid for cid, _ in out}
            any_term = (occur.Must, tantivy.Query.boolean_query([(occur.Should, g) for g in groups]))
            out += [h for h in self._run(searcher, [any_term] + filters, limit) if h[0] not in seen]
        return out[:limit]

    @staticmethod
    def _run(searcher: tantivy.Searcher, clauses: list, limit: int) -> list[tuple[int, float]]:
        hits = searcher.search(tantivy.Query.boolean_query(clauses), limit, count=False).hits
        if not hits:
            return []
        ids = searcher.fast_field_values("id", [addr for _, addr in hits])
        # Segments are searched in parallel: equal scores come back in any order. Ties go by id, so the
        # same query always ranks the same way.
        return sorted(((int(i), float(score)) for (score, _), i in zip(hits, ids)), key=lambda h: (-h[1], h[0]))
