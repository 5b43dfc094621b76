import subprocess
import sys
import textwrap

import pytest

from codesift.store.lock import IndexBusy, WriteLock


def test_second_writer_is_refused_with_the_holder_pid(tmp_path):
    with WriteLock(tmp_path):
        with pytest.raises(IndexBusy, match=r"pid \d+"):
            WriteLock(tmp_path, timeout=0.2).acquire()
    with WriteLock(tmp_path):  # released: can be taken again
        pass


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
