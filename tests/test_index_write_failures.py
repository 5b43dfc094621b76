"""An index writer that cannot write (issue 45): one line naming the cause, the failed batch rolled back, the
index as it was still answering; and a writer whose index folder is deleted under it stops at once.

* A full disk, reproduced without root: ``codesift index`` runs under ``RLIMIT_FSIZE`` (writes past the limit
  fail with EFBIG, SIGXFSZ ignored) after many files were added to an index built earlier.
* The index folder deleted mid-run (the writer held at a gate, as in test_crash_safety.py), then rebuilt by a
  second ``codesift index`` that the lost lock no longer refuses: the first writer exits with one line.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codesift.store.lock import IndexRemoved, IndexWriteError, WriteLock, check_held, write_failure
from test_crash_safety import CHILD, child_env, codesift, integrity_problems, make_corpus, snapshot, spawn


# --------------------------------------------------------------------------- the message of a failed write
@pytest.mark.parametrize("exc, words", [
    (OSError(errno.ENOSPC, "No space left on device"), "no space left on device"),
    (OSError(errno.EFBIG, "File too large"), "file size limit"),
    (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
    (sqlite3.OperationalError("database or disk is full"), "no space left on device"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "permission denied"),
    (ValueError("An IO error occurred: 'No space left on device (os error 28)'"), "no space left on device"),
])
def test_a_failed_write_is_one_line_naming_its_cause(tmp_path: Path, exc: BaseException, words: str) -> None:
    failure = write_failure(exc, tmp_path, needed=3 * 1024 * 1024)
    assert isinstance(failure, IndexWriteError)
    text = str(failure)
    assert "\n" not in text and words in text and "about 3.0 MB more" in text
    assert str(tmp_path) in text and "`codesift index` again" in text


@pytest.mark.parametrize("exc", [ValueError("syntax error in query"), sqlite3.OperationalError("no such table: x"),
                                 sqlite3.IntegrityError("UNIQUE constraint failed")])
def test_other_errors_are_no_failed_writes(tmp_path: Path, exc: BaseException) -> None:
    assert write_failure(exc, tmp_path) is None


@pytest.mark.parametrize("recreate", [False, True])
def test_the_lock_knows_when_its_folder_is_gone(tmp_path: Path, recreate: bool) -> None:
    folder = tmp_path / ".codesift"
    folder.mkdir()
    with WriteLock(folder):
        check_held(folder)  # still there: nothing raised
        shutil.rmtree(folder)
        if recreate:  # another writer made the index again: its lock file is another file
            folder.mkdir()
            (folder / "write.lock").write_text("1")
        with pytest.raises(IndexRemoved, match="was removed while indexing; run `codesift index` again"):
            check_held(folder)
        if recreate:
            with WriteLock(folder, 0):  # the lost lock refuses nobody; the new one is this folder's now
                pass
    check_held(folder)  # released: no longer checked


def test_a_failed_batch_is_rolled_back_and_the_index_answers_as_before(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """In process: the batch commit fails as SQLite does on a full disk."""
    from codesift import Index
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore

    root = make_corpus(tmp_path / "tree", 12)
    with Index(root, config=Config(embedder="none")) as idx:
        idx.update()
        before = idx.status()["symbols"], idx.search("func_8_1").results[0].qualified_name
    for i in range(5):
        (root / f"new_{i}.py").write_text(f"def brand_new_{i}():\n    return {i}\n")
    (root / "pkg1" / "sub2" / "mod_8.py").unlink()
    real = MetaStore.commit
    calls = [0]

    def full(self: MetaStore) -> None:
        calls[0] += 1
        if calls[0] == 2:  # the first: the update marks the keyword index dirty; the second: the batch
            raise sqlite3.OperationalError("database or disk is full")
        real(self)

    monkeypatch.setattr(MetaStore, "commit", full)
    with Index(root, config=Config(embedder="none")) as idx:
        with pytest.raises(IndexWriteError, match="no space left on device.*as it did before this run"):
            idx.update()
    monkeypatch.setattr(MetaStore, "commit", real)
    with Index(root, config=Config(embedder="none")) as idx:
        assert (idx.status()["symbols"], idx.search("func_8_1").results[0].qualified_name) == before
        assert idx.store.get_meta("keyword_dirty") == "0"  # rolled back in both: no rebuild needed
    assert integrity_problems(root) == []


def test_a_failed_keyword_commit_after_sqlite_committed_is_healed_by_the_next_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codesift import Index
    from codesift.config.settings import Config
    from codesift.store.keyword import KeywordIndex

    root = make_corpus(tmp_path / "tree", 12)
    real = KeywordIndex.commit

    def full(self: KeywordIndex, *, final: bool = True) -> None:
        if final:
            raise ValueError("An IO error occurred: 'No space left on device (os error 28)'")
        real(self, final=final)

    monkeypatch.setattr(KeywordIndex, "commit", full)
    with Index(root, config=Config(embedder="none")) as idx:
        with pytest.raises(IndexWriteError, match=r"no space left on device.*with 13 files of this run in it"):
            idx.update()
        assert idx.store.get_meta("keyword_dirty") == "1"  # SQLite holds the batch the keyword index lost
    monkeypatch.setattr(KeywordIndex, "commit", real)
    with Index(root, config=Config(embedder="none")) as idx:  # the next reader rebuilds the keyword index
        assert idx.search("func_8_1").results[0].qualified_name == "func_8_1"
    assert integrity_problems(root) == []


def test_a_failed_vector_write_keeps_the_vectors_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codesift import Index
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore
    from test_embed_order import CountingEmbedder

    root = make_corpus(tmp_path / "tree", 6)
    real = MetaStore.put_vectors
    calls = [0]

    def full(self: MetaStore, *args: object, **kwargs: object) -> None:
        calls[0] += 1
        if calls[0] == 2:
            raise sqlite3.OperationalError("database or disk is full")
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    with Index(root, config=Config(embedder="none", embed_batch=4)) as idx:
        idx.update(embed=False)
        monkeypatch.setattr(MetaStore, "put_vectors", full)
        with pytest.raises(IndexWriteError, match="no space left on device.*vectors embedded before the failure"):
            idx.indexer.embed_pending(CountingEmbedder())
        assert idx.store.db.execute("SELECT count(*) FROM vectors").fetchone()[0] == 4  # the first batch


def test_an_update_with_nothing_to_parse_fails_with_one_line_too(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The writes between the stages (the scan's bookkeeping when no file changed) fail as the batches do."""
    from codesift import Index
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore

    root = make_corpus(tmp_path / "tree", 4)
    with Index(root, config=Config(embedder="none")) as idx:
        idx.update()

        def full(self: MetaStore) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(MetaStore, "commit", full)
        with pytest.raises(IndexWriteError, match="no space left on device.*answers as it did before this run"):
            idx.update()
        monkeypatch.undo()
        assert idx.search("func_1_1").results[0].qualified_name == "func_1_1"
    assert integrity_problems(root) == []


def test_vectors_taken_from_the_machine_cache_on_a_full_disk_fail_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codesift import Index
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore
    from test_embed_order import CountingEmbedder

    root = make_corpus(tmp_path / "tree", 4)
    embedder = CountingEmbedder()
    with Index(root, config=Config(embedder="none")) as idx:
        idx.update(embed=False)
        hashes = [h for h, _ in idx.store.missing_embeddings(1000)]
        idx.indexer.shared_cache.put_many(embedder.model_id, hashes, embedder.embed(["x"] * len(hashes)))

        def full(self: MetaStore, *args: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(MetaStore, "put_vectors", full)
        with pytest.raises(IndexWriteError, match="no space left on device.*vectors embedded before the failure"):
            idx.indexer.fill_from_cache(embedder.model_id, embedder.dim)
        assert idx.store.db.execute("SELECT count(*) FROM vectors").fetchone()[0] == 0


def test_a_lock_on_a_folder_that_no_longer_exists_says_so(tmp_path: Path) -> None:
    with pytest.raises(IndexRemoved, match="no longer exists.*`codesift index` to build it again"):
        WriteLock(tmp_path / "gone" / ".codesift", 0).acquire()


# --------------------------------------------------------------------------- a full disk, for real
def add_files(root: Path, n: int) -> None:
    (root / "added").mkdir()
    for i in range(n):
        (root / "added" / f"big_{i}.py").write_text("".join(
            f"def added_{i}_{j}(x):\n    '''Doc {j} of {i}.'''\n    return x * {j} + {i}\n\n\n" for j in range(40)))


def answers(root: Path, env: dict[str, str]) -> tuple[int, str, str]:
    status = codesift("status", str(root), "--json", env=env)
    found = codesift("search", "func_8_1", "--json", "--no-update", "--root", str(root), env=env)
    assert status.returncode == 0 and found.returncode == 0, status.stderr + found.stderr
    top = json.loads(found.stdout)[0]
    return json.loads(status.stdout)["symbols"], top["qualified_name"], top["path"]


@pytest.mark.subprocess
def test_a_full_disk_is_one_line_and_the_index_still_answers(tmp_path: Path) -> None:
    root = make_corpus(tmp_path / "tree", 60)
    env = child_env()
    assert codesift("index", str(root), "-q", env=env).returncode == 0
    before = answers(root, env)
    add_files(root, 150)  # ~420 KB of source: the first batch alone grows the index by megabytes
    limit = max(p.stat().st_size for p in (root / ".codesift").rglob("*") if p.is_file()) + 64 * 1024

    def small_disk() -> None:  # in the child: writes past `limit` bytes fail with EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full = subprocess.run([sys.executable, "-c", CHILD, "index", str(root), "-q"], env=env, capture_output=True,
                          text=True, timeout=120, preexec_fn=small_disk)
    assert full.returncode == 1
    assert "Traceback" not in full.stderr and len(full.stderr.strip().splitlines()) == 1, full.stderr
    line = full.stderr.strip()
    assert line.startswith(f"codesift: could not write the index at {root / '.codesift'}: "), line
    assert "file size limit" in line and "it needs about" in line and " MB more" in line, line
    assert "the index answers as it did before this run" in line, line
    assert answers(root, env) == before  # same symbol count, same top result
    assert integrity_problems(root) == []
    # a search, which updates the index first, answers from the index as it is, with a note
    found = subprocess.run([sys.executable, "-c", CHILD, "search", "func_8_1", "--json", "--root", str(root)],
                           env=env, capture_output=True, text=True, timeout=120, preexec_fn=small_disk)
    assert found.returncode == 0 and "Traceback" not in found.stderr, found.stderr
    assert "note: could not write the index" in found.stderr and "file size limit" in found.stderr
    assert json.loads(found.stdout)[0]["qualified_name"] == before[1]
    assert answers(root, env) == before

    again = codesift("index", str(root), "--json", env=env)  # room again: the run completes
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["symbols"] == before[0] + 150 * 40
    assert integrity_problems(root) == []


# --------------------------------------------------------------------------- the index folder deleted mid-run
def delete_folder_mid_run(root: Path, gate: Path, rebuilt_meanwhile: bool) -> tuple[
        subprocess.CompletedProcess[str], subprocess.CompletedProcess[str] | None]:
    """`codesift index ROOT` held at a gate after two batches of 20 files, its `.codesift` deleted then (and, with
    ``rebuilt_meanwhile``, made again by a second `codesift index`), then let go: the first writer's result and
    the second's."""
    writer = spawn("index", str(root), "-q", env=child_env(CS_FILE_BATCH=20, CS_GATE=str(gate), CS_GATE_AT=50))
    second = None
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(f"{gate}.ready"):
            assert writer.poll() is None and time.monotonic() < deadline, writer.communicate()
            time.sleep(0.01)
        while (root / ".codesift").exists():  # two batches committed, the third mid-transaction
            shutil.rmtree(root / ".codesift", ignore_errors=True)  # (tantivy may be merging segments in it)
        if rebuilt_meanwhile:
            second = codesift("index", str(root), "--json", env=child_env(), timeout=120)
        Path(f"{gate}.go").touch()
        out, err = writer.communicate(timeout=60)
    finally:
        Path(f"{gate}.go").touch()
        if writer.poll() is None:
            writer.kill()
            writer.wait(10)
    return subprocess.CompletedProcess(writer.args, writer.returncode, out, err), second


@pytest.mark.subprocess
@pytest.mark.parametrize("rebuilt_meanwhile", [False, True])
def test_a_writer_whose_folder_is_deleted_stops_with_one_line(tmp_path: Path, rebuilt_meanwhile: bool) -> None:
    ref = make_corpus(tmp_path / "ref", 120)
    assert codesift("index", str(ref), "-q", env=child_env()).returncode == 0
    root = make_corpus(tmp_path / "tree", 120)
    writer, second = delete_folder_mid_run(root, tmp_path / "gate", rebuilt_meanwhile)
    if second is not None:  # the lock went with the folder: a second writer is not refused
        assert second.returncode == 0, second.stderr
    err = writer.stderr
    assert writer.returncode == 1
    assert "Traceback" not in err and err.strip().splitlines() == [
        f"codesift: the index folder {root / '.codesift'} was removed while indexing; run `codesift index` again"]
    if not rebuilt_meanwhile:
        assert not (root / ".codesift" / "meta.db").exists()  # the stopped writer made nothing anew
    final = codesift("index", str(root), "--json", env=child_env())
    assert final.returncode == 0, final.stderr
    assert integrity_problems(root) == []
    assert snapshot(root) == snapshot(ref)  # a whole index: every file, chunk and reference
    assert json.loads(final.stdout)["symbols"] == json.loads(
        codesift("status", str(ref), "--json", env=child_env()).stdout)["symbols"]


def test_read_commands_answer_from_the_index_as_it_is_when_their_refresh_cannot_write(
        keyword_index, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from codesift.api import Index
    from codesift.cli import main

    def full(self: Index, **kwargs: object) -> None:
        raise IndexWriteError("could not write the index: no space left on device")

    monkeypatch.setattr(Index, "update", full)
    for args in (["symbol", "rebuild_auth"], ["search", "rebuild_auth"]):
        result = CliRunner().invoke(main, [*args, "--root", str(keyword_index.root)])
        assert result.exit_code == 0 and result.exception is None, (args, result.output)
        assert "note: could not write the index: no space left on device" in result.stderr, args
        assert "rebuild_auth" in result.stdout, args
