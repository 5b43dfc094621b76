"""What the bench scripts share: where corpora, query sets and indexes live, how a query set is loaded, searched
and scored, how a bench index is opened, and how a run is kept in ``bench/results.jsonl``.

Scripts import this module and never each other. A script in a sub-folder (``quality/``, ``latency/``,
``experiments/``, ``reliability/``) makes it importable with this one line before its other imports:

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

(``quality/devset/fetch.py``, a level deeper, says ``parents[2]``); ``report.py`` and ``suite.py``, in
``bench/`` itself, find it beside them. Run every script by its path from the repository root
(``python bench/quality/quality.py``). At import time this module needs the standard library only: codesift,
numpy and the public bench's helpers (``score.py``, ``fetch_corpora.py``, ``make_docstring_set.py`` in
``$CODESIFT_SHARED_BENCH``) are imported by the functions that use them, so ``--help`` and ``report.py`` run
anywhere. That folder, and ``tests/`` for ``reliability/reliability.py``, are put on ``sys.path`` here and
nowhere else (:func:`shared`, :func:`tests_module`).

Places, each overridable from the environment:

- ``SHARED_BENCH``: the public bench (queries, scorer, corpus manifest), ``$CODESIFT_SHARED_BENCH``, default
  ``../shared/bench`` beside the repository;
- ``CORPORA_CACHE``: its fetched corpora (``fetch_corpora.py``), ``$CODESEARCH_BENCH_CACHE``, default
  ``~/.cache/codesearch-bench/corpora``;
- ``INDEX_HOME``: the bench indexes, one folder per corpus (``dev-<name>`` for the dev set), kept between
  runs so that embeddings are reused, ``$CODESIFT_BENCH_INDEX``, default ``~/.cache/codesift-bench``;
- ``DEVSET_CACHE``: the dev set's corpora (``quality/devset/fetch.py``), ``$CODESIFT_DEVSET_CACHE``, default
  ``~/.cache/codesift-devset``;
- ``RESULTS``: the kept results, ``bench/results.jsonl`` (:func:`record`; ``report.py`` prints them).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import importlib
import json
import os
import platform
import random
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
TESTS_DIR = REPO / "tests"
SHARED_BENCH = Path(os.environ.get("CODESIFT_SHARED_BENCH", REPO.parent / "shared" / "bench"))
CORPORA_CACHE = Path(os.environ.get("CODESEARCH_BENCH_CACHE", "~/.cache/codesearch-bench/corpora")).expanduser()
INDEX_HOME = Path(os.environ.get("CODESIFT_BENCH_INDEX", Path.home() / ".cache" / "codesift-bench"))
DEVSET_DIR = BENCH_DIR / "quality" / "devset"
DEVSET_CACHE = Path(os.environ.get("CODESIFT_DEVSET_CACHE", Path.home() / ".cache" / "codesift-devset"))
RESULTS = BENCH_DIR / "results.jsonl"

# The public bench's eight quality corpora (its corpora.toml, role "quality"), one or two a language.
QUALITY_CORPORA = ("requests", "flask", "click", "express", "cli", "fd", "javapoet", "h3")
# The public query sets: the folder of SHARED_BENCH each is read from.
FOLDERS = {"handwritten": "queries", "docstring": "docstring"}
# The dev set's query sets: the folder of DEVSET_DIR each is read from.
DEVSET_QUERY_SETS = {"main": "queries", "short": "queries-short", "terse": "queries-terse"}


# --------------------------------------------------------------------------- imports from other folders
@functools.cache
def shared(name: str):  # noqa: ANN201 - a module
    """A helper module of the public bench (``score``, ``fetch_corpora``, ``make_docstring_set``)."""
    if not (SHARED_BENCH / f"{name}.py").is_file():
        raise SystemExit(f"{SHARED_BENCH / name}.py is missing: set CODESIFT_SHARED_BENCH to the public bench")
    if str(SHARED_BENCH) not in sys.path:
        sys.path.insert(0, str(SHARED_BENCH))
    return importlib.import_module(name)


def tests_module(name: str):  # noqa: ANN201 - a module
    """A module of ``tests/`` (``test_crash_safety``, ``conftest``...), for benches that print the tests' cases."""
    if str(TESTS_DIR) not in sys.path:
        sys.path.insert(0, str(TESTS_DIR))
    return importlib.import_module(name)


# --------------------------------------------------------------------------- public query sets
def load_sets(sets: list[str], corpora: list[str] | None) -> dict[str, list[dict]]:
    """The public bench's queries of each set (``handwritten``, ``docstring``) over its quality corpora (all, or
    those named in ``corpora``)."""
    fetch_corpora, docstrings, score = shared("fetch_corpora"), shared("make_docstring_set"), shared("score")
    out: dict[str, list[dict]] = {}
    for qset in sets:
        queries: list[dict] = []
        for c in fetch_corpora.load_manifest(SHARED_BENCH / "corpora.toml"):
            if c.get("role", "quality") != "quality" or (corpora and c["name"] not in corpora):
                continue
            f = SHARED_BENCH / FOLDERS[qset] / f"{c['name']}.jsonl"
            if f.exists():
                queries += (docstrings.load_docstring_queries(SHARED_BENCH, c["name"], CORPORA_CACHE)
                            if qset == "docstring" else score.load_jsonl(f))
        out[qset] = queries
    return out


def corpus_languages() -> dict[str, str]:
    """Public corpus name → its main language (the language groups of the per-language tables)."""
    manifest = shared("fetch_corpora").load_manifest(SHARED_BENCH / "corpora.toml")
    return {c["name"]: c.get("language", "?") for c in manifest}


def parse_overrides(pairs: list[str]) -> dict[str, object]:
    """``key=value`` pairs (JSON values) for codesift's ``Config``; ``rank.key=value`` for its ranking settings."""
    from dataclasses import fields

    from codesift.config.settings import Config, rank_settings

    out: dict[str, object] = {}
    rank: dict[str, object] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        value = json.loads(raw)
        if key.startswith("rank."):
            rank[key[5:]] = value
        elif key in {f.name for f in fields(Config)}:
            out[key] = value
        else:
            raise SystemExit(f"unknown setting {key!r}")
    if rank:
        out["rank"] = rank_settings(rank)
    return out


def open_index(corpus: str, overrides: dict[str, object], root: Path | None = None,
               index_name: str = ""):  # noqa: ANN201 - a codesift Index
    """The bench index of a public corpus (``INDEX_HOME/<corpus>``), brought up to date; ``root`` and
    ``index_name`` open a corpus from elsewhere (the dev set's: :func:`devset_opener`)."""
    from codesift import Index
    from codesift.config.settings import Config

    root = root or CORPORA_CACHE / corpus
    cfg = Config(index_dir=str(INDEX_HOME / (index_name or corpus))).with_overrides(**overrides)
    index = Index(root, config=cfg)
    t = time.perf_counter()
    stats = index.update()
    if stats.files_parsed or stats.embedded:
        print(f"indexed {corpus}: {stats.files_parsed} files, {stats.embedded} embedded in "
              f"{time.perf_counter() - t:.1f}s", file=sys.stderr)
    return index


def run(sets: dict[str, list[dict]], modes: list[str], overrides: dict[str, object],
        opener: Callable[[str, dict[str, object]], Any] | None = None) -> dict:
    """Every query of every set in every mode, searched in this process and scored by the public bench's scorer;
    ``opener(corpus, overrides)`` opens a corpus's index (default :func:`open_index`). Returns per
    ``"<set>/<mode>"``: ``groups`` (the scorer's metrics per query group), ``p50_ms`` and ``per_query``."""
    evaluate = shared("score").evaluate
    report: dict = {}
    indexes: dict[str, Any] = {}
    opener = opener or open_index
    for qset, queries in sets.items():
        for mode in modes:
            rows, lat = {}, []
            for q in queries:
                if q["corpus"] not in indexes:
                    indexes[q["corpus"]] = opener(q["corpus"], overrides)
                t = time.perf_counter()
                res = indexes[q["corpus"]].search(q["query"], limit=10, mode=mode)
                lat.append(time.perf_counter() - t)
                rows[q["id"]] = [{"path": r.path, "start_line": r.start_line, "end_line": r.end_line}
                                 for r in res.results]
            ev = evaluate(queries, rows)
            lat.sort()
            report[f"{qset}/{mode}"] = {"groups": ev["groups"], "p50_ms": 1000 * lat[len(lat) // 2],
                                        "per_query": ev["per_query"]}
    for index in indexes.values():
        index.close()
    return report


def hits(result: dict, target: dict) -> bool:
    """Whether a result (``path``, ``start_line``, ``end_line``) hits a query target: the scorer's rule."""
    return shared("score").hits(result, target)


# --------------------------------------------------------------------------- the dev set (quality/devset/)
def devset_corpora() -> list[dict]:
    """The dev set's manifest entries (``quality/devset/corpora.toml``), in order."""
    return tomllib.loads((DEVSET_DIR / "corpora.toml").read_text(encoding="utf-8"))["corpus"]


def devset_query_file(name: str, queries: str = "main") -> Path:
    """The query file of dev-set corpus ``name`` in set ``queries`` (``main``; ``short``: answers of 2–6 lines;
    ``terse``: the main set's sentences said in 2–4 words, as typed into a search box)."""
    return DEVSET_DIR / DEVSET_QUERY_SETS[queries] / f"{name}.jsonl"


def load_devset_queries(names: list[str] | None, queries: str = "main", *, held_back: bool = False) -> list[dict]:
    """The dev set's queries of the corpora ``names`` (all: None) in query set ``queries``. A corpus the manifest
    holds back (``train = false``: no training or tuning has read it) only with ``held_back`` or by its name."""
    out: list[dict] = []
    for c in devset_corpora():
        path = devset_query_file(c["name"], queries)
        wanted = c["name"] in names if names else held_back or c.get("train", True)
        if wanted and path.is_file():
            out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def devset_fetched(cache: Path = DEVSET_CACHE) -> bool:
    """Whether every dev-set corpus is in ``cache`` (``quality/devset/fetch.py`` has run)."""
    return all((cache / c["name"]).is_dir() for c in devset_corpora())


def devset_opener(cache: Path = DEVSET_CACHE) -> Callable[[str, dict[str, object]], Any]:
    """An ``opener`` for :func:`run`: a dev-set corpus's bench index, ``INDEX_HOME/dev-<name>``."""
    def open_dev(corpus: str, overrides: dict[str, object]):  # noqa: ANN202
        root = cache / corpus
        if not root.is_dir():
            raise SystemExit(f"{root} is missing: run python bench/quality/devset/fetch.py first")
        return open_index(corpus, overrides, root=root, index_name=f"dev-{corpus}")
    return open_dev


# --------------------------------------------------------------------------- latency queries
LATENCY_WORDS = ("request response middleware cache session user model query field form template url view test "
                 "migration signal database connection transaction admin auth permission validate serialize").split()
# The words of the synthetic index of latency/query_scale.py (its names, docstrings and queries).
SCALE_WORDS = ("get set build parse render load save user session cookie token request response cache query "
               "model field form view url route auth password hash json file path stream buffer header body "
               "config settings handler middleware signal event queue worker task job retry timeout error").split()


def latency_queries(index, n: int) -> list[str]:  # noqa: ANN001 - a codesift Index
    """``n`` queries for an indexed tree, alternately a four-word phrase and the name of one of its functions, or
    of its methods where it has no functions (PHP, C#, Java) (latency/pipeline_latency.py and
    latency/version_latency.py time the same ones)."""
    rng = random.Random(3)
    def named(kind: str) -> list[str]:
        return [r[0] for r in index.store.db.execute("SELECT name FROM chunks WHERE kind=? LIMIT 5000", (kind,))]

    names = named("function") or named("method")  # functions first: the queries recorded before stay the same
    if not names:
        sys.exit(f"{index.root} holds no functions or methods: index it first")
    return [rng.choice(names) if i % 2 else " ".join(rng.sample(LATENCY_WORDS, 4)) for i in range(n)]


def scale_names(rng: random.Random, n: int) -> list[str]:
    """The symbol names of latency/query_scale.py's synthetic index of ``n`` symbols."""
    out = []
    for i in range(n):
        parts = rng.sample(SCALE_WORDS, rng.choice((2, 3, 4)))
        out.append("_".join(parts) + f"_{i}" if i % 3 else "".join(p.title() for p in parts) + str(i))
    return out


def scale_queries(size: int, n: int) -> list[str]:
    """Queries for the synthetic index of ``size`` symbols: half its names, half four-word phrases."""
    rng = random.Random(size + 1)
    all_names = scale_names(random.Random(size), size)
    return [rng.choice(all_names) if i % 2 else " ".join(rng.sample(SCALE_WORDS, 4)) for i in range(n)]


# --------------------------------------------------------------------------- kept results
def add_record_flag(ap: argparse.ArgumentParser) -> None:
    """The ``--record`` flag every measuring script takes."""
    ap.add_argument("--record", action="store_true",
                    help="append this run's headline numbers to bench/results.jsonl (bench/report.py prints them)")


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def record(script: str, args: argparse.Namespace, results: dict[str, float | int | str | None]) -> None:
    """Append one line to ``RESULTS`` when ``args.record``: the date, the commit (``dirty`` when tracked files
    other than the results differ from it), the script (``quality/quality.py``), its arguments, the machine and
    the headline numbers (``results``: metric name → value; floats kept to 4 decimals)."""
    if not getattr(args, "record", False):
        return
    status = _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results.jsonl")
    line = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "--short", "HEAD") or "?",
        "dirty": bool(status),
        "script": Path(script).resolve().relative_to(BENCH_DIR).as_posix(),
        "args": " ".join(a for a in sys.argv[1:] if a != "--record"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}",
        "results": {k: round(v, 4) if isinstance(v, float) else v for k, v in results.items()},
    }
    with RESULTS.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"recorded {len(results)} numbers in {RESULTS}", file=sys.stderr)


def read_results(path: Path = RESULTS) -> list[dict]:
    """The kept runs, oldest first (blank lines skipped)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
