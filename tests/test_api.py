import os

import pytest

from codesift import Index


def _top(response):
    r = response.results[0]
    return r.path, r.qualified_name, r.start_line


def test_identifier_query_finds_definition_line(shared_index):
    for mode in ("hybrid", "keyword"):
        res = shared_index.search("rebuild_auth", mode=mode)
        assert _top(res) == ("src/http/sessions.py", "SessionRedirectMixin.rebuild_auth", 14)


def test_natural_language_query_hybrid_and_semantic(shared_index):
    for mode in ("hybrid", "semantic"):
        res = shared_index.search("follow redirects and drop credentials", mode=mode, limit=3)
        assert res.embedding_status == "ok"
        assert "src/http/sessions.py" in {r.path for r in res.results}
    res = shared_index.search("parse json request body", limit=3)
    assert res.results[0].path == "web/server.js"
    assert res.results[0].language == "javascript"


def test_results_carry_contract_fields_and_normalised_scores(shared_index):
    res = shared_index.search("cookie jar", limit=5)
    assert res.results
    for r in res.results:
        assert not os.path.isabs(r.path) and "\\" not in r.path
        assert 1 <= r.start_line <= r.end_line
        assert 0 < r.score <= 1
        assert r.kind and r.language and r.snippet
    assert [r.score for r in res.results] == sorted((r.score for r in res.results), reverse=True)


def test_filters_apply_in_both_retrievers(shared_index):
    for mode in ("hybrid", "keyword", "semantic"):
        res = shared_index.search("redirects", mode=mode, path="tests/")
        assert res.results and all(r.path.startswith("tests/") for r in res.results)
        res = shared_index.search("parse body", mode=mode, language="javascript")
        assert res.results and all(r.language == "javascript" for r in res.results)
        res = shared_index.search("cookie", mode=mode, kind="class")
        assert res.results and all(r.kind == "class" for r in res.results)
        res = shared_index.search("session", mode=mode, path="**/*.py", kind="method,function")
        assert all(r.path.endswith(".py") and r.kind in {"method", "function"} for r in res.results)


def test_no_duplicate_locations(shared_index):
    res = shared_index.search("redirect", limit=50)
    keys = [(r.path, r.start_line, r.end_line) for r in res.results]
    assert len(keys) == len(set(keys))


def test_reindex_unchanged_tree_does_no_work(index):
    stats = index.update()
    assert stats.files_parsed == 0 and stats.embedded == 0 and stats.files_deleted == 0


def test_incremental_change_and_delete(index, repo):
    target = repo / "src/http/cookies.py"
    target.write_text(target.read_text() + "\n\ndef clear_expired_cookies(jar):\n    return jar\n")
    stats = index.update()
    assert stats.files_parsed == 1
    # only the new chunk text (and the module chunk that changed, if any) is embedded
    assert 1 <= stats.embedded <= 2
    assert index.search("clear_expired_cookies").results[0].name == "clear_expired_cookies"
    (repo / "src/http/sessions.py").unlink()
    stats = index.update()
    assert stats.files_deleted == 1
    for mode in ("keyword", "semantic", "hybrid"):
        assert all(r.path != "src/http/sessions.py" for r in index.search("redirect", mode=mode, limit=50).results)


def test_touch_without_content_change_reparses_nothing(index, repo):
    target = repo / "web/server.js"
    os.utime(target, (1, 1))
    stats = index.update()
    assert stats.files_parsed == 0 and stats.embedded == 0


@pytest.mark.model
def test_keyword_only_when_embeddings_disabled(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    with Index(repo) as idx:
        stats = idx.update()
        assert stats.embedded == 0
        res = idx.search("rebuild_auth")
        assert res.embedding_status == "keyword_only" and res.notes
        assert res.results[0].name == "rebuild_auth"
        status = idx.status()
        assert status["embedding_status"] == "keyword_only"
        assert "CODESIFT_EMBEDDER" in status["embedding_fix"]
    # embeddings are filled in later, without a rebuild
    monkeypatch.delenv("CODESIFT_EMBEDDER")
    with Index(repo) as idx:
        stats = idx.update()
        assert stats.files_parsed == 0 and stats.embedded > 0
        assert idx.status()["coverage"] == 1.0


def test_a_model_change_drops_the_old_vectors_and_the_next_update_re_embeds(index, repo):
    model = index.status()["model"]
    index.search("redirect", mode="semantic")  # writes the vector snapshot of the current model
    index.store.set_meta("model_id", "some-other-model")
    index.store.db.commit()
    with Index(repo) as again:
        res = again.search("where are redirects followed")
        # the other model's vectors are gone (not compared with this model's query), keywords answer
        assert res.mode == "keyword" and res.notes
        status = again.status()
        assert status["model"] == model and status["embedded"] == 0 and status["windows"]["embedded"] == 0
        stats = again.update()
        # every chunk's text and every long chunk's further windows (store/windows.py)
        assert stats.files_parsed == 0 and stats.embedded == status["chunks"] + status["windows"]["total"]
        assert again.status()["coverage"] == 1.0
        assert again.status()["windows"]["embedded"] == status["windows"]["total"] > 0
        assert again.search("where are redirects followed").mode == "hybrid"


@pytest.mark.model
def test_a_query_tower_searches_an_index_embedded_by_the_base_model_as_it_is(repo, monkeypatch, tmp_path):
    """A query tower (CODESIFT_QUERY_MODEL_PATH) answers queries in the base model's document space:
    switching to it re-embeds nothing, and status names it."""
    import shutil

    from codesift.config.env import Environment
    from codesift.embed.local import model_files

    with Index(repo) as idx:
        idx.update()
        before = idx.status()
    assert "query_model" not in before and before["coverage"] == 1.0
    tower = tmp_path / "tower.onnx"
    shutil.copy(model_files(None, Environment())[0], tower)
    monkeypatch.setenv("CODESIFT_QUERY_MODEL_PATH", str(tower))
    with Index(repo) as again:
        stats = again.update()
        assert stats.embedded == 0 and stats.files_parsed == 0
        res = again.search("where are redirects followed")
        assert res.mode == "hybrid" and res.coverage == 1.0 and not res.notes
        status = again.status()
        assert status["model"] == before["model"] and status["embedded"] == before["embedded"]
        assert status["query_model"].startswith("file:tower.onnx:")


def test_an_update_right_after_a_model_change_re_embeds_everything(index, repo):
    """No search first: the update itself notices the change (without loading the model when nothing
    changed) and re-embeds every chunk."""
    status = index.status()
    index.store.set_meta("model_id", "some-other-model")
    index.store.db.commit()
    with Index(repo) as again:
        stats = again.update()
        assert stats.embedded == status["chunks"] + status["windows"]["total"] and again.status()["coverage"] == 1.0
        assert again.store.get_meta("model_id") != "some-other-model"
    with Index(repo) as third:
        third.update()
        assert third.dense._embedder is None  # same model, nothing pending: the model is never loaded


def test_vectors_of_texts_edited_away_are_pruned(index, repo):
    def vector_hashes() -> set[str]:
        return {h for (h,) in index.store.db.execute("SELECT hash FROM vectors")}

    def chunk_hashes() -> set[str]:  # the chunks' texts and their windows' (store/windows.py)
        return {h for (h,) in index.store.db.execute("SELECT embed_hash FROM chunks UNION SELECT hash FROM windows")}

    assert vector_hashes() == chunk_hashes()
    before = vector_hashes()
    path = repo / "src/http/sessions.py"
    path.write_text(path.read_text().replace("def rebuild_auth", "def rebuild_authorization"))
    stats = index.update()
    assert stats.files_parsed == 1 and stats.embedded > 0
    assert vector_hashes() == chunk_hashes()  # the edited chunks' old vectors are gone, the new ones there
    assert before - vector_hashes()


def test_keyword_index_rebuilt_after_crash_between_commits(keyword_index, repo):
    keyword_index.keyword.clear()
    keyword_index.keyword.commit()
    keyword_index.store.set_meta("keyword_dirty", "1")
    keyword_index.store.db.commit()
    with Index(repo) as again:
        again.update(embed=False)
        assert again.search("rebuild_auth", mode="keyword").results[0].name == "rebuild_auth"


def test_keyword_index_refilled_when_its_folder_is_lost(keyword_index, repo):
    import shutil

    keyword_index.close()
    shutil.rmtree(repo / ".codesift" / "keyword")  # deleted by hand, or lost with a disk cleanup
    query = "strip credentials when a redirect leaves the host"
    with Index(repo) as again:  # a search alone repairs it: no update needed
        assert "rebuild_auth" in {r.name for r in again.search(query, mode="keyword").results}
    shutil.rmtree(repo / ".codesift" / "keyword")
    with Index(repo) as again:
        again.update(embed=False)  # an update that changes nothing leaves no empty index behind
        assert "rebuild_auth" in {r.name for r in again.search(query, mode="keyword").results}


def test_an_alias_qualifier_finds_the_name(keyword_index):
    top = keyword_index.search("rq.rebuild_auth", mode="keyword").results[0]  # import requests as rq
    plain = keyword_index.search("rebuild_auth", mode="keyword").results[0]
    assert top.name == "rebuild_auth" and top.explain["name_match"] == plain.explain["name_match"]  # not 0.6 of it
    assert keyword_index.search("SessionRedirectMixin.rebuild_auth", mode="keyword").results[0].name == "rebuild_auth"


def test_a_question_for_references_points_to_usages(keyword_index):
    notes = keyword_index.search("who calls rebuild_auth?", mode="keyword").notes
    assert any("codesift usages rebuild_auth" in n for n in notes)
    assert not any("usages" in n for n in keyword_index.search("who calls no_such_thing", mode="keyword").notes)
    assert not any("usages" in n for n in keyword_index.search("where are cookies used", mode="keyword").notes)


def test_bad_arguments(shared_index):
    with pytest.raises(ValueError):
        shared_index.search("x", mode="fuzzy")
    with pytest.raises(ValueError):
        shared_index.search("x", limit=0)
    with pytest.raises(ValueError, match="the query is empty"):  # as on the CLI and MCP (codesift.limits)
        shared_index.search("   ")
    assert shared_index.search("\x00\x01 ((( AND").results is not None


def test_missing_and_non_directory_roots(tmp_path):
    with pytest.raises(FileNotFoundError):
        Index(tmp_path / "nope")
    (tmp_path / "f").write_text("x")
    with pytest.raises(NotADirectoryError):
        Index(tmp_path / "f")


def test_status_reports_counts_languages_and_skips(index, repo):
    (repo / "package-lock.json").write_text("{}")
    index.update()
    status = index.status()
    assert status["files"] == 5
    assert status["symbols"] >= 7
    assert status["languages"]["python"] == 3
    assert status["skipped"].get("lockfile") == 1
    assert status["model"] and status["dim"] == 384
    assert status["last_update"] is not None


def test_failing_file_is_quarantined_after_repeated_failures(keyword_index, repo, monkeypatch):
    from codesift.indexing import indexer, prepare

    bad = repo / "src/http/broken.py"
    bad.write_text("def broken():\n    pass\n")

    def boom(path, data):
        if path.endswith("broken.py"):
            raise RuntimeError("parser exploded")
        return real(path, data)

    real = prepare.parse_file
    monkeypatch.setattr(prepare, "parse_file", boom)
    for attempt in range(indexer.QUARANTINE_AFTER):
        stats = keyword_index.update()
        assert stats.warnings.get("parse_error") == 1, attempt
    stats = keyword_index.update()
    assert "parse_error" not in stats.warnings and stats.skipped.get("quarantined") == 1
    status = keyword_index.status()
    quarantined = status["quarantined"]
    assert "src/http/broken.py" in quarantined and "parser exploded" in quarantined["src/http/broken.py"]
    bad.write_text("def broken_fixed():\n    pass\n")  # a changed file is tried again
    monkeypatch.setattr(prepare, "parse_file", real)
    keyword_index.update()
    assert keyword_index.find_symbol("broken_fixed", exact=True)
    assert keyword_index.status()["quarantined"] == {}


@pytest.mark.model
def test_embed_threshold_never_stalls_a_search_on_a_whole_tree(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "empty-cache"))  # nothing to fill from
    with Index(repo) as idx:
        idx.update(embed=False)
        pending = idx.store.count_missing_embeddings()
        stats = idx.update(embed_threshold=pending - 1)
        assert stats.embedded == 0 and stats.embed_pending == pending
        res = idx.search("redirects")
        assert res.coverage == 0 and any("embedded" in n for n in res.notes)
        stats = idx.update(embed_limit=2)
        assert stats.embedded == 2 and stats.embed_pending == pending - 2
        assert idx.update(embed_threshold=pending).embedded == pending - 2


def test_index_folders_are_never_indexed(repo, tmp_path):
    from codesift.config.settings import Config

    with Index(repo) as idx:  # leaves <repo>/.codesift behind
        idx.update(embed=False)
    inside = repo / "custom-index"
    with Index(repo, config=Config(index_dir=str(inside))) as idx:
        idx.update(embed=False)
        paths = {row[0] for row in idx.store.db.execute("SELECT path FROM files")}
        assert not any(p.startswith((".codesift/", "custom-index/")) for p in paths)
        assert idx.update(embed=False).files_parsed == 0  # its own writes do not look like changes


def test_a_parser_change_reparses_unchanged_files_once(index, monkeypatch):
    import codesift.indexing.indexer as indexer

    assert index.update().files_parsed == 0
    monkeypatch.setattr(indexer, "PARSER_VERSION", "test-next")
    stats = index.update()
    assert stats.files_parsed == len(index.store.files()) > 0
    assert stats.embedded == 0  # same chunk texts: their vectors are kept
    assert index.update().files_parsed == 0


@pytest.mark.model
def test_partly_embedded_tree_answers_hybrid_with_keyword_ranking(repo):
    from codesift import Index

    with Index(repo) as idx:
        idx.update(embed_limit=2)
        partial = idx.search("follow redirects", limit=5)
        assert partial.mode == "keyword" and partial.coverage < 0.95
        assert any("semantic ranking joins" in n for n in partial.notes)
        keyword = idx.search("follow redirects", limit=5, mode="keyword")
        assert [(r.path, r.start_line) for r in partial.results] == [(r.path, r.start_line) for r in keyword.results]
        assert idx.search("follow redirects", limit=5, mode="semantic").mode == "semantic"  # asked for: used
        idx.update()
        full = idx.search("follow redirects", limit=5)
        assert full.mode == "hybrid" and full.coverage == 1.0 and not full.notes


def test_a_name_defined_twice_lists_the_other_definition(tmp_path, monkeypatch):
    from codesift import Index
    from codesift.tools.markdown import render_search

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "types.ts").write_text("export interface loadConfig {\n  (path: string): Config\n}\n")
    (tmp_path / "load.ts").write_text("export function loadConfig(path: string) {\n  const raw = read(path)\n"
                                      "  return parse(raw)\n}\n")
    with Index(tmp_path) as index:
        index.update(embed=False)
        top = index.search("loadConfig", mode="keyword").results[0]
        assert (top.path, top.kind) == ("load.ts", "function")
        assert top.also_defined == ["types.ts:1 interface loadConfig"]
        assert top.to_dict()["also_defined"] == top.also_defined
        payload = {"query": "loadConfig", "mode": "keyword", "results": [top.to_dict()]}
        assert "**Also defined:** `types.ts:1 interface loadConfig`" in render_search(payload).text


def test_vector_search_on_the_query_thread_ranks_as_on_the_callers(shared_index, monkeypatch):
    """An unfiltered search runs the vector index on the query thread; skipping that changes nothing."""
    from codesift.search.retrieve import EarlyVectorRetriever

    ran = []
    original = EarlyVectorRetriever.run
    monkeypatch.setattr(EarlyVectorRetriever, "run", lambda self, vector: (ran.append(1), original(self, vector)))
    queries = ("follow redirects and drop credentials", "cookie jar", "parse json request body")
    early = [[(r.path, r.start_line, r.score) for r in shared_index.search(q, limit=5).results] for q in queries]
    assert len(ran) == len(queries)
    monkeypatch.setattr(EarlyVectorRetriever, "run", lambda self, vector: None)
    late = [[(r.path, r.start_line, r.score) for r in shared_index.search(q, limit=5).results] for q in queries]
    assert early == late and all(early)
    monkeypatch.setattr(EarlyVectorRetriever, "run", lambda self, vector: (ran.append(1), original(self, vector)))
    # filtered: searched on the caller's thread
    assert shared_index.search("cookie jar", limit=5, kind="class").results
    assert len(ran) == len(queries)


def test_long_chunks_are_searched_by_their_best_window(index, repo):
    from codesift.store.vectors import WindowedVectors

    status = index.status()
    assert status["windows"]["embedded"] == status["windows"]["total"] > 0
    vectors = index.current_vectors()
    assert isinstance(vectors, WindowedVectors) and len(vectors.windows) == status["windows"]["total"]
    # every window belongs to a chunk of the index, and each chunk's windows are its own code past the head
    rows = index.store.chunks_by_id(set(vectors.owners.tolist()))
    assert set(vectors.owners.tolist()) <= set(rows)
    # a chunk's vector score is the best of its vectors: never below its own vector's
    query = vectors.windows.matrix[0].astype("float32")
    owner = int(vectors.owners[0])
    hits = dict(vectors.search(query / (float((query @ query) ** 0.5) or 1.0), 50))
    assert owner in hits and hits[owner] == pytest.approx(max(hits.values()), abs=1e-3)
    # a file edited away takes its windows with it
    (repo / "src/http/sessions.py").unlink()
    index.update()
    assert not index.store.db.execute("SELECT 1 FROM windows w LEFT JOIN chunks c ON c.id = w.chunk_id "
                                      "WHERE c.id IS NULL").fetchone()


@pytest.mark.model
def test_embed_windows_off_embeds_chunks_only(repo):
    (repo / "codesift.toml").write_text("embed_windows = false\n")
    from codesift.store.vectors import VectorIndex

    with Index(repo) as idx:
        stats = idx.update()
        status = idx.status()
        assert stats.embedded == status["chunks"] and status["windows"]["embedded"] == 0
        assert status["windows"]["total"] > 0  # recorded at parse time: turning it on later embeds them
        assert type(idx.current_vectors()) is VectorIndex
        assert idx.search("where are redirects followed").mode == "hybrid"


def test_only_definitions_outside_tests_and_examples_get_window_vectors(tmp_path):
    from codesift.indexing.prepare import prepare_file

    body = "def run_all(state):\n" + "".join(f"    state.value_{i} = compute_{i}(state.input_{i})\n" for i in range(60))
    for rel, windows in (("src/pipeline.py", True), ("tests/test_pipeline.py", False), ("examples/demo.py", False)):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
        prepared = prepare_file(rel, str(path), None)
        assert prepared.status == "ok" and len(prepared.hashes) == 1
        assert bool(prepared.window_hashes and prepared.window_hashes[0]) is windows, rel
    # a long documentation section or module code gets none either
    for rel, text in (("docs/guide.md", "# Guide\n\n" + "Run the pipeline and read its values.\n" * 60),
                      ("src/settings.py", "".join(f"VALUE_{i} = compute_{i}(INPUT_{i})\n" for i in range(60)))):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        prepared = prepare_file(rel, str(path), None)
        assert prepared.status == "ok" and prepared.chunks
        assert all(c.kind in ("section", "module", "window") for c in prepared.chunks), rel
        assert not any(prepared.window_hashes), rel


def test_an_index_from_before_windows_reads_as_having_none(tmp_path):
    import sqlite3

    from codesift.store.sqlite import MetaStore

    path = tmp_path / "meta.db"
    MetaStore(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE windows")
    db.commit()
    db.close()
    store = MetaStore(path, readonly=True)  # read-only: the table is not created
    assert store.window_counts() == (0, 0)
    store.close()
