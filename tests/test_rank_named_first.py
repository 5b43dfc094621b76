"""A name typed as the query keeps the definition it names first, after the learned re-ranker too."""

from codesift.config.rank import RankSettings
from codesift.query.parsed import as_parsed
from codesift.rank.candidate import Candidate
from codesift.rank.diversity import named_first
from codesift.rank.pipeline import restructure


def _cand(cid: int, qualified: str, score: float, named: bool = False, kind: str = "method") -> Candidate:
    name = qualified.rsplit(".", 1)[-1]
    c = Candidate(cid, f"include/spdlog/f{cid}.h", name, qualified, kind, "cpp", 10 * cid, 10 * cid + 5,
                  f"void {name}() {{ return; }}", score=score)
    c.named = named
    return c


def _reranked() -> list[Candidate]:
    """The order the learned re-ranker gave ``spdlog::logger::log`` on spdlog: the macro whose name holds every
    query term above the method the query names."""
    return [_cand(1, "SPDLOG_LOGGER_CALL", 0.74, kind="function"), _cand(2, "logger.flush", 0.6),
            _cand(3, "logger.log", 0.55, named=True), _cand(4, "log", 0.52, kind="function")]


def test_the_definition_a_qualified_name_names_comes_first_and_each_place_keeps_its_score():
    out = named_first(_reranked(), as_parsed("spdlog::logger::log"))
    assert [c.qualified_name for c in out] == ["logger.log", "SPDLOG_LOGGER_CALL", "logger.flush", "log"]
    assert [c.score for c in out] == [0.74, 0.6, 0.55, 0.52]
    assert out[0].explain["named_first"] == 1.0 and "named_first" not in out[1].explain


def test_a_bare_name_or_a_kind_and_name_too():
    for query in ("log", "function log", "logger.log"):
        out = named_first(_reranked(), as_parsed(query))
        assert out[0].qualified_name == "logger.log", query


def test_sentences_and_pasted_lines_keep_their_order():
    for query in ("where does spdlog::logger::log format the message", "how are log messages formatted",
                  "void logger::log(level::level_enum lvl, string_view_t msg)"):
        out = named_first(_reranked(), as_parsed(query))
        assert [c.chunk_id for c in out] == [1, 2, 3, 4], query


def test_it_runs_again_once_the_re_ranker_has_ordered_the_results():
    query = as_parsed("Polly.Retry.RetryHelper.Run")
    on = restructure(_reranked(), query, RankSettings())
    assert on[0].qualified_name == "logger.log"
    off = restructure(_reranked(), query, RankSettings(named_first=False))
    assert [c.chunk_id for c in off] == [1, 2, 3, 4]


def test_nothing_moves_when_the_named_definitions_already_lead():
    cands = _reranked()
    cands[0].named, cands[2].named = True, False
    assert named_first(cands, as_parsed("spdlog::logger::log")) == cands
    assert all("named_first" not in c.explain for c in cands)
