"""The reindex of a served index (codesift/server/reindex.py): the MCP tool ``reindex`` (the same module) and
``POST /reindex`` on ``serve --http`` (web.py), which streams NDJSON; one reindex at a time."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

import anyio
import pytest
from mcp import Client

from codesift import Index
from conftest import http_server, write_repo

BASE = "127.0.0.1:8765"
TOKEN = "reindex-token-value"


@pytest.fixture
def service(tmp_path, monkeypatch):
    """A keyword-only IndexService over the fixture repository, started, never refreshed by tool calls."""
    from codesift.server.service import IndexService

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    svc = IndexService(Index(write_repo(tmp_path / "repo")), embed=False, refresh_interval=3600)
    svc.start()
    assert svc.wait_ready(60)
    yield svc
    svc.close()


def call(server, name: str, args: dict, progress: list | None = None):
    async def scenario():
        async def on_progress(value, total, message):
            progress.append((value, total, message))

        async with Client(server) as client:
            return await client.call_tool(name, args, progress_callback=on_progress if progress is not None else None)
    return anyio.run(scenario)


def test_reindex_tool_picks_up_a_changed_file_and_reports_progress(service):
    from codesift.server.mcp import build_server

    server = build_server(service)
    (service.index.root / "src/http/cookies.py").write_text("def freshly_added_helper():\n    return 2\n")
    progress: list = []
    result = call(server, "reindex", {}, progress)
    assert not result.is_error, result.content[0].text
    summary = result.structured_content
    assert (summary["parsed"], summary["deleted"], summary["full"]) == (1, 0, False)
    assert summary["unchanged"] == summary["files"] - 1 and summary["seconds"] >= 0 and summary["embedded"] == 0
    assert "parsed 1, unchanged" in result.content[0].text and "keyword-only" in result.content[0].text
    values = [v for v, _, _ in progress]
    assert values and values == sorted(set(values)) and progress[-1][2] == "parse 1/1"
    # no refresh on calls here (refresh_interval=3600): only the reindex can have seen the change
    found = service.call_sync(lambda idx: idx.find_symbol("freshly_added_helper", exact=True))
    assert found and found[0]["path"] == "src/http/cookies.py"
    assert not service.call_sync(lambda idx: idx.find_symbol("RequestsCookieJar", exact=True))

    full = call(server, "reindex", {"full": True})
    assert full.structured_content["parsed"] == full.structured_content["files"] and "re-parsed" in full.content[0].text
    assert call(server, "reindex", {"bogus": 1}).is_error


def test_reindex_tool_refuses_while_another_runs(service):
    from codesift.server.mcp import build_server

    server = build_server(service)
    with service.reindexing:  # another reindex holds it
        result = call(server, "reindex", {})
    assert result.is_error and "already running" in result.content[0].text
    assert not call(server, "reindex", {}).is_error  # free again


# -- POST /reindex -----------------------------------------------------------------------------------
def post(app, target: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], list[bytes]]:
    """One POST through the ASGI app: (status, headers, the body's chunks as sent)."""
    path, _, query = target.partition("?")
    headers = {"host": BASE, **{k.lower(): v for k, v in (headers or {}).items()}}
    sent = [(k.encode(), v.encode()) for k, v in headers.items()]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": sent, "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8765)}
    out: dict = {"chunks": [], "asked": 0}
    finished: anyio.Event

    async def receive():  # the request once; then a disconnect, once the whole response has been sent
        out["asked"] += 1
        if out["asked"] == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await finished.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            if message.get("body"):
                out["chunks"].append(message["body"])
            if not message.get("more_body"):
                finished.set()

    async def run():
        nonlocal finished
        finished = anyio.Event()
        with anyio.fail_after(60):
            await app(scope, receive, send)

    anyio.run(run)
    return out["status"], out["headers"], out["chunks"]


@pytest.fixture
def app(service):
    from codesift.server.mcp import build_server
    from codesift.server.web import add_routes

    server = build_server(service)
    add_routes(server, service, host="127.0.0.1")
    return server.streamable_http_app(host="127.0.0.1")


def events(chunks: list[bytes]) -> list[dict]:
    body = b"".join(chunks).decode()
    assert body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


def test_post_reindex_streams_ndjson_ending_with_done(app, service):
    (service.index.root / "web/server.js").write_text("function servedFresh() { return 1; }\n")
    status, headers, chunks = post(app, "/reindex")
    assert status == 200 and headers["content-type"].startswith("application/x-ndjson")
    assert headers["cache-control"] == "no-store"
    got = events(chunks)
    assert len(chunks) == len(got)  # one line per chunk: streamed as the events come
    *progress, done = got
    assert progress and all(e["event"] == "progress" and e["phase"] == "parse" for e in progress)
    assert all(set(e) == {"event", "phase", "done", "total"} for e in progress)
    assert progress[-1]["done"] == progress[-1]["total"] == 1
    assert done["event"] == "done" and done["parsed"] == 1 and done["deleted"] == 0 and "seconds" in done
    assert service.call_sync(lambda idx: idx.find_symbol("servedFresh", exact=True))

    _, _, chunks = post(app, "/reindex?full=1")
    assert events(chunks)[-1]["parsed"] == events(chunks)[-1]["files"]


def test_post_reindex_answers_409_while_another_runs(app, service):
    with service.reindexing:
        status, headers, chunks = post(app, "/reindex")
    assert status == 409 and headers["content-type"].startswith("application/json")
    assert "already running" in json.loads(b"".join(chunks))["error"]
    assert post(app, "/reindex")[0] == 200


def test_post_reindex_reports_a_failed_update_as_an_error_event(app, service, monkeypatch):
    def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.index, "update", broken)
    *_, last = events(post(app, "/reindex")[2])
    assert last == {"event": "error", "message": "OSError: disk full"}
    assert post(app, "/reindex", {"host": "evil.example:8765"})[0] == 421  # the loopback rule of every route


def test_post_reindex_needs_the_token_on_a_real_server(repo, tmp_path):
    """``serve --http`` with CODESIFT_TOKEN: the CI call of the README, streamed through uvicorn."""
    env = {**os.environ, "CODESIFT_EMBEDDER": "none", "CODESIFT_TOKEN": TOKEN}
    with http_server(repo, tmp_path / "server.log", env=env) as port:
        url = f"http://127.0.0.1:{port}/reindex"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, method="POST"), timeout=30)
        assert refused.value.code == 401
        request = urllib.request.Request(url, method="POST", headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.headers["content-type"].startswith("application/x-ndjson")
            lines = [json.loads(line) for line in response]
    assert lines[-1]["event"] == "done" and lines[-1]["files"] == 5


@pytest.mark.model
def test_reindex_embeds_in_place_of_the_background_worker(repo):
    """With the model: the reindex takes the background worker's place (one embedder) and embeds the new code."""
    from codesift.server.service import IndexService
    from codesift.server.reindex import run_reindex

    svc = IndexService(Index(repo), embed=True, refresh_interval=3600)
    svc.start()
    try:
        assert svc.wait_ready(60)
        (repo / "src/http/retry.py").write_text('def backoff_delay(attempt):\n    """Seconds to wait."""\n'
                                                '    return 2 ** attempt\n')
        got: list = []
        summary = run_reindex(svc, emit=got.append)  # in this thread, as ReindexJob runs it in its own
        assert summary["parsed"] == 1 and summary["embedded"] >= 1 and summary["coverage"] == 1.0
        assert summary["embed_pending"] == 0 and summary["embedding_status"] == "ok"
        phases = [e["phase"] for e in got]
        assert phases[0] == "parse" and phases[-1] == "embed" and got[-1]["done"] == got[-1]["total"]
        assert svc._worker is not None and svc.state == "idle"
    finally:
        svc.close()
