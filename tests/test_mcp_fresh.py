"""Issue 44: a tool call right after an edit answers from the edited tree, and says so when it cannot.

In-process MCP server (the SDK's client against ``build_server``), the refresh timer at its default: the
calls below come well inside it, so only the change check before each call can bring the edit in.
"""

import os
import time

import anyio
import pytest

from codesift import Index
from codesift.store.lock import WriteLock


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def backdate(root, seconds=60):
    """Files and folders as if written a minute ago: a stat this close to an update is not trusted
    (server/freshness.py), so the snapshot of a tree written by the test would list every file."""
    then = time.time() - seconds
    for path in [root, *root.rglob("*")]:
        os.utime(path, (then, then))


def run_session(repo, steps):
    """Start a service on ``repo``, then run ``steps(call, service)`` (``call(name, args)`` awaits one tool)."""
    from mcp import Client

    backdate(repo)

    from codesift.server.mcp import build_server
    from codesift.server.service import IndexService

    service = IndexService(Index(repo), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            return await steps(client.call_tool, service)

    try:
        return anyio.run(scenario)
    finally:
        service.close()


@pytest.fixture(autouse=True)
def _no_model(monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")


def test_tool_calls_see_an_edit_made_just_before(repo):
    async def steps(call, service):
        before = await call("find_symbol", {"name": "freshly_appended", "exact": True})
        with (repo / "src/http/sessions.py").open("a", encoding="utf-8") as f:
            f.write("\n\ndef freshly_appended(request):\n    return 'freshly_appended_marker'\n")
        (repo / "src/http/brand_new.py").write_text("def in_a_new_file():\n    return 2\n", encoding="utf-8")
        return before, [await call(name, args) for name, args in [
            ("find_symbol", {"name": "freshly_appended", "exact": True}),
            ("grep_code", {"pattern": "freshly_appended_marker"}),
            ("search_code", {"query": "freshly_appended", "mode": "keyword"}),
            ("find_symbol", {"name": "in_a_new_file", "exact": True}),
        ]]

    before, (symbol, grep, search, new_file) = run_session(repo, steps)
    assert before.structured_content["total"] == 0
    assert symbol.structured_content["total"] == 1, text_of(symbol)
    assert symbol.structured_content["results"][0]["path"] == "src/http/sessions.py"
    assert "src/http/sessions.py" in text_of(grep) and grep.structured_content["results"], text_of(grep)
    assert any(r["name"] == "freshly_appended" for r in search.structured_content["results"]), text_of(search)
    assert new_file.structured_content["total"] == 1, text_of(new_file)
    for result in (symbol, grep, search, new_file):
        assert "stale" not in result.structured_content and "may be stale" not in text_of(result)


def test_an_answer_that_may_miss_an_edit_says_so(repo):
    """Another process holds the write lock: the server cannot refresh, answers from what it has, and
    says which edit the answer may miss; once the lock is free the next call catches up."""
    async def steps(call, service):
        await call("find_symbol", {"name": "Session"})  # the start-up update is done
        with (repo / "src/http/sessions.py").open("a", encoding="utf-8") as f:
            f.write("\n\ndef appended_while_locked():\n    return 1\n")
        with WriteLock(service.index.folder):
            stale = await call("find_symbol", {"name": "appended_while_locked", "exact": True})
            grep = await call("grep_code", {"pattern": "appended_while_locked"})
        fresh = await call("find_symbol", {"name": "appended_while_locked", "exact": True})
        return stale, grep, fresh

    stale, grep, fresh = run_session(repo, steps)
    assert "may be stale" in text_of(stale) and "src/http/sessions.py" in text_of(stale)
    assert stale.structured_content["stale"]["reason"] == "index_busy"
    assert "src/http/sessions.py" in stale.structured_content["stale"]["changed"]
    assert stale.structured_content["stale"]["changed_count"] == len(stale.structured_content["stale"]["changed"])
    assert stale.structured_content["total"] == 0  # answered from the index as it was
    assert "may be stale" in text_of(grep)
    assert fresh.structured_content["total"] == 1 and "stale" not in fresh.structured_content


def test_changed_paths_compares_stats_with_the_snapshot():
    from codesift.server.freshness import Snapshot, changed_paths, describe

    snap = Snapshot(files={"a.py": (10, 1.5), "b.py": (3, 2.0)}, dirs={"": 100, "pkg": 7})
    now = {"a.py": (10, 1.5), "b.py": (4, 2.0)}
    assert changed_paths(snap, now, {"": 100, "pkg": 7}) == ["b.py"]
    assert changed_paths(snap, {"a.py": (10, 1.5)}, {"": 100, "pkg": 7}) == ["b.py"]  # deleted
    assert changed_paths(snap, {**now, "b.py": (3, 2.0)}, {"": 101, "pkg": 7}) == ["./"]  # a new entry
    assert changed_paths(snap, {"a.py": (10, 1.5), "b.py": (3, 2.0)}, {"": 100, "pkg": 7}) == []
    assert describe(["a.py", "pkg/"]) == "`a.py` and files added or removed in `pkg/`"


def test_stats_taken_close_to_the_update_are_not_trusted():
    from codesift.server.freshness import UNTRUSTED, folders_of, trusted

    assert folders_of(["a/b/c.py", "d.py"]) == {"", "a", "a/b"}
    snap = trusted({"old.py": (1, 50.0), "new.py": (1, 99.5), "gone.py": None}, {"": 50 * 10**9, "a": None},
                   since=100.0)
    assert snap.files == {"old.py": (1, 50.0), "new.py": UNTRUSTED, "gone.py": UNTRUSTED}
    assert changed_paths_of(snap) == ["gone.py", "new.py", "a/"]


def changed_paths_of(snap):
    from codesift.server.freshness import changed_paths

    return changed_paths(snap, {"old.py": (1, 50.0), "new.py": (1, 99.5)}, {"": 50 * 10**9, "a": 7})


def started_service(repo):
    from codesift.server.service import IndexService

    backdate(repo)
    service = IndexService(Index(repo), embed=False)
    service.start()
    assert service.wait_ready(30)
    then = time.time() - 60
    os.utime(repo, (then, then))  # the index folder made there just now changed the root's mtime
    return service


def test_an_unchanged_tree_costs_a_stat_not_an_update(repo, monkeypatch):
    service = started_service(repo)
    try:
        updates = []
        real = service.index.update
        monkeypatch.setattr(service.index, "update", lambda **kw: updates.append(kw) or real(**kw))
        service.call_sync(lambda idx: None, refresh=True)  # the root's stat was too recent to trust
        updates.clear()
        for _ in range(3):
            assert service.call_noted_sync(lambda idx: None, refresh=True) == (None, None)
        assert updates == []
        (repo / "docs/guide.md").write_text("# Changed\n", encoding="utf-8")
        service.call_sync(lambda idx: None, refresh=True)
        assert len(updates) == 1
    finally:
        service.close()


def test_an_index_of_services_says_it_is_not_checked_between_refreshes(repo, monkeypatch):
    monkeypatch.setattr("codesift.server.service.services_active", lambda store, specs: True)
    service = started_service(repo)
    try:
        _, stale = service.call_noted_sync(lambda idx: None, refresh=True)
        assert stale is not None and stale["reason"] == "not_checked" and "may be stale" in stale["note"]
        assert service.call_noted_sync(lambda idx: None) == (None, None)  # a call that does not refresh
    finally:
        service.close()
