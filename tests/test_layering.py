"""Layering: the agent tools depend on what they use (a Workspace: root, store, index folder, config,
search, vectors), never on ``codesift.api`` — not even for type hints."""

from __future__ import annotations

import ast
from pathlib import Path

from codesift import Index
from codesift.tools.base import Workspace

TOOLS = Path(__file__).resolve().parents[1] / "src" / "codesift" / "tools"


def _imports_api(path: Path) -> list[str]:
    """The lines of ``path`` that import codesift.api, however spelt (absolute, relative, nested)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            absolute = module if node.level == 0 else "codesift." + module if node.level == 2 else ""
            names = {a.name for a in node.names}
            if absolute == "codesift.api" or absolute.startswith("codesift.api.") or (
                    node.level == 2 and not module and "api" in names) or (
                    absolute == "codesift" and "api" in names):
                found.append(f"{path.name}:{node.lineno}")
        elif isinstance(node, ast.Import):
            if any(a.name == "codesift.api" or a.name.startswith("codesift.api.") for a in node.names):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_tool_module_imports_api() -> None:
    modules = sorted(TOOLS.glob("*.py"))
    assert len(modules) > 10
    assert [hit for path in modules for hit in _imports_api(path)] == []


def test_the_check_sees_an_api_import(tmp_path: Path) -> None:
    for line in ("from ..api import Index", "from codesift.api import Index", "import codesift.api",
                 "from .. import api", "from codesift import api",
                 "if TYPE_CHECKING:\n    from ..api import Index"):
        bad = tmp_path / "bad.py"
        bad.write_text(f"from typing import TYPE_CHECKING\n{line}\n", encoding="utf-8")
        assert _imports_api(bad), line


def test_index_hands_the_tools_one_workspace(repo: Path) -> None:
    with Index(repo) as idx:
        idx.update(embed=False)
        ws = idx.workspace
        assert isinstance(ws, Workspace) and idx.workspace is ws
        assert (ws.root, ws.store, ws.folder, ws.config) == (idx.root, idx.store, idx.folder, idx.config)
        assert [r.chunk_id for r in ws.search("rebuild_auth", mode="keyword").results] == [
            r.chunk_id for r in idx.search("rebuild_auth", mode="keyword").results]


def test_the_workspace_does_not_keep_its_index_alive(repo: Path) -> None:
    import weakref

    idx = Index(repo)
    ws = idx.workspace
    ref = weakref.ref(idx)
    idx.close()
    del idx
    assert ref() is None  # freed by reference counting: no Index → Workspace → Index cycle
    assert ws.root == repo.resolve()
