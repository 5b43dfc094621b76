"""The page for people on ``codesift serve --http``: ``GET /`` and the small JSON API it reads.

The page is one static file shipped in the package (``page.html``: HTML, CSS and JS, no build step, no
CDN). Its JSON endpoints answer from the same :class:`~codesift.server.mcp.IndexService` as the MCP
tools, so every Index call goes through the service's one lock:

- ``GET /api/search?q=&mode=&lang=&kind=&path=&service=&limit=&offset=``: ranked results (as ``search_code``;
  ``service`` one or several, comma-separated);
- ``GET /api/context?path=&symbol=&context=``: live source of a file or one symbol in it;
- ``GET /api/outline?path=``: the file's symbols, nested, plus the names it references by line (links);
- ``GET /api/usages?name=&limit=&service=``: static uses of a name (as ``find_usages``);
- ``GET /api/status``: what the index holds;
- ``POST /reindex`` (``?full=1`` re-parses every file): brings the index up to date and streams NDJSON,
  one ``progress`` event a line, then ``done`` (the summary) or ``error``; 409 while another reindex runs
  (:mod:`codesift.server.reindex`). Meant for CI: ``curl -N -X POST -H "Authorization: Bearer $TOKEN" …/reindex``.

Access follows the ``/mcp`` endpoint's rule: bound to loopback (the default) the Host and Origin
headers must be loopback ones (the MCP SDK's DNS-rebinding protection, applied here too, since a page in
a browser is what that protection is for); with ``CODESIFT_TOKEN`` every route needs the token, and
another address is refused without one (:mod:`codesift.server.auth`, wrapped around the whole app). Responses are never cached and the page runs under a strict Content
Security Policy: only its own inline script and style (by hash), requests to this origin only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal, overload

from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from codesift.errors import CodesiftError
from codesift.limits import check_name, check_query

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.server.service import IndexService
    from codesift.tools.payloads import CodeContext, SearchPage

log = logging.getLogger("codesift.server.web")

PAGE = "page.html"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_LIMIT = 100  # results or uses in one answer of the page's API
BASE_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
JSON_CSP = "default-src 'none'; frame-ancestors 'none'"


class BadRequest(ValueError):
    """A query parameter the endpoint cannot use; the message is shown on the page."""


def security_settings(host: str) -> TransportSecuritySettings | None:
    """The Host/Origin rule the MCP SDK applies to ``/mcp`` for this bind address."""
    if host not in LOOPBACK:
        return None
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                                     allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])


@lru_cache(maxsize=1)
def page() -> tuple[bytes, str]:
    """The page's bytes and its Content-Security-Policy (the hashes of its inline script and style)."""
    text = resources.files(__package__).joinpath(PAGE).read_text(encoding="utf-8")

    def hashes(tag: str) -> str:
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.S)
        return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in blocks)

    csp = (f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; "
           "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return text.encode("utf-8"), csp


def _json(data: Any, status: int = 200) -> Response:
    body = json.dumps(data, ensure_ascii=False, default=str, allow_nan=False)
    return Response(body, status_code=status, media_type="application/json",
                    headers={**BASE_HEADERS, "Content-Security-Policy": JSON_CSP})


def _error(message: str, status: int) -> Response:
    return _json({"error": " ".join(str(message).split())[:600]}, status)


@overload
def _text(params: Any, name: str, *, required: Literal[True]) -> str: ...
@overload
def _text(params: Any, name: str, *, required: bool = False) -> str | None: ...
def _text(params: Any, name: str, *, required: bool = False) -> str | None:
    value = (params.get(name) or "").strip()
    if required and not value:
        raise BadRequest(f"{name} is required")
    return value or None


def _int(params: Any, name: str, default: int, low: int, high: int) -> int:
    raw = (params.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, got {raw[:40]!r}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be from {low} to {high}, got {value}")
    return value


# -- what each endpoint asks of the index (run under the service's lock) ------------------------------
def _services(params: Any) -> list[str] | None:
    """``service=a,b`` (or repeated ``service=``) as a list; None when absent."""
    values = [v.strip() for raw in params.getlist("service") for v in raw.split(",") if v.strip()]
    return values or None


def search_work(params: Any, background: Callable[[], bool]) -> Callable[["Index"], "SearchPage"]:
    from codesift.server.common import search_payload

    query = check_query(params.get("q") or "")
    mode = _text(params, "mode") or "hybrid"
    limit, offset = _int(params, "limit", 20, 1, MAX_LIMIT), _int(params, "offset", 0, 0, 900)
    language, kind, path = _text(params, "lang"), _text(params, "kind"), _text(params, "path")
    service = _services(params)

    def work(index: "Index") -> "SearchPage":
        response = index.search(query, limit=limit, offset=offset, mode=mode, language=language, kind=kind,
                                path=path, service=service)
        return search_payload(index, response, offset=offset, limit=limit, background=background())
    return work


def context_work(params: Any) -> Callable[["Index"], "CodeContext"]:
    path, symbol = _text(params, "path", required=True), _text(params, "symbol")
    context = _int(params, "context", 0, 0, 200)
    return lambda index: index.get_code_context(path, symbol, context_lines=context)


def outline_work(params: Any) -> Callable[["Index"], dict[str, Any]]:
    path = _text(params, "path", required=True)

    def work(index: "Index") -> dict[str, Any]:
        found = dict(index.outline(path))
        # The names the file references, by line, for the page's links to their uses: only where the
        # index's lines are the file's (the file is unchanged since it was indexed).
        sites = [] if found.get("changed_since_indexed") else index.store.ref_file_sites(str(found["path"]))
        defined = defined_names(index, {name for name, *_ in sites})  # a local variable's reads link nowhere
        found["references"] = [{"name": name, "line": line, "kind": kind} for name, line, kind, _ in sites
                               if name in defined]
        return found
    return work


def defined_names(index: "Index", names: set[str]) -> set[str]:
    """Those of ``names`` that some definition in the index has."""
    from codesift.store.refs import NOT_SYMBOLS

    return index.store.defined_names(names, NOT_SYMBOLS)


def usages_work(params: Any) -> Callable[["Index"], dict[str, Any]]:
    name = check_name(params.get("name") or "")
    limit = _int(params, "limit", MAX_LIMIT, 1, MAX_LIMIT)
    service = _services(params)
    return lambda index: dict(index.find_usages(name, limit=limit, service=service))


def status_info(service: "IndexService") -> dict[str, Any]:
    """The status keys the page shows, in this order."""
    info: Mapping[str, Any] = service.status()
    keep = ("root", "files", "chunks", "symbols", "languages", "embedding", "embedding_status", "coverage",
            "background", "last_update")
    return {k: info[k] for k in keep if k in info}


# -- the routes -----------------------------------------------------------------------------------------
Handler = Callable[[Request], Awaitable[Response]]


def add_routes(server: Any, service: "IndexService", *, host: str) -> None:
    """Register ``GET /`` and the page's ``/api/*`` endpoints on the MCP server's HTTP app."""
    from codesift.api import IndexMismatchError

    guard = TransportSecurityMiddleware(security_settings(host))

    def endpoint(build: Callable[[Any], Callable[["Index"], Any]], *, refresh: bool) -> Handler:
        async def handle(request: Request) -> Response:
            refused = await guard.validate_request(request)
            if refused is not None:
                return refused
            try:
                work = build(request.query_params)
                data, stale = await service.call_noted(work, refresh=refresh)
                if stale is not None and isinstance(data, dict):  # the answer may miss an edit: say so
                    data = {**data, "stale": stale}
                return _json(data)
            except (ValueError, LookupError, CodesiftError, IndexMismatchError) as exc:
                return _error(str(exc), 400)
            except OSError as exc:
                return _error(f"{type(exc).__name__}: {exc}", 400)
            except Exception as exc:  # a bug: the traceback goes to the server log, the page gets one line
                log.exception("%s failed", request.url.path)
                return _error(f"internal error ({type(exc).__name__}: {exc})", 500)
        return handle

    async def index_page(request: Request) -> Response:
        refused = await guard.validate_request(request)
        if refused is not None:
            return refused
        body, csp = page()
        return Response(body, media_type="text/html; charset=utf-8",
                        headers={**BASE_HEADERS, "Content-Security-Policy": csp})

    async def status(request: Request) -> Response:
        refused = await guard.validate_request(request)
        if refused is not None:
            return refused
        return _json(await service.call(lambda index: status_info(service)))

    async def reindex(request: Request) -> Response:
        refused = await guard.validate_request(request)
        if refused is not None:
            return refused
        full = (request.query_params.get("full") or "").lower() in ("1", "true", "yes")
        return reindex_response(service, full=full)

    background = lambda: service.embedding_in_progress  # noqa: E731
    routes: dict[str, Handler] = {
        "/": index_page,
        "/api/search": endpoint(lambda p: search_work(p, background), refresh=True),
        "/api/context": endpoint(context_work, refresh=False),
        "/api/outline": endpoint(outline_work, refresh=True),
        "/api/usages": endpoint(usages_work, refresh=True),
        "/api/status": status,
    }
    for path, handler in routes.items():
        server.custom_route(path, methods=["GET"], include_in_schema=False)(handler)
    server.custom_route("/reindex", methods=["POST"], include_in_schema=False)(reindex)


def reindex_response(service: "IndexService", *, full: bool) -> Response:
    """``POST /reindex``: the reindex's events as NDJSON, one object a line, streamed as they come (the
    last is ``done`` or ``error``); 409 while another reindex runs."""
    from codesift.server.reindex import ReindexBusy, ReindexJob

    try:
        job = ReindexJob(service, full=full)
    except ReindexBusy as exc:
        return _error(str(exc), 409)

    async def lines() -> AsyncIterator[bytes]:
        async for event in job.events():
            yield (json.dumps(event, ensure_ascii=False, default=str) + "\n").encode("utf-8")

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={**BASE_HEADERS, "Content-Security-Policy": JSON_CSP})
