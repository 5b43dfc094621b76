import os
import subprocess
import sys
import textwrap
import time

import pytest

from codesift.store.lock import IndexBusy, WriteLock


def test_second_writer_is_refused_with_the_holder_pid(tmp_path):
    with WriteLock(tmp_path):
        with pytest.raises(IndexBusy, match=r"pid \d+"):
            WriteLock(tmp_path, timeout=0.2).acquire()
    with WriteLock(tmp_path):  # released: can be taken again
        pass


def test_a_waiting_writer_says_so_at_once_then_refuses(tmp_path):
    said: list[tuple[float, str]] = []
    with WriteLock(tmp_path):
        start = time.monotonic()
        with pytest.raises(IndexBusy):
            WriteLock(tmp_path, timeout=0.5, on_wait=lambda m: said.append((time.monotonic() - start, m))).acquire()
    (when, message), = said  # once, before the wait, not after it
    assert when < 0.2 and "waiting up to 0.5 s" in message and f"pid {os.getpid()}" in message
    said.clear()
    with WriteLock(tmp_path, timeout=0.5, on_wait=lambda m: said.append((0, m))):
        pass
    assert said == []  # a free lock: nothing to say


def test_cli_index_says_it_waits_for_another_writer_before_refusing(repo, monkeypatch):
    from click.testing import CliRunner

    from codesift.cli import index as index_cli
    from codesift.cli.app import main

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    monkeypatch.setattr(index_cli, "LOCK_WAIT", 0.3)
    assert CliRunner().invoke(main, ["index", str(repo), "-q"]).exit_code == 0
    with WriteLock(repo / ".codesift"):
        result = CliRunner().invoke(main, ["index", str(repo), "-q"])
    assert result.exit_code == 1
    first, last = result.stderr.strip().splitlines()
    assert first.startswith("codesift: waiting up to 0.3 s for another codesift process (pid ")
    assert last.startswith("codesift: another codesift process") and result.stdout == ""


@pytest.mark.subprocess
def test_lock_of_a_killed_process_is_not_stale(tmp_path):
    code = textwrap.dedent(f"""
        import os, sys, time
        from codesift.store.lock import WriteLock
        WriteLock(__import__('pathlib').Path({str(tmp_path)!r})).acquire()
        print('locked', flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(IndexBusy):
            WriteLock(tmp_path).acquire()
        proc.kill()
        proc.wait(10)
        with WriteLock(tmp_path, timeout=2):
            pass
    finally:
        proc.kill()
