"""The page on ``serve --http`` (codesift/web.py) without a browser: its routes called in-process through
the MCP server's ASGI app. The browser test is tests/test_web_browser.py."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from importlib import resources

import anyio
import pytest

from codesift import Index
from conftest import write_repo

BASE = "127.0.0.1:8765"


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The HTTP app ``codesift serve --http`` runs (bound to loopback), over the fixture repository."""
    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server
    from codesift.server.web import add_routes

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    service = IndexService(Index(write_repo(tmp_path / "repo")), embed=False)
    server = build_server(service)
    add_routes(server, service, host="127.0.0.1")
    service.start()
    assert service.wait_ready(60)
    yield server.streamable_http_app(host="127.0.0.1")
    service.close()


def get(app, target: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One GET through the ASGI app: (status, headers, body)."""
    path, _, query = target.partition("?")
    sent = [(b"host", BASE.encode())] + [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    if headers and any(k.lower() == "host" for k in headers):
        sent = sent[1:]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": sent, "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8765)}
    out: dict = {"body": b""}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    anyio.run(app, scope, receive, send)
    return out["status"], out["headers"], out["body"]


def get_json(app, target: str) -> tuple[int, dict]:
    status, headers, body = get(app, target)
    assert headers["content-type"].startswith("application/json") and headers["cache-control"] == "no-store"
    return status, json.loads(body)


def test_the_page_is_package_data_and_served_at_root_under_a_strict_policy(app):
    assert resources.files("codesift.server").joinpath("page.html").is_file()
    status, headers, body = get(app, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert 'id="q"' in page and 'id="mode"' in page
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "unsafe" not in csp and "connect-src 'self'" in csp
    for tag in ("script", "style"):  # the inline script and style run by their hashes, nothing else does
        (block,) = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.S)
        digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert not re.search(r"\son[a-z]+\s*=", page), "inline event handlers would need 'unsafe-inline'"
    assert not re.search(r"(src|href)=\"(https?:)?//", page), "no CDN, nothing outside the page"
    assert "innerHTML" not in page and "eval(" not in page and "new Function" not in page


def test_search_answers_with_results_and_refuses_bad_parameters(app):
    status, data = get_json(app, "/api/search?q=where%20are%20redirects%20followed&limit=5")
    assert status == 200 and data["results"]
    hit = next(r for r in data["results"] if r["qualified_name"] == "SessionRedirectMixin.resolve_redirects")
    assert (hit["path"], hit["start_line"], hit["kind"]) == ("src/http/sessions.py", 8, "method")
    assert hit["definition_start_line"] == 8  # the page links and highlights these (the passage may be wider)
    assert "snippet" in hit and "id" in hit
    status, data = get_json(app, "/api/search?q=cookie&lang=py&kind=class&path=src/")
    assert [r["qualified_name"] for r in data["results"]] == ["RequestsCookieJar"]
    # service= (top-level folders here), one or several, comma-separated or repeated
    status, data = get_json(app, "/api/search?q=redirects&mode=keyword&service=tests")
    assert status == 200 and data["results"] and {r["path"].split("/")[0] for r in data["results"]} == {"tests"}
    status, data = get_json(app, "/api/search?q=redirects&mode=keyword&service=tests,src")
    assert {r["path"].split("/")[0] for r in data["results"]} == {"tests", "src"}
    status, data = get_json(app, "/api/search?q=redirects&service=nosuch")
    assert status == 400 and "nosuch" in data["error"]
    for bad, words in (("q=", "query is empty"), ("q=x&limit=abc", "whole number"), ("q=x&limit=0", "from 1"),
                       ("q=x&lang=cobol", "unknown language"), ("q=x&mode=fuzzy", "mode must be")):
        status, data = get_json(app, f"/api/search?{bad}")
        assert status == 400 and words in data["error"], (bad, data)


def test_context_outline_and_usages(app):
    status, ctx = get_json(app, "/api/context?path=src/http/sessions.py")
    assert status == 200 and ctx["start_line"] == 1 and "def rebuild_auth" in ctx["code"]
    status, ctx = get_json(app, "/api/context?path=src/http/sessions.py&symbol=rebuild_auth")
    assert ctx["start_line"] == 14 and ctx["code"].lstrip().startswith("def rebuild_auth")
    status, data = get_json(app, "/api/context?path=../../etc/passwd")
    assert status == 400 and "outside the indexed root" in data["error"]
    status, data = get_json(app, "/api/context")
    assert status == 400 and data["error"] == "path is required"

    status, outline = get_json(app, "/api/outline?path=src/http/sessions.py")
    (mixin, merge) = outline["symbols"]
    assert [c["name"] for c in mixin["children"]] == ["resolve_redirects", "rebuild_auth"]
    assert merge["name"] == "merge_settings"
    status, outline = get_json(app, "/api/outline?path=tests/test_sessions.py")
    # Names the file references that some definition has: linked to their uses; local names are not.
    assert outline["references"] == [{"name": "resolve_redirects", "line": 2, "kind": "reference"}]

    status, uses = get_json(app, "/api/usages?name=resolve_redirects")
    assert status == 200 and [(u["path"], u["line"]) for u in uses["usages"]] == [("tests/test_sessions.py", 2)]
    assert uses["definitions"][0]["qualified_name"] == "SessionRedirectMixin.resolve_redirects"
    status, uses = get_json(app, "/api/usages?name=resolve_redirects&service=src")  # its one use is in tests/
    assert status == 200 and all(u["path"].startswith("src/") and u["kind"] == "guess" for u in uses["usages"])
    status, data = get_json(app, "/api/usages?name=")
    assert status == 400 and "empty" in data["error"]

    status, info = get_json(app, "/api/status")
    assert info["files"] == 5 and info["root"].endswith("repo")


def test_loopback_rule_is_the_mcp_endpoints(app):
    """Bound to loopback, a request naming another host (DNS rebinding) or from another origin is refused,
    as /mcp refuses it; the page itself is same-origin and passes."""
    for target in ("/", "/api/status", "/api/search?q=redirect"):
        assert get(app, target, {"Host": "evil.example:8765"})[0] == 421
        assert get(app, target, {"Origin": "http://evil.example"})[0] == 403
        assert get(app, target, {"Origin": "http://127.0.0.1:8765"})[0] == 200
        assert get(app, target, {"Host": "localhost:8765"})[0] == 200


def test_a_non_loopback_bind_has_no_host_rule():
    from codesift.server.web import security_settings

    assert security_settings("0.0.0.0") is None
    assert security_settings("::1").allowed_hosts == ["127.0.0.1:*", "localhost:*", "[::1]:*"]
