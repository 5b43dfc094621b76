"""The store's typed boundary: chunk records instead of rows, filters instead of SQL, no SQL outside store/,
and the retrievers behind one protocol."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from codesift import Index
from codesift.search.retrieve import EarlyVectorRetriever, KeywordRetriever, VectorRetriever
from codesift.search.run import Filters
from codesift.store.reads import filter_sql
from codesift.store.records import ChunkRecord, parse_decorators

SRC = Path(__file__).resolve().parents[1] / "src" / "codesift"


@pytest.fixture
def kw_index(repo: Path):
    with Index(repo) as idx:
        idx.update(embed=False)
        yield idx


def test_no_sql_or_row_outside_store() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        if "store" in path.relative_to(SRC).parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"^\s*(import|from)\s+sqlite3|\.db\.(execute|commit)|store\.db\b|sqlite3\.Row", line):
                offenders.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert offenders == []


def test_chunks_by_id_and_iter_chunks_give_records(kw_index) -> None:
    ids = kw_index.store.ids_by_name(["rebuild_auth"])
    rec = kw_index.store.chunks_by_id(ids)[ids[0]]
    assert isinstance(rec, ChunkRecord)
    assert (rec.path, rec.name, rec.qualified_name, rec.kind) == (
        "src/http/sessions.py", "rebuild_auth", "SessionRedirectMixin.rebuild_auth", "method")
    assert rec.mtime > 0 and rec.decorators == () and "del headers" in rec.text
    assert rec.text_start == rec.start_line
    assert kw_index.store.chunks_by_id(ids, with_text=False)[ids[0]].text == ""
    streamed = list(kw_index.store.iter_chunks(batch=3))
    assert len(streamed) == kw_index.store.chunk_count()
    assert [r.id for r in streamed] == sorted(r.id for r in streamed)
    assert rec._replace(mtime=0.0) in streamed
    chunk = rec.to_chunk()
    assert (chunk.qualified_name, chunk.start_line, chunk.decorators) == (rec.qualified_name, rec.start_line, [])


def test_nested_definition_counts_count_what_lies_inside(kw_index) -> None:
    store = kw_index.store
    cls = store.ids_by_name(["SessionRedirectMixin"])[0]
    method = store.ids_by_name(["rebuild_auth"])[0]
    counts = store.nested_definition_counts([cls, method, cls])
    assert counts[cls] >= 2 and counts.get(method, 0) == 0  # its methods; a method holds none
    assert store.nested_definition_counts([]) == {}


def test_record_text_start_and_decorators() -> None:
    rec = ChunkRecord(1, 1, "a.py", "function", "f", "f", None, "python", 3, 4, "def f()", "", ("app.route('/')",),
                      "/", "@app.route('/')\ndef f():\n    pass", "h", 0.0)
    assert rec.text_start == 2
    assert parse_decorators('["a", 1]') == ("a", "1")
    assert parse_decorators("not json") == () and parse_decorators("{}") == () and parse_decorators(None) == ()


def test_filters_become_sql_inside_the_store(kw_index) -> None:
    assert filter_sql(Filters()) == ("1", [])
    where, params = filter_sql(Filters(path="src/http", languages=("python",), kinds=("method",)))
    assert "language IN (?)" in where and params[-2:] == ["python", "method"]
    store = kw_index.store
    method_ids = set(store.filtered_ids(Filters(kinds=("method",))).tolist())
    assert method_ids and all(r.kind == "method" for r in store.chunks_by_id(method_ids).values())
    globbed = store.files_where(Filters(path="**/cookies.py"))
    assert [p for _, p, _ in globbed] == ["src/http/cookies.py"]
    assert store.count_files(Filters(path="src/")) == len(store.files_where(Filters(path="src/")))


def test_retrievers_take_filters(kw_index) -> None:
    keyword = KeywordRetriever(kw_index.keyword)
    hits = keyword.search("redirect", 10, Filters(kinds=("method",)))
    rows = kw_index.store.chunks_by_id(cid for cid, _ in hits)
    assert hits and all(rows[cid].kind == "method" for cid, _ in hits)

    class FakeVectors:
        def search(self, query, limit, allowed=None):
            self.allowed = allowed
            return []

    fake = FakeVectors()
    vectors = VectorRetriever(fake, kw_index.store)  # type: ignore[arg-type]
    filters = Filters(kinds=("class",))
    assert vectors.search(np.zeros(4, dtype=np.float32), 5, filters) == []
    classes = {r.id for r in kw_index.store.iter_chunks() if r.kind == "class"}
    assert set(fake.allowed.tolist()) == classes
    vectors.search(np.zeros(4, dtype=np.float32), 5, Filters())
    assert fake.allowed is None
    with pytest.raises(TypeError):
        vectors.search("text", 5, Filters())


def test_early_vector_retriever_answers_from_the_search_it_ran(kw_index) -> None:
    class CountingVectors:
        calls = 0

        def search(self, query, limit, allowed=None):
            self.calls += 1
            return [(7, 0.9), (3, 0.5)][:limit]

    fake = CountingVectors()
    vector = np.zeros(4, dtype=np.float32)
    early = EarlyVectorRetriever(2)
    early.run(vector)  # the vector index is not open yet: nothing searched ahead
    assert fake.calls == 0
    with pytest.raises(RuntimeError):
        early.search(vector, 2, Filters())
    early.retriever = VectorRetriever(fake, kw_index.store)  # type: ignore[arg-type]
    assert early.search(vector, 2, Filters()) == [(7, 0.9), (3, 0.5)] and fake.calls == 1  # searched now
    early.run(vector)
    assert fake.calls == 2
    assert early.search(vector, 2, Filters()) == [(7, 0.9), (3, 0.5)] and fake.calls == 2  # the early answer
    assert early.search(vector, 1, Filters()) == [(7, 0.9)] and fake.calls == 3  # another limit: searched
    early.search(vector, 2, Filters(kinds=("class",)))  # filters: searched with them
    assert fake.calls == 4 and early.prefilter(Filters()) is None


def test_early_vector_retriever_leaves_a_failing_search_to_the_caller(kw_index) -> None:
    class Broken:
        def search(self, query, limit, allowed=None):
            raise ValueError("broken index")

    early = EarlyVectorRetriever(5, VectorRetriever(Broken(), kw_index.store))  # type: ignore[arg-type]
    early.run(np.zeros(4, dtype=np.float32))  # on the query thread: no answer kept, nothing raised there
    with pytest.raises(ValueError, match="broken index"):
        early.search(np.zeros(4, dtype=np.float32), 5, Filters())
