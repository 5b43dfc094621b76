"""Who may talk to ``codesift serve --http``: anyone on loopback, or whoever holds ``CODESIFT_TOKEN``.

With a token every request (MCP at ``/mcp``, the page and its ``/api/*``) needs ``Authorization: Bearer
<token>``, or the page's cookie: opening ``/?token=<token>`` once in a browser sets it (HttpOnly,
SameSite=Strict) and redirects to ``/`` so the token does not stay in the address bar or history.
Binding to an address other than loopback without a token is refused: the server hands out source code.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from codesift.errors import CodesiftError

TOKEN_ENV = "CODESIFT_TOKEN"  # named in messages; read by codesift.config.env (Environment.token)
COOKIE = "codesift_token"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class UnsafeBind(CodesiftError, ValueError):
    """Serving beyond loopback without a token; the message says how to set one."""


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 and ``localhost``."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse a non-loopback address without a token (raises :class:`UnsafeBind`)."""
    if token is None and not is_loopback(host):
        raise UnsafeBind(
            f"refusing to serve on {host} without a token: anyone who can reach it could read the code. "
            f"Set {TOKEN_ENV} to a long random string (e.g. `python -c 'import secrets; "
            f"print(secrets.token_urlsafe(32))'`) and give clients `Authorization: Bearer <token>`, "
            f"or serve on 127.0.0.1")


class BearerTokenMiddleware:
    """ASGI middleware: HTTP requests without the token get 401; lifespan and the rest pass through."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self.token = app, token

    def _ok(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        auth = headers.get("authorization", "")
        bearer = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        cookie = SimpleCookie(headers.get("cookie", ""))
        if self._ok(bearer) or (COOKIE in cookie and self._ok(cookie[COOKIE].value)):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if scope.get("path") == "/" and self._ok((query.get("token") or [None])[0]):
            await _respond(send, 303, b"", [(b"location", b"/"), (b"set-cookie", (
                f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/").encode("latin-1"))])
            return
        await _respond(send, 401, b"codesift: this server needs its token (Authorization: Bearer <token>)\n",
                       [(b"www-authenticate", b"Bearer"), (b"content-type", b"text/plain; charset=utf-8")])


async def _respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
