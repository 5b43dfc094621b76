"""HTTP routes from decorator / annotation / attribute source strings.

Recognised (method level): Flask ``@app.route("/x", methods=[...])`` / ``@bp.get("/x")``,
FastAPI ``@router.post("/x")``, Spring ``@GetMapping`` / ``@RequestMapping(method=...)``
(Java and Kotlin), JAX-RS ``@GET @Path("/x")``, ASP.NET ``[HttpGet("x")]`` / ``[Route("x")]``,
Rocket / actix ``#[get("/x")]``, NestJS ``@Get(':id')``, Symfony ``#[Route('/x', methods: [...])]``.
Class-level prefixes: Spring ``@RequestMapping("/api")``, JAX-RS ``@Path``, ASP.NET ``[Route]``,
NestJS ``@Controller('users')``, Symfony ``#[Route('/api')]``.
"""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_STRING = re.compile(r"""[rRbBuUfF]*(?:"([^"\\]*)"|'([^'\\]*)'|`([^`\\$]*)`)""")

# @app.route("/x", methods=["POST"]) / @router.get("/x") / @app.websocket("/ws")
_PY = re.compile(
    r"^@[\w.]+\.(route|api_route|get|post|put|delete|patch|head|options|websocket)\(\s*(.*)\)$",
    re.S,
)
# Spring (Java/Kotlin): @GetMapping("/x"), @RequestMapping(value = "/x", method = ...)
_SPRING = re.compile(
    r"^@(?:[\w.]+\.)?(Get|Post|Put|Delete|Patch|Request)Mapping\b(?:\((.*)\))?$", re.S
)
_SPRING_METHOD = re.compile(r"RequestMethod\.(\w+)")
_JAXRS_VERB = re.compile(
    r"^@(?:javax\.ws\.rs\.|jakarta\.ws\.rs\.)?(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$"
)
_JAXRS_PATH = re.compile(r"^@(?:[\w.]+\.)?Path\((.*)\)$", re.S)
# ASP.NET: [HttpGet], [HttpGet("x")], [Route("x")], possibly several in one list
_CS_VERB = re.compile(
    r"\bHttp(Get|Post|Put|Delete|Patch|Head|Options)(?:Attribute)?\b(?:\(([^)]*)\))?"
)
_CS_ROUTE = re.compile(r"\bRoute(?:Attribute)?\(([^)]*)\)")
# Rocket / actix-web: #[get("/x")]
_RUST = re.compile(r"^#\[(get|post|put|delete|patch|head|options)\((.*)\)\]$", re.S)
# NestJS: @Get(), @Post(':id')
_NEST = re.compile(r"^@(Get|Post|Put|Delete|Patch|Head|Options|All)\((.*)\)$", re.S)
_NEST_CONTROLLER = re.compile(r"^@Controller\((.*)\)$", re.S)
# Symfony: #[Route('/x', methods: ['GET'])]
_PHP = re.compile(r"^#\[\s*(?:[\w\\]+\\)?Route\((.*)\)\s*\]$", re.S)


def _first_string(args: str) -> str | None:
    match = _STRING.search(args)
    if match is None:
        return None
    return next(g for g in match.groups() if g is not None)


def _methods(args: str) -> list[str]:
    """Upper-cased HTTP verbs listed in ``methods=[...]`` / ``methods: [...]``."""
    match = re.search(r"methods\s*[=:]\s*[\[({]([^\])}]*)", args)
    if match is None:
        return []
    return [m.upper() for m in re.findall(r"""["'](\w+)["']""", match.group(1))]


def join_path(prefix: str | None, path: str | None) -> str:
    """``/api`` + ``users/{id}`` -> ``/api/users/{id}``."""
    parts = [p.strip("/") for p in (prefix, path) if p and p.strip("/")]
    return "/" + "/".join(parts)


def _fmt(methods: list[str], prefix: str | None, path: str | None) -> str:
    return f"{','.join(methods) or 'ANY'} {join_path(prefix, path)}"


def route_prefix(decorators: list[str]) -> str | None:
    """Path prefix a class-level decorator gives to the routes of its methods."""
    for raw in decorators:
        deco = _WS.sub(" ", raw).strip()
        match = _SPRING.match(deco)
        if match and match.group(1) == "Request":
            return _first_string(match.group(2) or "") or None
        for pattern in (_JAXRS_PATH, _NEST_CONTROLLER, _PHP):
            match = pattern.match(deco)
            if match:
                return _first_string(match.group(1)) or None
        match = _CS_ROUTE.search(deco)
        if match and deco.startswith("["):
            return _first_string(match.group(1)) or None
    return None


def route_for(decorators: list[str], prefix: str | None = None) -> str | None:
    """``"GET /users/<id>"`` if one of ``decorators`` declares an HTTP route, else None."""
    jaxrs_verb: str | None = None
    jaxrs_path: str | None = None
    cs_verb: tuple[str, str | None] | None = None
    cs_route: str | None = None
    for raw in decorators:
        deco = _WS.sub(" ", raw).strip()
        match = _PY.match(deco)
        if match:
            func, args = match.groups()
            path = _first_string(args)
            if path is not None and path.startswith("/"):
                if func in ("route", "api_route"):
                    methods = _methods(args) or ["GET"]
                elif func == "websocket":
                    methods = ["WS"]
                else:
                    methods = [func.upper()]
                return _fmt(methods, None, path)
            continue
        match = _SPRING.match(deco)
        if match:
            verb, args = match.group(1), match.group(2) or ""
            path = _first_string(args) or ""
            if verb == "Request":
                methods = [m.upper() for m in _SPRING_METHOD.findall(args)]
            else:
                methods = [verb.upper()]
            return _fmt(methods, prefix, path)
        match = _RUST.match(deco)
        if match:
            return _fmt([match.group(1).upper()], prefix, _first_string(match.group(2)) or "")
        match = _NEST.match(deco)
        if match:
            verb = match.group(1).upper()
            path = _first_string(match.group(2)) or ""
            return _fmt([] if verb == "ALL" else [verb], prefix, path)
        match = _PHP.match(deco)
        if match:
            args = match.group(1)
            return _fmt(_methods(args), prefix, _first_string(args) or "")
        match = _JAXRS_VERB.match(deco)
        if match:
            jaxrs_verb = match.group(1)
            continue
        match = _JAXRS_PATH.match(deco)
        if match:
            jaxrs_path = _first_string(match.group(1))
            continue
        if deco.startswith("["):
            match = _CS_VERB.search(deco)
            if match:
                cs_verb = (match.group(1).upper(), _first_string(match.group(2) or ""))
            match = _CS_ROUTE.search(deco)
            if match:
                cs_route = _first_string(match.group(1))
    if jaxrs_verb:
        return _fmt([jaxrs_verb], prefix, jaxrs_path or "")
    if cs_verb:
        verb, path = cs_verb
        return _fmt([verb], prefix, path if path is not None else cs_route)
    return None


__all__ = ["join_path", "route_for", "route_prefix"]
