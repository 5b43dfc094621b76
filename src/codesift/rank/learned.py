"""The learned re-ranker: boosted trees over signals the pipeline already has, reordering its first results.

The hand-set stages score each candidate from one signal at a time; the trees weigh them together: the
pipeline's own score and place, both retrievers' ranks, the cosine's distance from the best one, how much of the
query's weight the candidate's name, text and doc hold, measured against the other candidates, which candidates
call which, whether it is a constructor, and which of the names the query mentions its code uses. The model
(``reranker.json``, package data) is trained by ``train/reranker.py`` on the public and dev-set queries; its
leave-one-repository-out tables are in docs/design-decisions.md#the-learned-re-ranker. It reorders only the first
:data:`DEPTH` distinct results and hands them the scores they had in the old order, so scores still fall down the
list and the threshold and labels mean what they meant.

The trees learned the pipeline as it was when they were trained: after a change to a stage before them (a
retriever, a factor, the tokenizer), run ``train/reranker.py collect``, ``loco`` and ``fit`` again and compare.

Every feature is computed from the retrievers' answers and the chunks' stored text, so the embedded store and
Qdrant rerank alike. Evaluating 300 small trees on 20 rows is a few array operations (``Trees.predict``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import NamedTuple, TypedDict

import numpy as np

from codesift.datatypes import dotted
from codesift.errors import CodesiftError
from codesift.query.parsed import ParsedQuery, as_parsed
from codesift.rank.candidate import Candidate
from codesift.rank.diversity import FUNCTION_KINDS

__all__ = ["DEPTH", "FEATURES", "ModelJson", "RankerUnavailable", "RerankRow", "TreeJson", "Trees", "features",
           "is_constructor", "load_trees", "rerank", "reranker_status", "uses_query_names"]

DEPTH = 20  # distinct results reordered: what the model was trained on
FEATURES: tuple[str, ...] = (
    "score",  # the pipeline's normalised score (0–1)
    "log_rank",  # log of its place in the pipeline's order
    "keyword_rank",  # 1 / (1 + log rank) in the keyword retriever's list, 0 when absent
    "keyword_missing",
    "vector_rank",  # the same for the vector retriever
    "vector_missing",
    "cosine_gap",  # its vector score minus the best one here (absent: the lowest one here)
    "coverage",  # share of the query terms' weight its name or text holds
    "coverage_gap",  # coverage minus the best coverage here
    "name_coverage",  # the share its qualified name holds
    "is_function",
    "doc_coverage",  # the share its doc holds
    "has_doc",
    "called_by",  # how many other results call it by name (``laction(`` in ``docall``), up to 3
    "caller_above",  # whether a result ranked above it calls it: the helper under its caller
    "calls_others",  # how many other results it calls, up to 3
    "is_constructor",  # (:func:`is_constructor`) names what its class holds, and rarely answers a sentence
    "uses_query_names",  # (:func:`uses_query_names`) the code a sentence describes uses the names it mentions
)
MODEL_FILE = "reranker.json"


class RankerUnavailable(CodesiftError):
    """The re-ranker's model file is missing or unreadable."""


class RerankRow(NamedTuple):
    """What the features read of one result, in the pipeline's order."""

    score: float  # normalised to the query's best possible score, rounded to 4 places (as results show it)
    keyword_rank: int | None
    vector_rank: int | None
    cosine: float | None  # the vector retriever's score, when it ranked the chunk
    kind: str
    name: str  # qualified name
    text: str  # the chunk's stored text
    doc: str


# Constructors by convention: Python, PHP, Ruby, JavaScript/TypeScript, Swift/Kotlin, Rust.
CONSTRUCTOR_NAMES = frozenset({"__init__", "__construct", "initialize", "constructor", "init", "new"})


def is_constructor(qualified: str) -> bool:
    """``Session.__init__``, ``Logger.__construct``, ``Site#initialize``, ``Foo::new``, or a method named for its class
    (``logger::logger`` in C++, ``Policy.Policy`` in C# and Java). A bare ``init`` or ``new`` counts too (Go's
    package ``init``): the shipped trees were trained with this rule."""
    parts = dotted(qualified).split(".")
    return parts[-1] in CONSTRUCTOR_NAMES or (len(parts) > 1 and parts[-1] == parts[-2].split("<", 1)[0])


# Class.method, Class::method, Module#method, Ns\Class, and module code's ``file_stem:62`` (``dotted`` keeps that ":")
_NAME_PARTS = re.compile(r"[.:#\\/]+")


def uses_query_names(qualified: str, text: str, identifiers: Sequence[str]) -> float:
    """The share of the query's identifiers (three characters or more) that ``text`` uses as a whole word, not
    counting those its own qualified name is made of: "wrap lines longer than MAX_WIDTH unless breakLongWords is off"
    describes the method using both, not the ``breakLongWords`` setter."""
    names = [i for i in identifiers if len(i) >= 3]
    if not names:
        return 0.0
    own = set(_NAME_PARTS.split(qualified))
    used = 0
    for name in names:
        last = _NAME_PARTS.split(name)[-1]
        if last and last not in own and _has_word(text, last):
            used += 1
    return used / len(names)


def _is_word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def _has_word(text: str, word: str) -> bool:
    """Whether ``word`` is in ``text`` with no ASCII letter, digit or ``_`` on either side (``str.find``, as in
    :func:`_calls_name`)."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if (start == 0 or not _is_word_char(text[start - 1])) and (end == len(text) or not _is_word_char(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


def _rank_feature(rank: int | None) -> float:
    return 1.0 / (1.0 + math.log(rank)) if rank else 0.0


def _short_name(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1].rsplit("::", 1)[-1]


def _calls_name(text: str, name: str) -> bool:
    """Whether ``text`` calls ``name``: the name, not inside a longer word, then ``(`` after any spacing. A scan by
    ``str.find`` (a regular expression per name read the texts ~6× slower)."""
    end = len(text)
    start = text.find(name)
    while start >= 0:
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_$"):
            k = start + len(name)
            while k < end and text[k] in " \t\r\n\f\v":
                k += 1
            if k < end and text[k] == "(":
                return True
        start = text.find(name, start + 1)
    return False


def calls(rows: Sequence[RerankRow]) -> np.ndarray:
    """[caller, callee]: result ``caller``'s text calls result ``callee`` by its name (``name(``), itself aside."""
    names = [_short_name(r.name) for r in rows]
    out = np.zeros((len(rows), len(rows)), dtype=bool)
    for j, name in enumerate(names):
        if len(name) < 2:
            continue
        for i, r in enumerate(rows):
            if i != j and names[i] != name and _calls_name(r.text, name):
                out[i, j] = True
    return out


def features(rows: Sequence[RerankRow], query: ParsedQuery | str) -> np.ndarray:
    """One row of :data:`FEATURES` per result. A query term weighs ``log(1 + n / (1 + m))`` for the ``m`` of the
    ``n`` results whose name or text contains it (lower-cased substring): rare among them, it tells them apart."""
    parsed = as_parsed(query)
    terms = list(dict.fromkeys(parsed.terms))
    shape = (len(rows), len(terms))

    def holds(texts: list[str]) -> np.ndarray:  # [result, term]: the term is in the result's lower-cased text
        return np.array([[t in x for t in terms] for x in texts], dtype=bool).reshape(shape)

    in_name = holds([r.name.lower() for r in rows])
    in_code = in_name | holds([r.text.lower() for r in rows])
    in_doc = holds([r.doc.lower() for r in rows])
    weight = np.log1p(len(rows) / (1.0 + in_code.sum(axis=0)))
    weight = weight / (weight.sum() or 1.0)
    cover = in_code @ weight
    called = calls(rows)
    cosines = [round(r.cosine, 5) for r in rows if r.cosine is not None and r.vector_rank]
    top_cos, low_cos = (max(cosines), min(cosines)) if cosines else (0.0, 0.0)
    cos = np.array([round(r.cosine, 5) if r.cosine is not None and r.vector_rank else low_cos for r in rows])
    columns = {
        "score": [round(r.score, 4) for r in rows],
        "log_rank": np.log(np.arange(1, len(rows) + 1)),
        "keyword_rank": [_rank_feature(r.keyword_rank) for r in rows],
        "keyword_missing": [0.0 if r.keyword_rank else 1.0 for r in rows],
        "vector_rank": [_rank_feature(r.vector_rank) for r in rows],
        "vector_missing": [0.0 if r.vector_rank else 1.0 for r in rows],
        "cosine_gap": cos - top_cos if cosines else np.zeros(len(rows)),
        "coverage": cover,
        "coverage_gap": cover - (cover.max() if len(rows) else 0.0),
        "name_coverage": in_name @ weight,
        "is_function": [1.0 if r.kind in FUNCTION_KINDS else 0.0 for r in rows],
        "doc_coverage": in_doc @ weight,
        "has_doc": [1.0 if r.doc.strip() else 0.0 for r in rows],
        "called_by": np.minimum(called.sum(axis=0), 3),
        "caller_above": np.triu(called, 1).any(axis=0).astype(float) if len(rows) else np.zeros(0),
        "calls_others": np.minimum(called.sum(axis=1), 3),
        "is_constructor": [1.0 if is_constructor(r.name) else 0.0 for r in rows],
        "uses_query_names": [uses_query_names(r.name, r.text, parsed.identifiers) for r in rows],
    }
    out = np.zeros((len(rows), len(FEATURES)))
    for j, name in enumerate(FEATURES):
        out[:, j] = columns[name]
    return out


class TreeJson(TypedDict):
    """One tree of the model file, node by node (node 0 its root): see :class:`Trees`."""

    feature: list[int]
    threshold: list[float]
    left: list[int]
    right: list[int]
    value: list[float]


class ModelJson(TypedDict):
    """The model file (``reranker.json``): the features its trees read, in order, and the trees."""

    features: list[str]
    trees: list[TreeJson]


@dataclass(frozen=True)
class Trees:
    """An additive ensemble of binary trees in flat arrays, one row per tree: node ``j`` sends a row whose
    feature ``feature[t, j]`` is ``<= threshold[t, j]`` to ``left[t, j]``, else to ``right[t, j]``; a leaf
    points to itself and holds ``value[t, j]``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    depth: int
    names: tuple[str, ...]
    # The same arrays raveled for :meth:`predict`, the children as flat node indices (tree × width + node); set
    # by __post_init__ from the ones above.
    _feature: np.ndarray = field(init=False, repr=False, compare=False)
    _threshold: np.ndarray = field(init=False, repr=False, compare=False)
    _left: np.ndarray = field(init=False, repr=False, compare=False)
    _right: np.ndarray = field(init=False, repr=False, compare=False)
    _value: np.ndarray = field(init=False, repr=False, compare=False)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The ensemble's score of each row of ``x``."""
        n_trees, width = self.feature.shape
        # flat node indices (tree × width + node), one column per row of x
        node: np.ndarray = np.repeat(np.arange(n_trees) * width, x.shape[0]).reshape(n_trees, x.shape[0])
        cols = x.shape[1] * np.arange(x.shape[0])[None, :]
        flat_x = x.ravel()
        for _ in range(self.depth):
            go_left = flat_x[cols + self._feature[node]] <= self._threshold[node]
            node = np.where(go_left, self._left[node], self._right[node])
        scores: np.ndarray = self._value[node].sum(axis=0)  # numpy's stubs type a sum over an axis as Any
        return scores

    def __post_init__(self) -> None:
        n_trees, width = self.feature.shape
        base = (np.arange(n_trees) * width)[:, None]
        for name, array in (("_feature", self.feature), ("_threshold", self.threshold), ("_value", self.value),
                            ("_left", self.left + base), ("_right", self.right + base)):
            object.__setattr__(self, name, np.ascontiguousarray(array).ravel())

    @classmethod
    def from_json(cls, data: ModelJson) -> Trees:
        """From ``{"features": [...], "trees": [{"feature": [...], "threshold": [...], "left": [...],
        "right": [...], "value": [...]}, ...]}``, each tree's node 0 its root."""
        names = tuple(data["features"])
        trees = data["trees"]
        width = max(len(t["feature"]) for t in trees)
        shape = (len(trees), width)
        feature, left, right = (np.zeros(shape, dtype=np.int64) for _ in range(3))
        threshold, value = np.full(shape, np.inf), np.zeros(shape)
        for i, t in enumerate(trees):
            n = len(t["feature"])
            feature[i, :n], threshold[i, :n], value[i, :n] = t["feature"], t["threshold"], t["value"]
            left[i, :n], right[i, :n] = t["left"], t["right"]
            left[i, n:] = right[i, n:] = np.arange(n, width)  # padding: leaves of value 0, never reached
            nodes = np.arange(n)
            leaf = (left[i, :n] == nodes) & (right[i, :n] == nodes)
            # children come after their node (so no tree loops) and inside the tree; splits read known features
            if not ((leaf | ((left[i, :n] > nodes) & (right[i, :n] > nodes))).all()
                    and left[i, :n].max() < n and right[i, :n].max() < n
                    and 0 <= feature[i, :n].min() and feature[i, :n].max() < len(names)):
                raise ValueError(f"tree {i} is malformed")
        return cls(feature, threshold, left, right, value, _depth(left, right), names)


def _depth(left: np.ndarray, right: np.ndarray) -> int:
    """Steps from the root to the deepest leaf of any tree."""
    deepest = 0
    for lt, rt in zip(left, right):
        level, frontier = 0, {0}
        while True:
            nxt = {int(c) for j in frontier for c in (lt[j], rt[j]) if c != j}
            if not nxt:
                break
            frontier, level = nxt, level + 1
        deepest = max(deepest, level)
    return deepest


@lru_cache(maxsize=1)
def load_trees() -> Trees:
    """The shipped model; :class:`RankerUnavailable` when its file is missing, unreadable or was trained on
    other features than :data:`FEATURES`."""
    try:
        data = json.loads(files("codesift.rank").joinpath(MODEL_FILE).read_text(encoding="utf-8"))
        trees = Trees.from_json(data)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RankerUnavailable(f"the re-ranker's model {MODEL_FILE} cannot be read ({exc}); reinstall codesift "
                                "or set learned_rerank = false under [rank]") from exc
    if trees.names != FEATURES:
        raise RankerUnavailable(f"{MODEL_FILE} was trained on features {list(trees.names)}, this codesift computes "
                                f"{list(FEATURES)}: retrain it with train/reranker.py")
    return trees


def reranker_status(enabled: bool) -> str:
    """``ok``, ``off`` (``learned_rerank = false``) or ``unavailable: <why>``, for ``status`` and ``doctor``."""
    if not enabled:
        return "off"
    try:
        load_trees()
    except RankerUnavailable as exc:
        return f"unavailable: {exc}"
    return "ok"


def rerank(cands: list[Candidate], rows: Sequence[RerankRow], query: ParsedQuery | str,
           trees: Trees) -> list[Candidate]:
    """``cands`` (distinct, in the pipeline's order, ``rows`` their features' inputs) reordered by the model,
    each place keeping the score it had; ties keep the pipeline's order."""
    if len(cands) < 2:
        return cands
    learned = trees.predict(features(rows, query))
    order = sorted(range(len(cands)), key=lambda i: (-learned[i], i))
    scores = [c.score for c in cands]
    out = [cands[i] for i in order]
    for place, (c, i) in enumerate(zip(out, order)):
        c.explain["learned"] = float(learned[i])
        c.explain["pipeline_place"] = i + 1
        c.score = scores[place]
    return out
