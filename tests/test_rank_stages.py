"""The ranking pipeline is one list of named stages: each switch is a ``[rank]`` setting, switching a stage off
is the same as leaving it out, and the parsed query is what the stages read."""

from dataclasses import fields, replace

import pytest

from codesift.query.parsed import parse_query
from codesift.query.shape import QueryShape
from codesift.rank import Candidate, RankSettings, rank
from codesift.rank import pipeline
from codesift.rank.pipeline import STAGES, stage
from codesift.text.tokens import tokenize
from test_rank_pipeline import UNIT
from test_rank_pipeline import cands as pipeline_cands



def cands() -> list[Candidate]:
    """test_rank_pipeline's three candidates and a second definition of the class (a namesake)."""
    twin = Candidate(4, "src/cookies.py", "RequestsCookieJar", "RequestsCookieJar", "class", "python", 1, 40,
                     "class RequestsCookieJar:\n" + "    pass\n" * 60, score=0.9 * UNIT)
    return [*pipeline_cands(), twin]


def test_stage_names_are_unique_and_each_switch_is_a_rank_setting() -> None:
    names = [s.name for s in STAGES]
    assert len(names) == len(set(names))
    settings = {f.name for f in fields(RankSettings)}
    assert all(s.switch in settings for s in STAGES if s.switch is not None)
    assert stage("rerank").switch == "rerank"
    with pytest.raises(KeyError, match="name_match"):
        stage("nope")


@pytest.mark.parametrize("s", [s for s in STAGES if s.switch is not None], ids=lambda s: s.name)
def test_a_stage_switched_off_is_the_pipeline_without_it(s, monkeypatch) -> None:
    on = RankSettings()
    if not s.enabled(on):  # off by default (path_bonus, max_per_file, …): switched on for the comparison
        on = replace(on, **{s.switch: 2 if s.switch == "max_per_file" else True})
    off = s.off(on)
    assert s.enabled(on) and not s.enabled(off)
    out_off, _ = rank(cands(), "RequestsCookieJar", off, rrf_unit=UNIT, max_fused=2 * UNIT, now=0.0)
    monkeypatch.setattr(pipeline, "STAGES", tuple(x for x in STAGES if x.name != s.name))
    out_without, _ = rank(cands(), "RequestsCookieJar", on, rrf_unit=UNIT, max_fused=2 * UNIT, now=0.0)
    assert [(c.chunk_id, c.score) for c in out_off] == [(c.chunk_id, c.score) for c in out_without]


def test_an_always_on_stage_cannot_be_switched_off() -> None:
    with pytest.raises(ValueError, match="order"):
        stage("order").off(RankSettings())


def test_the_parsed_query_holds_what_the_stages_read() -> None:
    q = parse_query("who calls chi.URLParam?")
    assert (q.usage_target, q.used_name) == ("chi.URLParam", "URLParam")
    assert q.identifiers == ("chi.URLParam?",) and q.qualifiers == frozenset({"chi"})
    assert parse_query("RequestsCookieJar").shape == QueryShape.IDENTIFIER
    assert parse_query("find the Session class").named_kind is not None
    assert parse_query("where are redirects followed").sentence
    assert parse_query("func Equal(t TestingT, expected, actual interface{}) bool").pasted
    assert parse_query("cookie jars").terms == tuple(tokenize("cookie jars")) == ("cooky", "jar")


def test_rank_takes_the_parsed_query_or_its_text_alike() -> None:
    text = "RequestsCookieJar"
    by_text, best_text = rank(cands(), text, RankSettings(), rrf_unit=UNIT, max_fused=2 * UNIT, now=0.0)
    parsed, best_parsed = rank(cands(), parse_query(text), RankSettings(), rrf_unit=UNIT, max_fused=2 * UNIT, now=0.0)
    assert [c.chunk_id for c in by_text] == [c.chunk_id for c in parsed] and best_text == best_parsed


def test_search_explain_names_the_stages_in_order_and_those_switched_off() -> None:
    from codesift.cli.render import stages_line

    line = stages_line(RankSettings(recency=False))
    on, _, off = line.removeprefix("ranking: ").partition(" (off: ")
    assert on.split(" → ") == [s.name for s in STAGES if s.enabled(RankSettings(recency=False))]
    assert "recency" in off and "recency" not in on


def test_structural_stages_apply_again_to_a_final_order() -> None:
    # what the learned re-ranker may return: a local function above the method holding it, a two-line
    # overload above the one with the body, in another file
    def fn(cid, path, start, end, name):
        return Candidate(cid, path, name, f"Builder.{name}", "method", "c_sharp", start, end, f"void {name}() {{}}")

    nested, outer = fn(1, "a.cs", 64, 92, "HandleNested"), fn(2, "a.cs", 57, 93, "HandleInner")
    wrapper, impl = fn(3, "b.cs", 10, 11, "Build"), fn(4, "b.cs", 20, 60, "Build")
    query = parse_query("match an exception nested as an inner exception")
    out = pipeline.restructure([nested, wrapper, outer, impl], query, RankSettings())
    assert [c.chunk_id for c in out] == [2, 4, 3]
    assert out[0].merged_names == ["Builder.HandleNested"]
    off = replace(RankSettings(), enclosing_first=False, implementation_first=False)
    assert [c.chunk_id for c in pipeline.restructure([nested, wrapper, outer, impl], query, off)] == [1, 3, 2, 4]
