"""Crash safety and concurrency of ``codesift index``, with real processes.

* ``codesift index`` is SIGKILLed at seeded random moments (by time, and right after random commits),
  then run to completion: the index equals one built in a single clean run — same files (path + hash),
  chunks (path, lines, qualified name) and references, no duplicates — and nothing is orphaned (chunks,
  references, symbol-name and trigram rows, keyword documents, vectors).
* A search while an index run holds the write lock (mid-transaction) answers at once; a second
  ``codesift index`` waits for the lock (10 s by default) and then exits 1 with a one-line "another
  codesift process" message.

The killed runs commit every 25 files instead of 200 (``indexer.FILE_BATCH``, patched in the child) so
that a kill can land between many more commits; the final and reference runs are the plain command.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess  # every test runs `codesift` in child processes

SEED = 20261130
N_FILES = 240
KILL_BATCH = 25

# The child: `codesift ...` with test hooks read from the environment (batch size, a gate that blocks
# the writer mid-transaction until a file appears, a shorter write-lock wait).
CHILD = r"""
import os, sys, time
import codesift.indexing.indexer as indexer
if os.environ.get("CS_FILE_BATCH"):
    indexer.FILE_BATCH = int(os.environ["CS_FILE_BATCH"])
if os.environ.get("CS_LOCK_TIMEOUT"):
    from codesift.api import Index
    Index.update.__kwdefaults__["lock_timeout"] = float(os.environ["CS_LOCK_TIMEOUT"])
gate = os.environ.get("CS_GATE")
if gate:
    at, real, seen = int(os.environ["CS_GATE_AT"]), indexer.Indexer._index_file, [0]
    def gated(self, *args, **kwargs):
        seen[0] += 1
        if seen[0] == at:
            open(gate + ".ready", "w").close()
            while not os.path.exists(gate + ".go"):
                time.sleep(0.01)
        return real(self, *args, **kwargs)
    indexer.Indexer._index_file = gated
from codesift.cli.app import main
main(prog_name="codesift")
"""


def child_env(embed: bool = False, **hooks: object) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CS_")}
    if not embed:
        env["CODESIFT_EMBEDDER"] = "none"
    else:
        env.pop("CODESIFT_EMBEDDER", None)
    env.update({k: str(v) for k, v in hooks.items()})
    return env


def codesift(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CHILD, *args], env=env, capture_output=True, text=True,
                          timeout=timeout)


def spawn(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


# --------------------------------------------------------------------------- corpus
def make_corpus(root: Path, n_files: int, seed: int = SEED) -> Path:
    """A deterministic multi-language tree with definitions, calls between files, docs and a lockfile."""
    rnd = random.Random(seed)
    for i in range(n_files):
        folder = root / f"pkg{i % 7}" / f"sub{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        funcs = rnd.randint(2, 5)
        if i % 4 in (0, 1):
            body = "".join(
                f"\n\ndef func_{i}_{j}(arg, other):\n    \"\"\"Compute part {j} of module {i}.\"\"\"\n"
                f"    return helper_{(i + j) % 40}(arg) + {rnd.randint(0, 999)}\n" for j in range(funcs))
            body += f"\n\nclass Widget{i}:\n    def method_{i}(self):\n        return func_{i}_0(self, 1)\n"
            (folder / f"mod_{i}.py").write_text(f"import os\n\nCONST_{i} = {i}\n{body}")
        elif i % 4 == 2:
            body = "".join(f"function js{i}x{j}(a) {{\n  return helper{j}(a) + {rnd.randint(0, 99)};\n}}\n\n"
                           for j in range(funcs))
            (folder / f"file_{i}.js").write_text(body + f"module.exports = {{ js{i}x0 }};\n")
        else:
            body = "".join(f"func Go{i}x{j}(a int) int {{\n\treturn helper{j}(a) + {j}\n}}\n\n" for j in range(funcs))
            (folder / f"file_{i}.go").write_text(f"package pkg{i % 7}\n\n{body}")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "guide.md").write_text("# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nSearch it.\n")
    (root / "package-lock.json").write_text("{}\n")
    return root


# --------------------------------------------------------------------------- what an index holds
def connect(root: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{root / '.codesift' / 'meta.db'}?mode=ro", uri=True, timeout=30)


def snapshot(root: Path) -> dict[str, object]:
    """The content of an index, independent of ids and timestamps."""
    db = connect(root)
    try:
        chunks = [tuple(r) for r in db.execute("SELECT path, start_line, end_line, qualified_name FROM chunks")]
        return {
            "files": sorted(db.execute("SELECT path, hash, language FROM files")),
            "chunks": sorted(chunks),
            "duplicate_chunks": sorted(k for k, n in Counter(chunks).items() if n > 1),
            "refs": sorted(
                (path, name, line, kind, qualifier)
                for path, name, sites in db.execute(
                    "SELECT f.path, r.name, r.sites FROM refs r JOIN files f ON f.id = r.file_id")
                for line, kind, qualifier in json.loads(sites)),
            "skipped": dict(db.execute("SELECT path, reason FROM skipped")),
        }
    finally:
        db.close()


def integrity_problems(root: Path, *, embedded: bool = False) -> list[str]:
    """Everything that would make the index inconsistent with itself; [] when whole."""
    import tantivy

    from codesift.store.keyword import KeywordIndex

    db = connect(root)
    q = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    checks = {
        "sqlite integrity": q("PRAGMA integrity_check") != "ok",
        "foreign keys": db.execute("PRAGMA foreign_key_check").fetchall() != [],
        "chunks without a file": q("SELECT count(*) FROM chunks c WHERE NOT EXISTS "
                                   "(SELECT 1 FROM files f WHERE f.id = c.file_id)"),
        "chunks whose path is not their file's": q("SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id "
                                                   "WHERE c.path != f.path"),
        "refs without a file": q("SELECT count(*) FROM refs r WHERE NOT EXISTS "
                                 "(SELECT 1 FROM files f WHERE f.id = r.file_id)"),
        "names without a chunk": q("SELECT count(*) FROM names n WHERE NOT EXISTS "
                                   "(SELECT 1 FROM chunks c WHERE c.id = n.chunk_id)"),
        "symbols without a names row": q("SELECT count(*) FROM chunks c WHERE c.kind NOT IN "
                                         "('module','window','section') AND NOT EXISTS "
                                         "(SELECT 1 FROM names n WHERE n.chunk_id = c.id)"),
        "trigram rows without a names row": q("SELECT count(*) FROM name_trigrams t WHERE NOT EXISTS "
                                              "(SELECT 1 FROM names n WHERE n.chunk_id = t.rowid)"),
        "names rows without a trigram row": q("SELECT (SELECT count(*) FROM names) - "
                                              "(SELECT count(*) FROM name_trigrams)"),
        "files failing": q("SELECT count(*) FROM failures"),
        "keyword index marked dirty": q("SELECT count(*) FROM meta WHERE key = 'keyword_dirty' AND value != '0'"),
    }
    if embedded:
        checks["chunks without a vector"] = q("SELECT count(*) FROM chunks c WHERE NOT EXISTS "
                                              "(SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)")
        checks["vectors no chunk refers to"] = q("SELECT count(*) FROM vectors v WHERE NOT EXISTS "
                                                 "(SELECT 1 FROM chunks c WHERE c.embed_hash = v.hash)")
    chunk_ids = [r[0] for r in db.execute("SELECT id FROM chunks")]
    db.close()
    problems = [name for name, bad in checks.items() if bad]
    # the derived keyword index: exactly one document per chunk, every hit maps to a chunk
    keyword = KeywordIndex(root / ".codesift" / "keyword")
    searcher = keyword.index.searcher()
    hits = searcher.search(tantivy.Query.all_query(), len(chunk_ids) + 100, count=True)
    doc_ids = searcher.fast_field_values("id", [addr for _, addr in hits.hits]) if hits.hits else []
    if searcher.num_docs != len(chunk_ids) or hits.count != len(chunk_ids):
        problems.append(f"keyword docs {searcher.num_docs} != chunks {len(chunk_ids)}")
    if sorted(int(i) for i in doc_ids) != sorted(chunk_ids):
        problems.append("keyword document ids != chunk ids")
    return problems


# --------------------------------------------------------------------------- SIGKILL at random moments
def committed(root: Path, sql: str) -> int:
    try:
        db = connect(root)
        try:
            return db.execute(sql).fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:  # not created yet / schema not there yet
        return -1


def kill_runs(root: Path, plan: list[tuple[str, float, float]], *, sql: str, embed: bool) -> list[str]:
    """Start `codesift index` once per plan step and SIGKILL it: ("time", seconds, _) after that long, or
    ("commit", n, jitter) once ``sql`` counts ≥ n committed rows (plus ``jitter`` seconds)."""
    outcomes = []
    env = child_env(embed, CS_FILE_BATCH=KILL_BATCH)
    for how, value, jitter in plan:
        proc = spawn("index", str(root), "-q", env=env)
        start = time.monotonic()
        try:
            if how == "time":
                proc.wait(value)
            else:
                while proc.poll() is None and committed(root, sql) < value and time.monotonic() - start < 60:
                    time.sleep(0.005)
                if jitter:
                    proc.wait(jitter)
        except subprocess.TimeoutExpired:
            pass
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            outcomes.append(f"killed ({how} {value:g})")
        else:
            outcomes.append(f"finished first ({how} {value:g}, rc {proc.returncode})")
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err
    return outcomes


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = make_corpus(tmp_path_factory.mktemp("reference") / "tree", N_FILES)
    out = codesift("index", str(root), "--json", env=child_env())
    assert out.returncode == 0, out.stderr
    assert integrity_problems(root) == []
    return snapshot(root)


def test_sigkill_at_random_moments_then_resume_equals_a_clean_run(tmp_path: Path, reference: dict) -> None:
    root = make_corpus(tmp_path / "tree", N_FILES)
    rnd = random.Random(SEED)
    files_sql = "SELECT count(*) FROM files"
    plan = [("time", rnd.uniform(0.05, 0.6), 0.0)]  # startup, discovery, first batch
    plan += [("commit", n, rnd.uniform(0, 0.03)) for n in sorted(rnd.sample(range(5, N_FILES - 5), 4))]
    plan += [("time", rnd.uniform(0.2, 0.8), 0.0)]  # whatever the next run is doing (keyword rebuild...)
    outcomes = kill_runs(root, plan, sql=files_sql, embed=False)
    assert sum(o.startswith("killed") for o in outcomes) >= 4, outcomes
    assert 0 < committed(root, files_sql) <= N_FILES + 1  # + docs/guide.md

    final = codesift("index", str(root), "--json", env=child_env())
    assert final.returncode == 0 and "Traceback" not in final.stderr, final.stderr
    assert integrity_problems(root) == []
    assert snapshot(root) == reference
    from codesift import Index
    from codesift.config.settings import Config

    with Index(root, config=Config(embedder="none")) as idx:  # the resumed index is stable and answers
        again = idx.update()
        assert (again.files_parsed, again.files_deleted, again.chunks_added) == (0, 0, 0)
        assert idx.search("func_8_1").results[0].qualified_name == "func_8_1"


@pytest.mark.model
def test_sigkill_while_embedding_then_resume(tmp_path: Path) -> None:
    """The real embedder on a small tree: kills while the model loads and between embedding batches."""
    ref_root = make_corpus(tmp_path / "ref", 6)
    root = make_corpus(tmp_path / "tree", 6)
    for r in (ref_root, root):
        (r / "codesift.toml").write_text("embed_batch = 4\n")
    assert codesift("index", str(ref_root), "-q", env=child_env()).returncode == 0
    rnd = random.Random(SEED + 1)
    vectors_sql = "SELECT count(*) FROM vectors"
    plan = [("time", rnd.uniform(0.3, 1.0), 0.0)]
    plan += [("commit", rnd.randint(1, 30), rnd.uniform(0, 0.05))]
    outcomes = kill_runs(root, plan, sql=vectors_sql, embed=True)
    assert outcomes[-1].startswith("killed"), outcomes

    final = codesift("index", str(root), "--json", env=child_env(embed=True))
    assert final.returncode == 0 and "Traceback" not in final.stderr, final.stderr
    summary = json.loads(final.stdout)
    assert summary["coverage"] == 1.0 and summary["embed_pending"] == 0
    assert integrity_problems(root, embedded=True) == []
    assert snapshot(root) == snapshot(ref_root)
    hits = codesift("search", "compute part of module", "--mode", "semantic", "--json", "--no-update",
                    "--root", str(root), env=child_env(embed=True))
    assert hits.returncode == 0 and json.loads(hits.stdout), hits.stderr


# --------------------------------------------------------------------------- readers and a second writer
def test_readers_never_block_and_a_second_writer_is_refused(tmp_path: Path) -> None:
    root = make_corpus(tmp_path / "tree", 60)
    gate = str(tmp_path / "gate")
    writer = spawn("index", str(root), "-q", env=child_env(CS_FILE_BATCH=20, CS_GATE=gate, CS_GATE_AT=30))
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(gate + ".ready"):
            assert writer.poll() is None and time.monotonic() < deadline, writer.communicate()
            time.sleep(0.01)
        # the writer holds the lock and an open transaction (files 21..29 inserted, not committed)
        db = connect(root)
        name, path = db.execute("SELECT name, path FROM chunks WHERE kind = 'function' ORDER BY id LIMIT 1").fetchone()
        db.close()

        t0 = time.monotonic()
        found = codesift("search", name, "--json", "--root", str(root), env=child_env(), timeout=30)
        assert found.returncode == 0, found.stderr
        assert time.monotonic() - t0 < 15
        assert "another process is updating the index" in found.stderr
        assert json.loads(found.stdout)[0]["path"] == path
        status = codesift("status", str(root), "--json", env=child_env(), timeout=30)
        assert status.returncode == 0 and json.loads(status.stdout)["files"] == 20

        # a second writer waits for the lock; past the wait (10 s, shortened here) it says who holds it
        refused = codesift("index", str(root), "-q", env=child_env(CS_LOCK_TIMEOUT=1), timeout=30)
        assert refused.returncode == 1
        lines = refused.stderr.strip().splitlines()
        # One line saying at once that it waits for the other writer, then the one-line refusal.
        assert len(lines) == 2 and "Traceback" not in refused.stderr, refused.stderr
        assert lines[0].startswith("codesift: waiting up to") and f"(pid {writer.pid})" in lines[0]
        assert lines[1].startswith(f"codesift: another codesift process (pid {writer.pid}) is updating the index")
        assert str(root / ".codesift") in lines[1]
        waiting = spawn("index", str(root), "--json", env=child_env())  # the default 10 s wait
        time.sleep(1.0)
        assert waiting.poll() is None, "a second `codesift index` neither waited nor failed"
        Path(gate + ".go").touch()
        assert writer.wait(60) == 0
        out, err = waiting.communicate(timeout=60)
        assert waiting.returncode == 0, err
        assert json.loads(out)["files"] == 61  # + docs/guide.md
    finally:
        Path(gate + ".go").touch()
        for proc in (writer, locals().get("waiting")):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)
    assert integrity_problems(root) == []


# --------------------------------------------------------------------------- parse workers
def _running(pid: int) -> bool:
    """Alive and not a zombie (an exited child whose new parent has not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _pool_used() -> bool:
    from codesift.indexing import workers

    return min(workers.usable_cpus(), 8) >= 2


@pytest.mark.skipif(not os.path.isdir("/proc") or not _pool_used(), reason="no parse worker processes here")
def test_sigkill_leaves_no_parse_workers_behind(tmp_path: Path) -> None:
    from codesift.indexing import workers

    root = make_corpus(tmp_path / "tree", workers.POOL_MIN_FILES + 20)
    env = child_env()
    env.pop("CODESIFT_WORKERS", None)
    proc = spawn("index", str(root), "-q", env=env)
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline and len(kids) < 2:
            kids = _children(proc.pid)
            time.sleep(0.05)
        assert proc.poll() is None and kids, "the run ended before its workers could be seen"
        time.sleep(0.3)
        kids = _children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_running(k) for k in kids):
            time.sleep(0.1)
        alive = [k for k in kids if _running(k)]
        assert alive == [], f"{len(alive)} worker processes outlived the killed index run"
    finally:
        for k in kids:  # the processes this test started, by pid
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.kill()
