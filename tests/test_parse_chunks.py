"""File-level chunking: module blocks, Markdown sections, windows, fallbacks, routes, limits."""

import time

import pytest

from codesift.languages import GRAMMAR_LANGUAGES, language_for
from codesift.parse import extract_chunks, grammars
from codesift.parse.routes import route_for, route_prefix

# --- languages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/app.py", "python"),
        ("types.pyi", "python"),
        ("web/App.JSX", "javascript"),
        ("lib/index.mjs", "javascript"),
        ("src/api.ts", "typescript"),
        ("src/Button.tsx", "tsx"),
        ("main.go", "go"),
        ("A.java", "java"),
        ("lib.rs", "rust"),
        ("x.c", "c"),
        ("x.h", "c"),
        ("x.hpp", "cpp"),
        ("x.cc", "cpp"),
        ("P.cs", "c_sharp"),
        ("app.rb", "ruby"),
        ("Rakefile", "ruby"),
        ("index.php", "php"),
        ("build.gradle.kts", "kotlin"),
        ("README.md", "markdown"),
        ("config.yaml", "yaml"),
        ("pyproject.toml", "toml"),
        ("package.json", "json"),
        ("schema.sql", "sql"),
        ("run.sh", "shell"),
        ("index.html", "html"),
        ("style.css", "css"),
        ("notes.txt", "text"),
        ("Makefile", "makefile"),
        ("Dockerfile", "dockerfile"),
        ("LICENSE", "text"),
        ("C:\\repo\\main.go", "go"),
    ],
)
def test_language_for(path, language):
    assert language_for(path) == language


@pytest.mark.parametrize("path", ["image.png", "archive.tar.gz", "data.bin", "noext", "", "dir/"])
def test_language_for_unknown(path):
    assert language_for(path) is None


def test_grammar_languages_load():
    assert GRAMMAR_LANGUAGES == set(grammars.SUPPORTED)
    for name in GRAMMAR_LANGUAGES:
        assert grammars.get_parser(name) is not None, name
    assert grammars.get_language("cobol") is None
    assert grammars.get_parser("cobol") is None


# --- module-level code -------------------------------------------------------------------

URLS = """\
from django.urls import path

from . import views

urlpatterns = [
    path("users/", views.users),
    path("users/<int:pk>/", views.user_detail),
]


def index(request):
    return views.home(request)


if __name__ == "__main__":
    main()
"""


def test_module_blocks_between_definitions():
    chunks = extract_chunks(URLS, "python", "shop/urls.py")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [
        ("module", 1, 1),
        ("module", 3, 3),
        ("module", 5, 8),
        ("function", 11, 12),
        ("module", 15, 16),
    ]
    module = chunks[2]
    assert (module.name, module.qualified_name) == ("urls", "urls:5")
    assert module.text.startswith("urlpatterns = [")
    assert module.language == "python"


def test_module_blocks_are_capped_at_60_lines():
    source = "\n".join(f"X{i} = {i}" for i in range(130)) + "\n"
    chunks = extract_chunks(source, "python", "consts.py")
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 60), (61, 120), (121, 130)]


def test_script_without_definitions_is_module_code():
    chunks = extract_chunks("import sys\nprint(sys.argv)\n", "python", "run.py")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [("module", 1, 2)]


# --- markdown ----------------------------------------------------------------------------

README = """\
Intro text before any heading.

# Project

Some words.

## Install

```bash
# not a heading
pip install project
```

## Usage
Run it.

Advanced
--------
Details.
"""


def test_markdown_sections():
    chunks = extract_chunks(README, "markdown", "docs/README.md")
    got = [(c.kind, c.name, c.qualified_name, c.parent, c.start_line, c.end_line) for c in chunks]
    assert got == [
        ("section", "README", "README", None, 1, 1),
        ("section", "Project", "Project", None, 3, 5),
        ("section", "Install", "Project > Install", "Project", 7, 12),
        ("section", "Usage", "Project > Usage", "Project", 14, 15),
        ("section", "Advanced", "Project > Advanced", "Project", 17, 19),
    ]
    assert "pip install project" in chunks[2].text


RST = """\
Intro text.

==========
 Upgrading
==========

Upgrading to 3.0
----------------

Schemas are strict
++++++++++++++++++
Text.

    Indented
    --------

Short
--
Upgrading to 2.0
----------------
----------

Done.
"""


def test_rst_sections():
    chunks = extract_chunks(RST, "rst", "docs/upgrading.rst")
    got = [(c.kind, c.name, c.qualified_name, c.parent, c.start_line, c.language) for c in chunks]
    assert got == [
        ("section", "upgrading", "upgrading", None, 1, "rst"),
        ("section", "Upgrading", "Upgrading", None, 3, "rst"),
        ("section", "Upgrading to 3.0", "Upgrading > Upgrading to 3.0", "Upgrading", 7, "rst"),
        ("section", "Schemas are strict", "Upgrading > Upgrading to 3.0 > Schemas are strict",
         "Upgrading > Upgrading to 3.0", 10, "rst"),  # an indented or too-short underline is no heading
        ("section", "Upgrading to 2.0", "Upgrading > Upgrading to 2.0", "Upgrading", 19, "rst"),
    ]
    assert "Indented" in chunks[3].text and "Done." in chunks[4].text  # a transition is no heading either


def test_long_markdown_section_is_split():
    source = "# Big\n" + "\n".join(f"line {i}" for i in range(150)) + "\n"
    chunks = extract_chunks(source, "markdown", "big.md")
    assert [(c.name, c.start_line, c.end_line) for c in chunks] == [
        ("Big", 1, 60),
        ("Big", 61, 120),
        ("Big", 121, 151),
    ]


# --- windows and fallbacks ---------------------------------------------------------------


def test_windows_for_files_without_grammar():
    source = "".join(f"key{i}: {i}\n" for i in range(130))
    chunks = extract_chunks(source, "yaml", "conf/app.yaml")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [
        ("window", 1, 60),
        ("window", 51, 110),
        ("window", 101, 130),
    ]
    assert chunks[0].name == "app.yaml"
    assert chunks[1].qualified_name == "app.yaml:51"
    assert chunks[0].text.split("\n")[0] == "key0: 0"


@pytest.mark.parametrize("source", ["", "   \n\n\t\n"])
def test_empty_file(source):
    assert extract_chunks(source, "python", "empty.py") == []
    assert extract_chunks(source, "markdown", "empty.md") == []


def test_syntax_errors_without_definitions_fall_back_to_windows():
    source = "))) ((( ]]] {{{ !!! @@@\n" * 70
    chunks = extract_chunks(source, "python", "broken.py")
    assert [c.kind for c in chunks] == ["window", "window"]


def test_partial_syntax_errors_keep_definitions():
    source = "def ok():\n    return 1\n\nx = = = 2\n"
    chunks = extract_chunks(source, "python", "mixed.py")
    assert ("function", "ok", 1, 2) in [(c.kind, c.name, c.start_line, c.end_line) for c in chunks]


def test_parser_crash_falls_back_to_windows(monkeypatch):
    def boom(name):
        raise RuntimeError("grammar exploded")

    monkeypatch.setattr(grammars, "get_parser", boom)
    chunks = extract_chunks("def f():\n    pass\n", "python", "f.py")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [("window", 1, 2)]


def test_unknown_grammar_language_uses_windows():
    chunks = extract_chunks("a\nb\n", "cobol", "x.cbl")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [("window", 1, 2)]


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("python",
         "def f():\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(2000)) + "    " * 2001 + "pass\n"),
        ("python", "x = " + "[" * 2000 + "]" * 2000 + "\n"),
        ("javascript", "function f() {\n" * 2000 + "}\n" * 2000),
        ("javascript", "const a = " + "(" * 3000 + "1" + ")" * 3000 + ";\n"),
        ("c", "int main() {" + "{" * 3000 + "}" * 3000 + "}\n"),
    ],
)
def test_deeply_nested_code_does_not_crash(language, source):
    started = time.perf_counter()
    chunks = extract_chunks(source, language, "deep")
    assert chunks
    assert all(1 <= c.start_line <= c.end_line for c in chunks)
    assert time.perf_counter() - started < 5


def test_deeply_nested_functions_get_nested_qualified_names():
    source = "function f() {\n" * 300 + "}\n" * 300
    chunks = extract_chunks(source, "javascript", "deep.js")
    assert len(chunks) == 300
    assert chunks[2].qualified_name == "f.f.f"
    assert (chunks[2].start_line, chunks[2].end_line) == (3, 598)


def test_long_lines_are_capped_but_lines_stay_true():
    body = "x" * 30_000  # over the 20k text cap, but not a minified-looking file
    filler = "".join(f"def g{i}():\n    return {i}\n\n" for i in range(100))
    source = f"def f():\n    return '{body}'\n\n\nY = '{body}'\n" + filler
    chunks = extract_chunks(source, "python", "big.py")
    assert [(c.kind, c.start_line, c.end_line) for c in chunks[:3]] == [
        ("function", 1, 2),
        ("module", 5, 5),
        ("function", 6, 7),
    ]
    assert len(chunks) == 102
    assert all(len(c.text) <= 20_000 for c in chunks)


def test_minified_bundle_uses_windows():
    source = "function a(){return 1}" * 5000 + "\n"
    chunks = extract_chunks(source, "javascript", "dist/app.min.js")
    assert [c.kind for c in chunks] == ["window"]
    assert len(chunks[0].text) <= 20_000


def test_crlf_and_non_ascii():
    source = "# é\r\ndef café(x):\r\n    return '→'\r\n"
    chunks = extract_chunks(source, "python", "u.py")
    func = next(c for c in chunks if c.kind == "function")
    assert (func.name, func.start_line, func.end_line) == ("café", 2, 3)
    assert func.signature == "def café(x)"


# --- routes ------------------------------------------------------------------------------


def test_flask_and_fastapi_routes():
    source = '''\
@app.route("/login", methods=["POST"])
def login():
    pass

@bp.get("/users/<int:user_id>")
def get_user(user_id):
    pass

@app.route("/")
def home():
    pass

@router.put("/items/{item_id}", response_model=Item)
async def update_item(item_id: int):
    pass

@pytest.mark.parametrize("x", [1])
def test_x(x):
    pass
'''
    routes = {c.name: c.route for c in extract_chunks(source, "python", "views.py")}
    assert routes == {
        "login": "POST /login",
        "get_user": "GET /users/<int:user_id>",
        "home": "GET /",
        "update_item": "PUT /items/{item_id}",
        "test_x": None,
    }


def test_express_routes_in_typescript():
    source = """\
import { Router } from 'express';
const router = Router();
router.get('/orders/:id', async (req, res) => {
  res.json({});
});
router.use('/admin', adminRouter);
axios.get('/api/orders', (resp) => resp);
"""
    chunks = extract_chunks(source, "typescript", "routes.ts")
    routes = [(c.name, c.route, c.start_line, c.end_line) for c in chunks if c.kind != "module"]
    # HTTP client calls (axios) are not routes
    assert routes == [("GET /orders/:id", "GET /orders/:id", 3, 5)]


@pytest.mark.parametrize(
    ("decorators", "prefix", "route"),
    [
        (['@GetMapping("/users")'], None, "GET /users"),
        (["@GetMapping"], "/api", "GET /api"),
        (['@PostMapping(value = "/u", consumes = "application/json")'], "/api/", "POST /api/u"),
        (['@RequestMapping(path = "/x", method = RequestMethod.DELETE)'], None, "DELETE /x"),
        (['@RequestMapping("/x")'], None, "ANY /x"),
        (["@GET", '@Path("/items")'], "/v1", "GET /v1/items"),
        (['[HttpGet("{id}")]'], "api/orders", "GET /api/orders/{id}"),
        (["[HttpDelete]", '[Route("purge")]'], None, "DELETE /purge"),
        (['#[post("/submit")]'], None, "POST /submit"),
        (['@app.websocket("/ws")'], None, "WS /ws"),
        (['@app.api_route("/m", methods=["GET", "HEAD"])'], None, "GET,HEAD /m"),
        (["@property"], None, None),
        (['@app.get("relative")'], None, None),
        (['@cache.get("key")'], None, None),
    ],
)
def test_route_for(decorators, prefix, route):
    assert route_for(decorators, prefix) == route


def test_route_prefix():
    assert route_prefix(["@RestController", '@RequestMapping("/api")']) == "/api"
    assert route_prefix(['[Route("api/[controller]")]']) == "api/[controller]"
    assert route_prefix(["@Controller('cats')"]) == "cats"
    assert route_prefix(["@Component"]) is None
