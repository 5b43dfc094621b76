"""serve --http: a token guards every route; no token, no binding beyond loopback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from codesift.cli.app import main
from codesift.server.auth import COOKIE, BearerTokenMiddleware, UnsafeBind, check_bind, is_loopback

TOKEN = "s3cret-token-value"


def _client() -> TestClient:
    async def hello(request):  # starlette handler
        return PlainTextResponse("code")

    app = Starlette(routes=[Route("/", hello), Route("/mcp", hello, methods=["GET", "POST"]),
                            Route("/api/search", hello)])
    return TestClient(BearerTokenMiddleware(app, TOKEN), follow_redirects=False)


def test_every_route_needs_the_token():
    client = _client()
    for path in ("/", "/mcp", "/api/search?q=x"):
        refused = client.get(path)
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert client.get(path, headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert client.get(path, headers={"Authorization": f"Bearer {TOKEN}"}).text == "code"
    assert client.post("/mcp", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 200


def test_the_page_trades_the_token_in_its_address_for_a_cookie():
    client = _client()
    first = client.get(f"/?token={TOKEN}")
    assert first.status_code == 303 and first.headers["location"] == "/"
    cookie = first.headers["set-cookie"]
    assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/search?q=x").text == "code"  # the browser sends the cookie from now on
    stranger = _client()
    stranger.cookies.set(COOKIE, "nope")
    assert stranger.get("/api/search?q=x").status_code == 401
    assert _client().get("/?token=nope").status_code == 401
    assert _client().get(f"/api/search?token={TOKEN}").status_code == 401  # only the page takes it in the address


def test_binding_beyond_loopback_needs_a_token():
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"):
        assert is_loopback(host)
        check_bind(host, None)
    for host in ("0.0.0.0", "192.168.1.10", "::", "example.org"):
        assert not is_loopback(host)
        with pytest.raises(UnsafeBind, match="CODESIFT_TOKEN"):
            check_bind(host, None)
        check_bind(host, TOKEN)


def test_cli_refuses_an_open_bind_before_opening_anything(repo, monkeypatch):
    monkeypatch.delenv("CODESIFT_TOKEN", raising=False)
    out = CliRunner().invoke(main, ["serve", str(repo), "--http", "--host", "0.0.0.0"])
    assert out.exit_code == 2 and "refusing to serve on 0.0.0.0 without a token" in out.output
    assert not (repo / ".codesift").exists()
