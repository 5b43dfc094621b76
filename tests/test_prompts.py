"""The MCP prompts service_overview and system_design (server/prompts.py, tools/prompts.py,
tools/markdown/prompts.py): listed and fetched through the SDK's in-process client, filled in from the
index (entry points, routes, main modules), bounded."""

from __future__ import annotations

import re

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from codesift import Index
from codesift.tools.markdown.prompts import PROMPT_MAX_CHARS, Section, fit
from conftest import FILES, write_repo

APP = {
    "api/app.py": '''
        import click
        from flask import Flask

        app = Flask(__name__)


        @app.route("/users/<user_id>", methods=["GET"])
        def get_user(user_id):
            """One user as JSON."""
            return lookup_user(user_id)


        def lookup_user(user_id):
            return {"id": user_id}


        @click.group()
        def cli():
            """The api's command line."""


        @cli.command()
        def serve():
            app.run()


        def main():
            cli()


        if __name__ == "__main__":
            main()
        ''',
    "cmd/worker/main.go": '''
        package main

        func main() {
            run()
        }

        func run() {}
        ''',
}


def prompt_text(result) -> str:
    assert len(result.messages) == 1 and result.messages[0].role == "user"
    return result.messages[0].content.text


@pytest.fixture
def server(tmp_path, monkeypatch):
    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    service = IndexService(Index(write_repo(tmp_path / "repo", {**FILES, **APP})), embed=False)
    srv = build_server(service)
    service.start()
    assert service.wait_ready(60)
    yield srv
    service.close()


def ask(server, *calls: tuple[str, dict | None]) -> list:
    """Each (prompt, arguments) fetched through one client session; an error comes back as the exception."""
    async def scenario():
        out = []
        async with Client(server) as client:
            out.append((await client.list_prompts()).prompts)
            for name, args in calls:
                try:
                    out.append(await client.get_prompt(name, args))
                except MCPError as exc:
                    out.append(exc)
        return out
    return anyio.run(scenario)


def test_prompts_are_listed_with_their_arguments(server):
    [listed] = ask(server)
    prompts = {p.name: p for p in listed}
    assert set(prompts) == {"service_overview", "system_design"}
    [path] = prompts["service_overview"].arguments
    assert path.name == "path" and not path.required and "list_sources" in path.description
    assert not prompts["system_design"].arguments
    assert all(len(p.description) > 60 for p in listed)


def test_service_overview_names_the_real_entry_points_routes_and_modules(server):
    _, whole, scoped, unknown = ask(server, ("service_overview", None), ("service_overview", {"path": "api"}),
                                    ("service_overview", {"path": "nowhere"}))
    text = prompt_text(whole)
    assert len(text) <= PROMPT_MAX_CHARS
    assert "python" in text and "javascript" in text and "go" in text
    for entry in ("`api/app.py:27` main (program entry)", "`api/app.py:31` if __name__",
                  "`api/app.py:23` serve (command @cli.command())", "`cmd/worker/main.go:3` main (program entry)",
                  "`web/server.js` (file name)"):
        assert entry in text, entry
    assert "`GET /users/<user_id>` → get_user (`api/app.py:8`)" in text
    assert "`src/http/sessions.py`: SessionRedirectMixin" in text  # a main module, with its definitions
    assert "tests/test_sessions.py" not in text.split("## Next")[0].split("## Main modules")[0]
    assert "get_code_context" in text and "find_usages" in text  # what to call next

    text = prompt_text(scoped)
    assert "folder `api/`" in text and "get_user" in text and "src/http" not in text
    assert 'get_repo_map(service="api")' in text
    assert isinstance(unknown, MCPError) and "no indexed file under 'nowhere'" in unknown.message


def test_system_design_walks_each_top_level_folder(server):
    _, design = ask(server, ("system_design", None))
    text = prompt_text(design)
    assert len(text) <= PROMPT_MAX_CHARS
    for heading in ("### `src/`", "### `api/`", "### `web/`", "### `cmd/`", "### `docs/`"):
        assert heading in text, heading
    api = text.split("### `api/`")[1].split("###")[0]
    assert "`GET /users/<user_id>` → get_user" in api and "`api/app.py` main" in api and "python 1" in api
    assert "find_usages" in text and "callers" in text and "search_code" in text


def test_prompts_stay_bounded_on_a_large_tree(tmp_path, monkeypatch):
    from codesift.tools.markdown.prompts import render_service_overview, render_system_design
    from codesift.tools.prompts import service_overview, system_design

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {}
    for s in range(20):
        handlers = "".join(f'@app.route("/svc{s}/items/{i}/with/a/rather/long/path")\ndef handler_{s}_{i}():\n'
                           f'    return helper_{s}()\n\n\n' for i in range(15))
        files[f"svc{s}/app.py"] = f"def helper_{s}():\n    return 1\n\n\n{handlers}def main():\n    pass\n"
        files[f"svc{s}/cli.py"] = "def main():\n    pass\n"
    with Index(write_repo(tmp_path / "big", files)) as idx:
        idx.update(embed=False)
        overview = render_service_overview(service_overview(idx.workspace))
        design = render_system_design(system_design(idx.workspace))
    assert len(overview) <= PROMPT_MAX_CHARS and len(design) <= PROMPT_MAX_CHARS
    assert "## HTTP routes (200+)" in overview and "more (search_code" in overview  # cut, and says so
    assert "## Next" in overview and "## Task" in design  # the instructions always survive the cut
    walked = re.findall(r"^### `svc\d+/` — 2 files, 18 symbols$", design, flags=re.M)
    assert len(walked) == 12 and "### More folders" in design  # 12 folders walked, the rest named
    assert design.count("- key modules: `svc") == 12  # each keeps its key modules; routes are cut first


def test_fit_cuts_the_longest_list_first():
    long = Section("## A", [f"- item {i}" for i in range(100)], "tool_a")
    short = Section("## B", ["- one", "- two"], "tool_b")
    text = fit("head", [long, short], "tail", 300)
    assert len(text) <= 300 and "- one" in text and "- two" in text and "more (tool_a)" in text
    assert text.startswith("head") and text.endswith("tail")


def test_entry_points_are_code_files_not_ci_configs_or_templates(tmp_path, monkeypatch):
    from codesift.tools.prompts import entry_points

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {
        "mylib/__init__.py": "def helper():\n    return 1\n",
        "mylib/cli.py": "def main():\n    return 0\n",
        ".github/workflows/main.yml": "name: ci\non: push\njobs:\n  main:\n    runs-on: ubuntu-latest\n",
        ".github/scripts/main.py": "def main():\n    pass\n",
        ".gitlab-ci.yml": "main:\n  script: make\n",
        ".circleci/config.yml": "version: 2\n",
        "Jenkinsfile": "pipeline { agent any }\n",
        "mylib/templates/app.html": "<html><body>{{ main }}</body></html>\n",
        "docs/server.md": "# Server\n\nHow to run the server.\n",
        "config/app.yaml": "main: true\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    with Index(tmp_path) as idx:
        idx.update(embed=False)
        found = {e["path"] for e in entry_points(idx.workspace)}
    assert found == {"mylib/__init__.py", "mylib/cli.py"}, found
