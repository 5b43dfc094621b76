"""Run the reliability scenarios of the test suite and print them as one table for the team's notes.

    python bench/reliability/reliability.py [--no-crash] [--no-embed] [--only GROUP ...] [--record]

The cases are the ones ``tests/test_hostile_input.py``, ``tests/test_query_fuzz.py`` and
``tests/test_crash_safety.py`` assert (imported from there, so the two never drift apart): a generated
hostile corpus, failure scenarios, hostile queries in every mode, SIGKILLed index runs, a reader and a
second writer next to a running index, the known bugs the tests mark as expected failures, and (issue 45,
``tests/test_damaged_db.py``, ``test_derived_damage.py``, ``test_index_write_failures.py``) a damaged meta.db,
keyword index file or vector snapshot file, a full disk and the index folder deleted mid-run. Unlike the
tests, the second writer here waits the real default (10 s) before it gives up. Prints
``| case | expected | observed |``, one row per case, then how many rows differ.

``--no-crash`` skips the subprocess scenarios (SIGKILL, concurrency, damage); ``--no-embed`` runs keyword-only
(no model load); ``--only GROUP`` (repeatable: corpus, scenarios, queries, crash, damage) runs only those groups.
Takes about a minute on 2 cores with everything on, plus about 90 s for the damage group. ``--record`` keeps the
counts of the last line in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import contextlib
import io
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.config.settings import Config  # noqa: E402
from codesift.search.run import MODES  # noqa: E402

# The cases themselves: the tests' own modules (common puts tests/ on sys.path)
crash = common.tests_module("test_crash_safety")
hostile = common.tests_module("test_hostile_input")
queries = common.tests_module("test_query_fuzz")
write_repo = common.tests_module("conftest").write_repo
damaged_db = common.tests_module("test_damaged_db")
derived = common.tests_module("test_derived_damage")
writes = common.tests_module("test_index_write_failures")
vector_source = common.tests_module("test_store_vectors").Source

Row = tuple[str, str, str]
GROUPS = ("corpus", "scenarios", "queries", "crash", "damage")


def safely(observe: Callable[[], str]) -> str:
    try:
        return observe()
    except BaseException as exc:  # noqa: BLE001 - the table reports it
        return f"{type(exc).__name__}: {str(exc)[:120]}"


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "\\n").replace("\x00", "\\0")


# --------------------------------------------------------------------------- hostile corpus
def corpus_rows(tmp: Path) -> list[Row]:
    root = hostile.build_corpus(tmp / "corpus")
    ctx = hostile.index_corpus(root)
    rows = [(f"corpus: {c.name}", c.expected, safely(lambda c=c: c.observe(ctx))) for c in hostile.CASES]
    per_file = dict(Counter(ctx.status["skipped_files"].values()))
    same = ctx.status["skipped"] == per_file == ctx.stats.skipped
    rows.append(("corpus: every skip counted with its reason", "status == UpdateStats == per-file reasons",
                 "status == UpdateStats == per-file reasons" if same else
                 f"status {ctx.status['skipped']} / stats {ctx.stats.skipped} / files {per_file}"))
    rows.append(("corpus: first update time", "< 30 s", f"{ctx.seconds:.1f} s" if ctx.seconds >= 30 else "< 30 s"))
    ctx.index.close()
    env = dict(os.environ, CODESIFT_EMBEDDER="none", COLUMNS="200")
    copy = hostile.build_corpus(tmp / "corpus-cli")
    out = subprocess.run([sys.executable, "-m", "codesift", "index", str(copy)], env=env, capture_output=True,
                         text=True, timeout=300)
    rows.append(("corpus: `codesift index` (human output)", "exit 0, no traceback",
                 f"exit {out.returncode}, " + ("TRACEBACK" if "Traceback" in out.stderr else "no traceback")))
    return rows


def scenario_rows(tmp: Path) -> list[Row]:
    rows = []
    for i, scenario in enumerate(hostile.SCENARIOS):
        folder = tmp / f"scenario{i}"
        folder.mkdir()
        try:
            name, expected, observed = scenario(folder)
        except BaseException as exc:  # noqa: BLE001
            name, expected, observed = scenario.__name__, "no exception", f"{type(exc).__name__}: {exc}"
        rows.append((f"failure: {name}", expected, observed))
    return rows


# --------------------------------------------------------------------------- queries
def query_rows(tmp: Path, embed: bool) -> list[Row]:
    root = write_repo(tmp / "repo")
    (root / "web" / "glob[x].js").write_text("// Render the bracket page.\nfunction renderBracketPage() {}\n")
    (root / "web" / "globx.js").write_text("// Render the plain page.\nfunction renderPlainPage() {}\n")
    idx = Index(root, config=None if embed else Config(embedder="none"))
    idx.update()
    paths = {r[0] for r in idx.store.db.execute("SELECT path FROM files")}
    rows = []
    for name, query in queries.HOSTILE_QUERIES.items():
        bad = []
        counts = []
        refused = name in queries.REFUSED_QUERIES  # empty or over the length limit: a clear ValueError
        for mode in MODES:
            try:
                response = idx.search(query, mode=mode, limit=queries.LIMIT)
                queries.check_response(idx, response, queries.LIMIT, paths)
                counts.append(str(len(response.results)))
                if refused:
                    bad.append(f"{mode}: results")
            except ValueError as exc:
                if not refused:
                    bad.append(f"{mode}: ValueError: {str(exc)[:80]}")
            except BaseException as exc:  # noqa: BLE001
                bad.append(f"{mode}: {type(exc).__name__}")
        expected = "ValueError in every mode" if refused else "results in every mode"
        observed = "; ".join(bad) if bad else expected
        rows.append((f"query: {name} ({'/'.join(counts) or '-'} results)", expected, observed))
    odd = []
    for path in queries.ODD_PATHS:
        for mode in MODES:
            try:
                idx.search("redirect", mode=mode, path=path)
            except ValueError as exc:  # an absolute path outside the root is refused, saying so
                if "outside the indexed root" not in str(exc):
                    odd.append(f"{path!r}/{mode}: ValueError: {exc}")
            except BaseException as exc:  # noqa: BLE001
                odd.append(f"{path!r}/{mode}: {type(exc).__name__}")
    rows.append((f"query: {len(queries.ODD_PATHS)} odd path filters x 3 modes",
                 "no error", "; ".join(odd) or "no error"))  # (outside the root: a ValueError saying so counts)
    refused = []
    for m in MODES:
        for filters in ({"language": "klingon"}, {"kind": "widget"}):
            try:
                idx.search("redirect", mode=m, **filters)
                refused.append("results")
            except ValueError as exc:
                refused.append("ValueError naming what exists" if "use one of" in str(exc) or "this index has"
                               in str(exc) else f"ValueError: {exc}")
    rows.append(("query: unknown language / kind", "ValueError naming what exists",
                 "; ".join(sorted(set(refused)))))
    for kwargs, message in (({"mode": "fuzzy"}, "mode must be one of"), ({"limit": 0}, "limit must be"),
                            ({"threshold": 2}, "threshold must be"), ({"offset": -1}, "offset must be")):
        try:
            idx.search("x", **kwargs)
            observed = "no error"
        except ValueError as exc:
            observed = f"ValueError: {message}..." if message in str(exc) else f"ValueError: {exc}"
        except BaseException as exc:  # noqa: BLE001
            observed = f"{type(exc).__name__}: {exc}"
        rows.append((f"query: bad argument {kwargs}", f"ValueError: {message}...", observed))
    # known bugs in files this suite does not own (the tests mark them xfail(strict=True))
    rows.append(("known bug: find_symbol with a NUL", "a list",
                 safely(lambda: type(idx.find_symbol("rebuild\x00auth")).__name__ and "a list")))
    rows.append(("known bug: find_symbol with a lone surrogate", "a list",
                 safely(lambda: type(idx.find_symbol("a\udcffb")).__name__ and "a list")))
    if embed:
        rows.append(("known bug: hybrid search with a lone surrogate", "results",
                     safely(lambda: idx.search("redirect \udcff", mode="hybrid") and "results")))
        got = {m: sorted({r.path for r in idx.search("render page", mode=m, path="web/glob[x].js").results})
               for m in ("keyword", "semantic")}
        rows.append(("known bug: --path 'web/glob[x].js' in keyword vs semantic mode", "the same files",
                     "the same files" if got["keyword"] == got["semantic"] else str(got)))
    dot = tmp / "dot"
    (dot / ".github").mkdir(parents=True)
    (dot / ".github" / "ci.py").write_text("def ci_helper_fn():\n    pass\n")
    with Index(dot, config=Config(embedder="none")) as d:
        d.update()
        got = [r.path for r in d.search("ci_helper_fn", path=".github/").results]
    rows.append(("known bug: --path .github/ (dot directory)", "['.github/ci.py']", str(got)))
    code = textwrap.dedent(f"""
        from codesift import Index
        from codesift.config.settings import Config
        idx = Index({str(root)!r}, config=Config(embedder="none"))
        try:
            idx.search("redirect", limit=10**12, mode="keyword")
            print("results")
        except ValueError:
            print("ValueError")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    rows.append(("fixed: search(limit=10**12)", "ValueError, process survives",
                 f"{out.stdout.strip()}, process survives" if out.returncode == 0
                 else f"process aborted (rc {out.returncode})"))
    idx.close()
    markup = tmp / "br[" / "x]"
    markup.mkdir(parents=True)
    (markup / "a.py").write_text("def markup_probe():\n    pass\n")
    (markup / "notes.md").write_text("# Fix [/x] later\n\nmarkup_probe\n")  # a heading is a result name
    env = dict(os.environ, CODESIFT_EMBEDDER="none")
    for args in (["index", str(markup)], ["search", "markup_probe", "--root", str(markup)], ["status", str(markup)]):
        out = subprocess.run([sys.executable, "-m", "codesift", *args], env=env, capture_output=True, text=True,
                             timeout=120)
        label = "known bug" if args[0] != "index" else "fixed"
        rows.append((f"{label}: `codesift {args[0]}` with '[/x]' in the path", "exit 0, no traceback",
                     f"exit {out.returncode}, " + ("TRACEBACK" if "Traceback" in out.stderr else "no traceback")))
    for args in (["search", b"\xff\xfe redirect", "--json"], ["usages", b"\xffname", "--json"]):
        out = subprocess.run([sys.executable, "-m", "codesift", *args, "--no-update", "--root", str(root)], env=env,
                             capture_output=True, timeout=120)
        # `usages` of a name no file holds exits 1, "nothing found" (docs/troubleshooting.md)
        code = "0 or 1" if out.returncode in (0, 1) and args[0] == "usages" else str(out.returncode)
        rows.append((f"cli: `codesift {args[0]}` with non-UTF-8 argument bytes",
                     f"exit {'0 or 1' if args[0] == 'usages' else '0'}, no traceback",
                     f"exit {code}, " + ("TRACEBACK" if b"Traceback" in out.stderr else "no traceback")))
    return rows


# --------------------------------------------------------------------------- processes
def crash_rows(tmp: Path, embed: bool) -> list[Row]:
    rows = []
    ref = crash.make_corpus(tmp / "ref", crash.N_FILES)
    crash.codesift("index", str(ref), "-q", env=crash.child_env())
    root = crash.make_corpus(tmp / "tree", crash.N_FILES)
    rnd = random.Random(crash.SEED)
    sql = "SELECT count(*) FROM files"
    plan = [("time", rnd.uniform(0.05, 0.6), 0.0)]
    plan += [("commit", n, rnd.uniform(0, 0.03)) for n in sorted(rnd.sample(range(5, crash.N_FILES - 5), 4))]
    plan += [("time", rnd.uniform(0.2, 0.8), 0.0)]
    outcomes = crash.kill_runs(root, plan, sql=sql, embed=False)
    final = crash.codesift("index", str(root), "-q", env=crash.child_env())
    problems = crash.integrity_problems(root)
    same = crash.snapshot(root) == crash.snapshot(ref)
    killed = sum(o.startswith("killed") for o in outcomes)
    rows.append((f"crash: {len(plan)} SIGKILLs ({killed} mid-run), then `codesift index`",
                 "exit 0; == clean run; no orphans",
                 f"exit {final.returncode}; {'== clean run' if same else 'DIFFERS from clean run'}; "
                 + ("no orphans" if not problems else ", ".join(problems))))
    if embed:
        ref_e, root_e = crash.make_corpus(tmp / "ref-e", 6), crash.make_corpus(tmp / "tree-e", 6)
        for r in (ref_e, root_e):
            (r / "codesift.toml").write_text("embed_batch = 4\n")
        crash.codesift("index", str(ref_e), "-q", env=crash.child_env())
        plan = [("time", 0.7, 0.0), ("commit", 12, 0.02)]
        outcomes = crash.kill_runs(root_e, plan, sql="SELECT count(*) FROM vectors", embed=True)
        final = crash.codesift("index", str(root_e), "--json", env=crash.child_env(embed=True))
        coverage = json.loads(final.stdout)["coverage"] if final.returncode == 0 else None
        problems = crash.integrity_problems(root_e, embedded=True)
        same = crash.snapshot(root_e) == crash.snapshot(ref_e)
        rows.append((f"crash: SIGKILL while the model loads and mid-embedding ({', '.join(outcomes)})",
                     "exit 0; coverage 1.0; == clean run; no orphans",
                     f"exit {final.returncode}; coverage {coverage}; {'== clean run' if same else 'DIFFERS'}; "
                     + ("no orphans" if not problems else ", ".join(problems))))
    rows += concurrency_rows(tmp)
    if os.path.isdir("/proc") and crash._pool_used():
        rows.append(worker_row(tmp))
    return rows


def worker_row(tmp: Path) -> Row:
    """SIGKILL a run large enough for parse worker processes; do they exit with it?"""
    from codesift.indexing import workers

    root = crash.make_corpus(tmp / "pool", workers.POOL_MIN_FILES + 20)
    proc = crash.spawn("index", str(root), "-q", env=crash.child_env())
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline and len(kids) < 2:
            kids = crash._children(proc.pid)
            time.sleep(0.05)
        time.sleep(0.3)
        kids = crash._children(proc.pid)
        proc.kill()
        proc.wait(10)
        time.sleep(3)
        alive = [k for k in kids if os.path.exists(f"/proc/{k}")]
    finally:
        for k in kids:  # started by this script
            try:
                os.kill(k, 9)
            except ProcessLookupError:
                pass
    return ("known bug: SIGKILL of a run with parse workers", "no process left after 3 s",
            f"{len(alive)} of {len(kids)} child processes still running after 3 s" if alive
            else "no process left after 3 s")


def concurrency_rows(tmp: Path) -> list[Row]:
    rows = []
    root = crash.make_corpus(tmp / "conc", 60)
    gate = str(tmp / "gate")
    writer = crash.spawn("index", str(root), "-q", env=crash.child_env(CS_FILE_BATCH=20, CS_GATE=gate, CS_GATE_AT=30))
    try:
        while not os.path.exists(gate + ".ready"):
            if writer.poll() is not None:
                return [("concurrency: writer", "blocks mid-transaction", f"exited {writer.returncode}")]
            time.sleep(0.01)
        t0 = time.monotonic()
        found = crash.codesift("search", "func_0_0", "--json", "--root", str(root), env=crash.child_env())
        took = time.monotonic() - t0
        n = len(json.loads(found.stdout)) if found.returncode == 0 else 0
        rows.append(("concurrency: `codesift search` while `index` holds the lock mid-transaction",
                     "exit 0 with results, no wait",
                     f"exit {found.returncode} with {'results' if n else 'no results'}, "
                     + ("no wait" if took < 5 else f"took {took:.1f}s")))
        t0 = time.monotonic()
        second = crash.codesift("index", str(root), "-q", env=crash.child_env(), timeout=60)
        took = time.monotonic() - t0
        message = "'another codesift process (pid N)'" if "another codesift process" in second.stderr else second.stderr
        rows.append(("concurrency: a second `codesift index`", "waits 10 s, then exit 1, 'another codesift "
                     "process (pid N)'", f"waits {int(took)} s, then exit {second.returncode}, {message}"))
    finally:
        Path(gate + ".go").touch()
        writer.wait(60)
    rows.append(("concurrency: the blocked writer, released", "exit 0; no orphans",
                 f"exit {writer.returncode}; " + (", ".join(crash.integrity_problems(root)) or "no orphans")))
    return rows


# --------------------------------------------------------------------------- damage (issue 45)
HEALS = ("exit 0, {lines}, no traceback; then `codesift index`: exit 0, the clean build's symbol count and "
         "top result")


def said(proc: subprocess.CompletedProcess[str], about: str = "", at_most: bool = False) -> str:
    """exit code, how many lines on stderr (only those containing `about`, as the tests count them: a run's
    summary and notes are not counted), a traceback (Python's, or a Rust panic's) or not."""
    n = len([ln for ln in proc.stderr.splitlines() if ln.strip() and about in ln])
    lines = "at most one line" if at_most and n <= 1 else {0: "no line", 1: "one line"}.get(n, f"{n} lines")
    tb = ("TRACEBACK" if "Traceback" in proc.stderr else
          f"a Rust panic on stderr ({len(proc.stderr.splitlines())} lines)" if "panicked at" in proc.stderr
          else "no traceback")
    return f"exit {proc.returncode}, {lines}{f' saying {about!r}' if about else ''}, {tb}"


def answer(root: Path) -> tuple[object, object]:
    """(symbols, top result for damaged_db.NAME) through the CLI, as the tests compare them."""
    env = crash.child_env()
    status = crash.codesift("status", str(root), "--json", env=env)
    found = crash.codesift("search", damaged_db.NAME, "--json", "--no-update", "--root", str(root), env=env)
    symbols = json.loads(status.stdout)["symbols"] if status.returncode == 0 else f"status exit {status.returncode}"
    top = json.loads(found.stdout)[:1] if found.returncode == 0 else f"search exit {found.returncode}"
    return symbols, top and (top[0]["qualified_name"], top[0]["path"])


def healed(first: subprocess.CompletedProcess[str], root: Path, clean: tuple[object, object],
           at_most: bool = False) -> str:
    """The first command's exit and lines saying 'damaged', then `codesift index` and the answers it leaves."""
    final = crash.codesift("index", str(root), "-q", env=crash.child_env())
    symbols, top = answer(root)
    return (f"{said(first, 'damaged', at_most)}; then `codesift index`: exit {final.returncode}, "
            + ("the clean build's symbol count" if symbols == clean[0] else f"{symbols} symbols (clean: {clean[0]})")
            + (" and top result" if top == clean[1] else f" and top {top} (clean: {clean[1]})"))


def restore(root: Path, clean_copy: Path) -> None:
    shutil.rmtree(root / ".codesift", ignore_errors=True)
    shutil.copytree(clean_copy, root / ".codesift")


def damage_rows(tmp: Path) -> list[Row]:
    """test_damaged_db, test_derived_damage and test_index_write_failures, through the CLI (no embedder)."""
    rows: list[Row] = []
    env = crash.child_env()
    root = write_repo(tmp / "repo")
    crash.codesift("index", str(root), "-q", env=env)
    damaged_db._checkpointed(root)
    clean = answer(root)
    copy = tmp / "clean"
    shutil.copytree(root / ".codesift", copy)
    for kind in ("truncated", "zeroed", "zeroed-middle", "header"):  # meta.db: `codesift index` sets it aside
        restore(root, copy)
        damaged_db._damage(root / ".codesift" / "meta.db", kind)
        first = crash.codesift("index", str(root), "-q", env=env)
        rows.append((f"damage: meta.db {kind}, then `codesift index`",
                     HEALS.format(lines="one line saying 'damaged'"),
                     safely(lambda first=first: healed(first, root, clean))))
    restore(root, copy)
    files = [p.name for p in derived.keyword_files(root)]
    for how in ("truncate", "zero", "garble", "inside"):  # each keyword index file: a search, then an index
        expected = HEALS.format(lines="at most one line saying 'damaged'")
        bad = []
        for name in files:
            restore(root, copy)
            derived.damage(root / ".codesift" / "keyword" / name, how)
            first = crash.codesift("search", derived.QUERY, "--json", "--root", str(root), env=env)
            got = safely(lambda first=first: healed(first, root, clean, at_most=True))
            if got != expected:
                bad.append(f"{'*.' + name.rsplit('.', 1)[-1] if len(name) > 32 else name}: {got}")  # segment: *.ext
        rows.append((f"damage: each of the {len(files)} keyword index files, {how}; `codesift search`",
                     expected, "; ".join(bad) or expected))
    for how in ("truncate", "zero", "garble", "inside"):
        for hnsw in (False, True):
            rows.append((f"damage: each vector snapshot file ({'HNSW' if hnsw else 'flat'}), {how}; loaded",
                         "no traceback, at most one line, said once; the clean snapshot's top 5",
                         safely(lambda how=how, hnsw=hnsw: vector_case(tmp / f"dense-{how}-{hnsw}", how, hnsw))))
    rows.append(full_disk_row(tmp / "full"))
    for rebuilt in (False, True):
        rows.append(removed_row(tmp / f"removed-{rebuilt}", rebuilt))
    return rows


def vector_case(tmp: Path, how: str, hnsw: bool) -> str:
    """test_derived_damage's vector snapshot case: every file of dense/ damaged in turn, then loaded."""
    from codesift.store import vectors as vmod
    from codesift.store.vectors import VectorIndex

    threshold = vmod.HNSW_THRESHOLD
    vmod.HNSW_THRESHOLD = 10 if hnsw else threshold
    try:
        src = vector_source(50)
        clean = tmp / "clean" / "dense"
        src.load(VectorIndex(clean, 8), 1)
        query = src.vecs[107].astype("float32")
        want = VectorIndex(clean, 8)
        src.load(want, 1)
        expected = [cid for cid, _ in want.search(query, 5)]
        bad = []
        for name in sorted(p.name for p in clean.iterdir()):
            folder = tmp / f"{name}-{how}"
            shutil.copytree(clean.parent, folder)
            derived.damage(folder / "dense" / name, how, seed=3)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                index = VectorIndex(folder / "dense", 8)
                src.load(index, 1)
                got = [cid for cid, _ in index.search(query, 5)]
                first = err.getvalue()
                again = VectorIndex(folder / "dense", 8)
                src.load(again, 1)
            lines = len([ln for ln in first.splitlines() if ln.strip()])
            if got != expected or lines > 1 or err.getvalue() != first or "Traceback" in first:
                bad.append(f"{name}: top 5 {'==' if got == expected else '!='} clean, {lines} lines"
                           + (", said again" if err.getvalue() != first else ""))
        return "; ".join(bad) or "no traceback, at most one line, said once; the clean snapshot's top 5"
    finally:
        vmod.HNSW_THRESHOLD = threshold


def full_disk_row(tmp: Path) -> Row:
    """test_index_write_failures' full disk: `codesift index` under RLIMIT_FSIZE after 150 files were added."""
    expected = ("exit 1, one line, no traceback; the index answers as before; with room again `codesift index`: "
                "exit 0, before + 6000 symbols")
    root = crash.make_corpus(tmp / "tree", 60)
    env = crash.child_env()
    crash.codesift("index", str(root), "-q", env=env)
    before = writes.answers(root, env)
    writes.add_files(root, 150)
    limit = max(p.stat().st_size for p in (root / ".codesift").rglob("*") if p.is_file()) + 64 * 1024

    def small_disk() -> None:  # as the test's: writes past `limit` bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full = subprocess.run([sys.executable, "-c", crash.CHILD, "index", str(root), "-q"], env=env, capture_output=True,
                          text=True, timeout=120, preexec_fn=small_disk)
    same = safely(lambda: "the index answers as before" if writes.answers(root, env) == before
                  else "the index answers DIFFERENTLY")
    again = crash.codesift("index", str(root), "--json", env=env)
    symbols = json.loads(again.stdout)["symbols"] if again.returncode == 0 else None
    return ("damage: a full disk (RLIMIT_FSIZE) during `codesift index`", expected,
            f"{said(full)}; {same}; with room again `codesift index`: exit {again.returncode}, "
            + ("before + 6000 symbols" if symbols == before[0] + 6000 else f"{symbols} symbols (before: {before[0]})"))


def removed_row(tmp: Path, rebuilt: bool) -> Row:
    """test_index_write_failures' deleted folder: .codesift removed while `codesift index` is held at a gate."""
    case = "damage: .codesift deleted mid-run" + (", a second `codesift index` meanwhile" if rebuilt else "")
    expected = ("exit 1, one line, no traceback; then `codesift index`: exit 0, the clean build's symbol count and "
                "index (every file, chunk and reference)")
    ref = crash.make_corpus(tmp / "ref", 120)
    crash.codesift("index", str(ref), "-q", env=crash.child_env())
    root = crash.make_corpus(tmp / "tree", 120)
    try:
        first, _ = writes.delete_folder_mid_run(root, tmp / "gate", rebuilt)
    except AssertionError:
        return case, expected, "the writer never reached the gate"
    clean = (json.loads(crash.codesift("status", str(ref), "--json", env=crash.child_env()).stdout)["symbols"], None)
    final = crash.codesift("index", str(root), "--json", env=crash.child_env())
    symbols = json.loads(final.stdout)["symbols"] if final.returncode == 0 else None
    whole = crash.snapshot(root) == crash.snapshot(ref)
    return (case, expected, f"{said(first)}; then `codesift index`: exit {final.returncode}, "
            + ("the clean build's symbol count" if symbols == clean[0] else f"{symbols} symbols (clean: {clean[0]})")
            + (" and index (every file, chunk and reference)" if whole else " and an index that DIFFERS from it"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-crash", action="store_true", help="skip the SIGKILL and concurrency scenarios")
    parser.add_argument("--no-embed", action="store_true", help="keyword-only (no embedding model)")
    parser.add_argument("--only", choices=GROUPS, action="append",
                        help="run only this group of cases (repeatable); `damage` is issue 45's damaged index files, "
                        "full disk and deleted index folder")
    common.add_record_flag(parser)
    args = parser.parse_args()
    t0 = time.perf_counter()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="codesift-reliability-") as tmp_s:
        tmp = Path(tmp_s)
        for name, make in (("corpus", lambda d: corpus_rows(d)), ("scenarios", scenario_rows),
                           ("queries", lambda d: query_rows(d, not args.no_embed)),
                           *([] if args.no_crash else [("crash", lambda d: crash_rows(d, not args.no_embed)),
                                                       ("damage", damage_rows)])):
            if args.only and name not in args.only:
                continue
            folder = tmp / name
            folder.mkdir()
            rows += make(folder)
    print("| case | expected | observed |")
    print("|---|---|---|")
    for case, expected, observed in rows:
        print(f"| {cell(case)} | {cell(expected)} | {cell(observed)} |")
    differ = [r for r in rows if r[1] != r[2]]
    known = [r for r in differ if r[0].startswith("known bug")]
    print(f"\n{len(rows)} cases; observed != expected in {len(differ)} ({len(known)} known bugs in files the "
          f"suite does not own, {len(differ) - len(known)} others); {time.perf_counter() - t0:.0f} s")
    common.record(__file__, args, {"cases": len(rows), "observed != expected": len(differ), "known bugs": len(known),
                                   "others": len(differ) - len(known), "seconds": time.perf_counter() - t0})


if __name__ == "__main__":
    main()
