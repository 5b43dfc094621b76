"""Python definition extraction."""

from codesift.parse import extract_chunks

SOURCE = '''\
"""Session helpers."""
import os

DEFAULT_TIMEOUT = 30


class Session(Base, metaclass=Meta):
    """A persistent HTTP session."""

    retries = 3

    def __init__(self, url):
        self.url = url

    @retry(times=3)
    @log_calls
    async def get(self, url, **kwargs) -> "Response":
        r"""Send a GET request.

        Returns the response.
        """
        def _build(path):
            return path
        return await self.request("GET", url, **kwargs)
        # trailing comment is not code

    class Adapter:
        def send(self, request):
            pass


@app.route("/users/<int:user_id>", methods=["GET", "POST"])
def user_detail(user_id):
    return str(user_id)


@router.delete("/items/{item_id}")
def remove_item(item_id: int):
    ...


if __name__ == "__main__":
    main()
'''


def _defs():
    chunks = extract_chunks(SOURCE, "python", "pkg/session.py")
    return {c.qualified_name: c for c in chunks if c.kind != "module"}, chunks


def test_names_kinds_and_lines():
    defs, _ = _defs()
    assert list(defs) == [
        "Session",
        "Session.__init__",
        "Session.get",
        "Session.get._build",
        "Session.Adapter",
        "Session.Adapter.send",
        "user_detail",
        "remove_item",
    ]
    session = defs["Session"]
    assert (session.kind, session.start_line, session.end_line, session.parent) == ("class", 7, 29, None)
    get = defs["Session.get"]
    # start on the `async def` line, decorators kept in text; the trailing comment is not code
    assert (get.kind, get.name, get.start_line, get.end_line) == ("method", "get", 17, 24)
    assert get.parent == "Session"
    assert get.text.lstrip().startswith("@retry(times=3)")
    assert get.decorators == ["@retry(times=3)", "@log_calls"]
    assert defs["Session.get._build"].kind == "function"
    assert defs["Session.get._build"].parent == "Session.get"
    assert (defs["Session.Adapter"].kind, defs["Session.Adapter"].start_line) == ("class", 27)
    assert defs["Session.Adapter.send"].parent == "Session.Adapter"
    assert defs["Session.Adapter.send"].kind == "method"
    assert all(c.language == "python" for c in defs.values())


def test_signature_and_docstring():
    defs, _ = _defs()
    assert defs["Session.get"].signature == 'async def get(self, url, **kwargs) -> "Response"'
    assert defs["Session.get"].docstring == "Send a GET request.\n\nReturns the response."
    assert defs["Session"].signature == "class Session(Base, metaclass=Meta)"
    assert defs["Session"].docstring == "A persistent HTTP session."
    assert defs["Session.__init__"].signature == "def __init__(self, url)"
    assert defs["Session.__init__"].docstring == ""


def test_routes():
    defs, _ = _defs()
    assert defs["user_detail"].route == "GET,POST /users/<int:user_id>"
    assert defs["user_detail"].start_line == 33
    assert defs["remove_item"].start_line == 38
    assert defs["remove_item"].route == "DELETE /items/{item_id}"
    assert defs["Session.get"].route is None


def test_module_blocks_cover_the_rest():
    _, chunks = _defs()
    modules = [(c.start_line, c.end_line, c.qualified_name) for c in chunks if c.kind == "module"]
    assert modules == [(1, 2, "session:1"), (4, 4, "session:4"), (42, 43, "session:42")]
    assert chunks == sorted(chunks, key=lambda c: c.start_line)


def _ast_defs(source: str) -> list[tuple[str, int, int]]:
    import ast

    out = []
    stack = [(ast.parse(source), None)]
    while stack:
        node, parent = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualified = f"{parent}.{child.name}" if parent else child.name
                out.append((qualified, child.lineno, child.end_lineno))
                stack.append((child, qualified))
            else:
                stack.append((child, parent))
    return sorted(out)


def test_agrees_with_ast_on_stdlib_modules():
    import http.client
    import json.decoder
    from pathlib import Path

    for module in (json.decoder, http.client):
        source = Path(module.__file__).read_text(encoding="utf-8")
        got = sorted(
            (c.qualified_name, c.start_line, c.end_line)
            for c in extract_chunks(source, "python", module.__file__)
            if c.kind in ("function", "method", "class")
        )
        assert got == _ast_defs(source)
