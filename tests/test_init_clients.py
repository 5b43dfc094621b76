"""`codesift init`: config locations, merging into existing files, --print, unknown clients."""

import json
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from codesift.cli.app import main
from codesift.init.clients import CLIENTS, InitError, config_path, install, merge_toml, server_entry


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_config_locations(tmp_path):
    root, home = tmp_path / "proj", tmp_path / "home"
    assert config_path("claude-code", root, home=home) == root / ".mcp.json"
    assert config_path("cursor", root, home=home) == root / ".cursor" / "mcp.json"
    assert config_path("vscode", root, home=home) == root / ".vscode" / "mcp.json"
    assert config_path("codex", root, home=home, env={}) == home / ".codex" / "config.toml"
    assert config_path("codex", root, home=home, env={"CODEX_HOME": "/c"}) == Path("/c/config.toml")
    desktop = {p: config_path("claude-desktop", root, home=home, platform=p, env={}) for p in ("darwin", "linux")}
    assert desktop["darwin"] == home / "Library/Application Support/Claude/claude_desktop_config.json"
    assert desktop["linux"] == home / ".config/Claude/claude_desktop_config.json"
    win = config_path("claude-desktop", root, home=home, platform="win32", env={"APPDATA": "/appdata"})
    assert win == Path("/appdata/Claude/claude_desktop_config.json")
    with pytest.raises(InitError, match="choose one of"):
        config_path("emacs", root)


def test_claude_code_project_config_is_written_and_merged(tmp_path, repo):
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}, "extra": 1}))
    result = run("init", "claude-code", "--path", str(repo))
    assert result.exit_code == 0, result.output
    assert "added" in result.output and ".mcp.json" in result.output
    assert "to commit it, write it with --portable" in result.output
    doc = json.loads((repo / ".mcp.json").read_text())
    assert doc["mcpServers"]["other"] == {"command": "x"} and doc["extra"] == 1
    entry = doc["mcpServers"]["codesift"]
    assert entry["type"] == "stdio" and entry["args"][-2:] == ["serve", str(repo.resolve())]
    assert Path(entry["command"]).is_absolute()  # GUI clients don't see a virtualenv's PATH
    again = run("init", "claude-code", "--path", str(repo))
    assert again.exit_code == 0 and "updated" in again.output
    assert json.loads((repo / ".mcp.json").read_text()) == doc


@pytest.mark.parametrize("client, key", [("vscode", "servers"), ("cursor", "mcpServers"),
                                         ("claude-desktop", "mcpServers")])
def test_json_clients_with_config_override(tmp_path, repo, client, key):
    cfg = tmp_path / "cfg" / "mcp.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps({key: {"keep": {"command": "k"}}}))
    result = run("init", client, "--path", str(repo), "--config", str(cfg))
    assert result.exit_code == 0, result.output
    servers = json.loads(cfg.read_text())[key]
    assert servers["keep"] == {"command": "k"} and "codesift" in servers
    assert servers["codesift"].get("type") == ("stdio" if client == "vscode" else None)


def test_codex_toml_replaces_only_our_table(tmp_path, repo):
    cfg = tmp_path / "config.toml"
    cfg.write_text('model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\nargs = ["a"]\n\n'
                   '[mcp_servers.codesift]\ncommand = "old"\n\n[mcp_servers.codesift.env]\nX = "1"\n\n'
                   '[profiles.fast]\nmodel = "mini"\n')
    result = run("init", "codex", "--path", str(repo), "--config", str(cfg))
    assert result.exit_code == 0, result.output
    doc = tomllib.loads(cfg.read_text())
    assert doc["model"] == "o3" and doc["profiles"] == {"fast": {"model": "mini"}}
    assert doc["mcp_servers"]["other"] == {"command": "other", "args": ["a"]}
    assert doc["mcp_servers"]["codesift"]["args"][-2:] == ["serve", str(repo.resolve())]
    assert "env" not in doc["mcp_servers"]["codesift"] and "updated" in result.output
    fresh = tmp_path / "new" / "config.toml"
    assert install("codex", repo, fresh).replaced is False
    assert tomllib.loads(fresh.read_text())["mcp_servers"]["codesift"] == server_entry("codex", repo)


def test_codex_inline_definition_is_not_guessed(tmp_path, repo):
    with pytest.raises(InitError, match="by hand"):
        merge_toml('mcp_servers = { codesift = { command = "x" } }\n', server_entry("codex", repo))


def test_print_does_not_write(tmp_path, repo):
    result = run("init", "vscode", "--print", "--path", str(repo))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["servers"]["codesift"]["args"][-1] == str(repo.resolve())
    assert not (repo / ".vscode").exists()
    toml = run("init", "codex", "--print", "--path", str(repo), "--config", str(tmp_path / "c.toml"))
    assert toml.output.startswith("[mcp_servers.codesift]\n") and not (tmp_path / "c.toml").exists()


def test_unknown_client_and_bad_files_exit_2(tmp_path, repo):
    result = run("init", "emacs", "--path", str(repo))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert all(name in result.output for name in CLIENTS)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run("init", "cursor", "--path", str(repo), "--config", str(bad))
    assert result.exit_code == 2 and "not valid JSON" in result.output and bad.read_text() == "{not json"
    assert run("init", "cursor", "--path", str(tmp_path / "missing")).exit_code == 2


def test_print_names_the_file_the_snippet_belongs_in(repo):
    result = run("init", "claude-code", "--print", "--path", str(repo))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["mcpServers"]["codesift"]["type"] == "stdio"  # stdout: the JSON alone
    assert str(repo.resolve() / ".mcp.json") in result.stderr and "--portable" in result.stderr
    assert not (repo / ".mcp.json").exists()


@pytest.mark.parametrize("client, key, path, root_arg", [
    ("claude-code", "mcpServers", ".mcp.json", "${CLAUDE_PROJECT_DIR:-.}"),
    ("cursor", "mcpServers", ".cursor/mcp.json", "${workspaceFolder}"),
    ("vscode", "servers", ".vscode/mcp.json", "${workspaceFolder}")])
def test_portable_config_names_no_machine_path(repo, client, key, path, root_arg):
    result = run("init", client, "--portable", "--path", str(repo))
    assert result.exit_code == 0, result.output
    text = (repo / path).read_text()
    assert str(repo.resolve()) not in text and sys.executable not in text  # nothing of this checkout
    entry = json.loads(text)[key]["codesift"]
    assert entry["command"] == "codesift" and entry["args"] == ["serve", root_arg]
    printed = run("init", client, "--portable", "--print", "--path", str(repo))
    assert json.loads(printed.stdout)[key]["codesift"] == entry and "--portable" not in printed.stderr


@pytest.mark.parametrize("client", ["claude-desktop", "codex"])
def test_portable_is_refused_for_a_config_in_the_home_folder(tmp_path, repo, client):
    result = run("init", client, "--portable", "--path", str(repo), "--config", str(tmp_path / "c"))
    assert result.exit_code == 2 and "--portable is for a config kept in the project" in result.output
    assert not (tmp_path / "c").exists()
