"""The learned re-ranker: its features, the tree evaluator, the shipped model and the reordering."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from codesift.rank import learned
from codesift.rank.candidate import Candidate
from codesift.rank.learned import FEATURES, RankerUnavailable, RerankRow, Trees, features, load_trees, rerank

F = {name: i for i, name in enumerate(FEATURES)}


def row(score: float = 0.5, kw: int | None = 1, vec: int | None = 1, cos: float | None = 0.5, *,
        kind: str = "function", name: str = "pkg.thing", text: str = "", doc: str = "") -> RerankRow:
    return RerankRow(score, kw, vec, cos, kind, name, text, doc)


def test_features_measure_query_terms_against_the_other_results() -> None:
    rows = [row(name="jar.get", text="return the header value"),
            row(name="redirect.follow", text="follow every redirect of the header jar", doc="Follow redirects."),
            row(name="jar.set", text="set a header")]
    x = features(rows, "follow redirect header")
    # "header" is in every result: it tells none apart; "follow" and "redirect" are the second one's alone
    assert x[1, F["coverage"]] == pytest.approx(1.0)
    assert x[1, F["coverage_gap"]] == 0.0
    weight_common = math.log(1 + 3 / 4)
    weight_rare = math.log(1 + 3 / 2)
    assert x[0, F["coverage"]] == pytest.approx(weight_common / (weight_common + 2 * weight_rare))
    assert x[0, F["coverage_gap"]] == pytest.approx(x[0, F["coverage"]] - 1.0)
    assert x[1, F["name_coverage"]] > 0 and x[0, F["name_coverage"]] == 0
    assert x[1, F["doc_coverage"]] > 0 and x[1, F["has_doc"]] == 1 and x[0, F["has_doc"]] == 0
    assert list(x[:, F["log_rank"]]) == pytest.approx([0.0, math.log(2), math.log(3)])


def test_features_of_ranks_and_cosines() -> None:
    rows = [row(kw=1, vec=None, cos=None), row(kw=None, vec=3, cos=0.7), row(kw=4, vec=1, cos=0.9, kind="class")]
    x = features(rows, "anything")
    assert x[0, F["keyword_rank"]] == 1.0 and x[0, F["vector_missing"]] == 1.0
    assert x[1, F["keyword_missing"]] == 1.0 and x[1, F["keyword_rank"]] == 0.0
    assert x[1, F["vector_rank"]] == pytest.approx(1 / (1 + math.log(3)))
    # absent from the vector list: the lowest cosine here stands in for its own
    assert list(x[:, F["cosine_gap"]]) == pytest.approx([0.7 - 0.9, 0.7 - 0.9, 0.0])
    assert list(x[:, F["is_function"]]) == [1.0, 1.0, 0.0]


def test_features_of_calls_among_the_results() -> None:
    # the caller ranked first, the helper it calls by name second; ``xlaction(`` and a mention without a call
    # are no calls of ``laction``
    rows = [row(name="docall", text="static int docall (lua_State *L) {\n  signal(SIGINT, laction);\n  run(L);\n}"),
            row(name="laction", text="static void laction (int i) { lua_sethook(L, lstop, 0, 1); }"),
            row(name="lua.run", text="void run (lua_State *L) { xlaction(L); }"),
            row(name="main", text="int main (void) { return docall (L) + run(L); }")]
    x = features(rows, "handle ctrl-c")
    assert list(x[:, F["called_by"]]) == [1.0, 0.0, 2.0, 0.0]
    assert list(x[:, F["caller_above"]]) == [0.0, 0.0, 1.0, 0.0]  # run is called by docall, above it
    assert list(x[:, F["calls_others"]]) == [1.0, 0.0, 0.0, 2.0]


def test_constructors_are_told_apart_in_each_language() -> None:
    constructors = ["requests.Session.__init__", "Monolog.Logger.__construct", "Jekyll.Site.initialize",
                    "Vec.new", "spdlog::logger::logger", "Polly.ResiliencePipeline.ResiliencePipeline"]
    others = ["Session.send", "Logger.newInstance", "Site.init_site", "spdlog::logger::log", "logger", "Foo.Bar"]
    assert all(learned.is_constructor(n) for n in constructors)
    assert not any(learned.is_constructor(n) for n in others)
    x = features([row(name="Session.__init__"), row(name="Session.send")], "send a request")
    assert list(x[:, F["is_constructor"]]) == [1.0, 0.0]


def test_uses_query_names_counts_the_names_a_body_uses_beside_its_own() -> None:
    query = "TextWrapper: wrap lines longer than MAX_WIDTH unless breakLongWords is off"
    setter = row(name="TextWrapper.breakLongWords",
                 text="public function breakLongWords(bool $b): self { $this->breakLongWords = $b; }")
    user = row(name="TextWrapper.wrapLine",
               text="if (strlen($line) > self::MAX_WIDTH) { return $this->breakLongWords ? a() : b(); }")
    prefix = row(name="Doc.render", text="$this->breakLongWordsLater(); MAX_WIDTH_2")  # no whole word
    x = features([setter, user, prefix], query)
    # three names in the query; the setter's own name and its class are not counted as uses
    assert list(x[:, F["uses_query_names"]]) == pytest.approx([0.0, 2 / 3, 0.0])
    assert learned.uses_query_names("Site#render", "site.render(x)", ["Site::render", "payload"]) == 0.0
    assert learned.uses_query_names("a.b", "any text", []) == 0.0


def test_features_without_query_terms_or_vectors() -> None:
    x = features([row(vec=None, cos=None), row(vec=None, cos=None)], "the of")
    assert x.shape == (2, len(FEATURES)) and np.isfinite(x).all()
    assert (x[:, F["coverage"]] == 0).all() and (x[:, F["cosine_gap"]] == 0).all()


def two_trees() -> dict:
    # tree 0: feature 0 <= 0.5 ? (feature 1 <= 2 ? 1 : 2) : 3 ; tree 1 (a stump): feature 1 <= 0 ? -10 : 10
    return {"features": ["a", "b"], "trees": [
        {"feature": [0, 1, 0, 0, 0], "threshold": [0.5, 2.0, 0, 0, 0], "left": [1, 3, 2, 3, 4],
         "right": [2, 4, 2, 3, 4], "value": [0, 0, 3.0, 1.0, 2.0]},
        {"feature": [1, 0, 0], "threshold": [0.0, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
         "value": [0, -10.0, 10.0]},
    ]}


def test_trees_follow_each_split_to_its_leaf() -> None:
    trees = Trees.from_json(two_trees())
    assert trees.depth == 2 and trees.names == ("a", "b")
    x = np.array([[0.5, 2.0], [0.2, 3.0], [0.9, -1.0], [0.9, 5.0]])
    assert list(trees.predict(x)) == [1.0 + 10, 2.0 + 10, 3.0 - 10, 3.0 + 10]


def test_the_shipped_model_loads_and_prefers_what_every_signal_prefers() -> None:
    trees = load_trees()
    assert trees.names == FEATURES and trees.feature.shape[0] > 0
    weak = row(score=0.9, kw=40, vec=None, cos=None, kind="module", name="misc.helpers", text="unrelated text")
    strong = row(score=0.9, kw=1, vec=1, cos=0.8, name="redirect.follow_redirects",
                 text="follow every redirect", doc="Follow redirects.")
    x = features([weak, strong], "follow redirects")
    assert trees.predict(x)[1] > trees.predict(x)[0]


def cand(cid: int, score: float) -> Candidate:
    return Candidate(chunk_id=cid, path=f"f{cid}.py", name=f"f{cid}", qualified_name=f"f{cid}", kind="function",
                     language="python", start_line=1, end_line=5, text="", score=score)


def test_rerank_reorders_and_each_place_keeps_its_score() -> None:
    trees = Trees.from_json({"features": list(FEATURES), "trees": [
        {"feature": [F["coverage"], 0, 0], "threshold": [0.5, 0, 0], "left": [1, 1, 2], "right": [2, 1, 2],
         "value": [0, 0.0, 1.0]}]})
    cands = [cand(1, 0.9), cand(2, 0.6), cand(3, 0.3)]
    rows = [row(text="nothing"), row(text="nothing"), row(text="follow redirect")]
    out = rerank(cands, rows, "follow redirect", trees)
    assert [c.chunk_id for c in out] == [3, 1, 2]  # ties keep the pipeline's order
    assert [c.score for c in out] == [0.9, 0.6, 0.3]
    assert out[0].explain["pipeline_place"] == 3.0 and out[0].explain["learned"] == 1.0


def test_a_model_of_other_features_or_a_broken_file_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    class Folder:
        def __init__(self, text: str) -> None:
            self.text = text

        def joinpath(self, name: str):
            path = tmp_path / name
            path.write_text(self.text)
            return path

    for text, message in ((json.dumps(two_trees()), "trained on features"), ("{not json", "cannot be read")):
        monkeypatch.setattr(learned, "files", lambda package, t=text: Folder(t))
        load_trees.cache_clear()
        with pytest.raises(RankerUnavailable, match=message):
            load_trees()
    monkeypatch.undo()
    load_trees.cache_clear()
    assert load_trees().names == FEATURES


def test_search_reranks_and_a_broken_model_leaves_the_pipeline_order_with_a_note(keyword_index, monkeypatch) -> None:
    from codesift.search import engine

    query = "follow redirects and drop the authorization header"
    ranked = keyword_index.search(query, mode="keyword", limit=20)
    assert ranked.results and all("pipeline_place" in r.explain for r in ranked.results)
    assert not any("re-ranker" in n for n in ranked.notes)

    def broken() -> Trees:
        raise RankerUnavailable("the re-ranker's model reranker.json cannot be read (gone)")

    monkeypatch.setattr(engine, "load_trees", broken)
    plain = keyword_index.search(query, mode="keyword", limit=20)
    assert any("reranker.json cannot be read" in n for n in plain.notes)
    assert not any("pipeline_place" in r.explain for r in plain.results)
    # the pipeline's order is the one the re-ranker started from, but for what the stages after it moved (a
    # method shown with its class follows the other results: rank.pipeline.LAST)
    moved = {r.chunk_id for r in plain.results if "contained_yields" in r.explain}
    by_place = sorted(ranked.results, key=lambda r: r.explain["pipeline_place"])
    assert [r.chunk_id for r in plain.results if r.chunk_id not in moved] == [
        r.chunk_id for r in by_place if r.chunk_id not in moved]


def test_status_and_doctor_say_when_the_reranker_is_unavailable(keyword_index, monkeypatch) -> None:
    from codesift.doctor.health import index_health

    assert keyword_index.status()["reranker"] == "ok"

    def broken() -> Trees:
        raise RankerUnavailable("the re-ranker's model reranker.json cannot be read (gone)")

    monkeypatch.setattr(learned, "load_trees", broken)
    assert keyword_index.status()["reranker"].startswith("unavailable: the re-ranker's model")
    health = index_health(keyword_index.root, keyword_index.config, [])
    assert any("learned re-ranker is unavailable" in p for p in health["problems"])


def test_a_malformed_tree_is_refused_before_it_can_loop_or_index_out_of_range() -> None:
    for bad in ({"left": [1, 0, 2], "right": [2, 1, 2]},  # node 1 points back to the root
                {"left": [1, 1, 2], "right": [5, 1, 2]},  # a child outside the tree
                {"feature": [7, 0, 0]}):  # a split on a feature the model does not have
        model = two_trees()
        model["trees"][1] = {**model["trees"][1], **bad}
        with pytest.raises(ValueError, match="tree 1 is malformed"):
            Trees.from_json(model)
