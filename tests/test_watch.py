import threading
import time
from pathlib import Path

from codesift import Index
from codesift.server.watch import relevant, watch


def test_relevant_paths():
    root, idx = Path("/r"), Path("/r/.codesift")
    assert relevant(root, idx, "/r/src/a.py")
    assert not relevant(root, idx, "/r/.codesift/meta.db")
    assert not relevant(root, idx, "/r/.git/objects/ab/cd")
    assert relevant(root, idx, "/r/.git/HEAD")
    assert not relevant(root, idx, "/elsewhere/a.py")


def test_watch_applies_changes_incrementally(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")  # parsing and symbols only: no vectors needed
    with Index(repo) as idx:
        idx.update(embed=False)
        stop = threading.Event()
        updates = []
        lock = threading.Lock()
        t = threading.Thread(target=watch, args=(idx,), kwargs={
            "on_update": updates.append, "stop": stop, "lock": lock, "debounce_ms": 100}, daemon=True)
        t.start()
        time.sleep(0.5)
        (repo / "src/http/new_module.py").write_text("def freshly_watched_function():\n    return 1\n")
        deadline = time.time() + 20
        while time.time() < deadline and not any(u.files_parsed for u in updates):
            time.sleep(0.1)
        stop.set()
        t.join(10)
        assert any(u.files_parsed == 1 for u in updates)
        with lock:
            assert idx.find_symbol("freshly_watched_function", exact=True)
