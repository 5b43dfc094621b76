"""The environment's settings: read in one place (codesift.config.env) from a mapping, carried by the Config,
and the precedence command-line option > environment variable > codesift.toml > default."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from codesift.config.env import ENV_SETTINGS, Environment, default_cache_dir, read_env
from codesift.config.settings import Config, ConfigError, load_config

SRC = Path(__file__).resolve().parents[1] / "src" / "codesift"
ALL = {
    "CODESIFT_EMBEDDER": "ollama", "CODESIFT_EMBED_URL": "http://gpu:9000", "CODESIFT_EMBED_MODEL": "nomic",
    "CODESIFT_EMBED_API_KEY": "ek", "CODESIFT_MODEL_PATH": "/m/model.onnx",
    "CODESIFT_QUERY_MODEL_PATH": "/m/tower.onnx", "CODESIFT_CHAT_MODEL": "qwen", "CODESIFT_CHAT_PROVIDER": "openai",
    "CODESIFT_CHAT_URL": "http://chat:1/v1", "CODESIFT_CHAT_API_KEY": "ck", "CODESIFT_BACKEND": " Qdrant ",
    "CODESIFT_QDRANT_URL": " http://q:6333 ", "CODESIFT_QDRANT_API_KEY": "qk", "CODESIFT_QDRANT_COLLECTION": "coll",
    "CODESIFT_QDRANT_SERVICE": "svc", "CODESIFT_CACHE_DIR": "/tmp/cs-cache", "CODESIFT_WORKERS": "1",
    "CODESIFT_TOKEN": " secret ",
}


# -- a mapping in, a record out -------------------------------------------------------------------------
def test_nothing_set_gives_the_defaults() -> None:
    env = read_env({})
    assert env == Environment()
    assert env.embedder is None and env.backend is None and env.token is None and not env.parse_in_process
    assert env.cache_dir == default_cache_dir() == Path.home() / ".cache" / "codesift"
    assert env.file_overrides() == {}


def test_every_variable_lands_in_its_field() -> None:
    env = read_env(ALL)
    assert env == Environment(
        embedder="ollama", embed_url="http://gpu:9000", embed_model="nomic", embed_api_key="ek",
        model_path=Path("/m/model.onnx"), query_model_path=Path("/m/tower.onnx"), chat_model="qwen",
        chat_provider="openai", chat_url="http://chat:1/v1", chat_api_key="ck", backend="qdrant",
        qdrant_url="http://q:6333", qdrant_api_key="qk", qdrant_collection="coll", qdrant_service="svc",
        cache_dir=Path("/tmp/cs-cache"), parse_in_process=True, token="secret")
    assert env.file_overrides() == {"backend": "qdrant", "qdrant_url": "http://q:6333", "qdrant_api_key": "qk",
                                    "qdrant_collection": "coll", "qdrant_service": "svc", "embedder": "ollama"}


def test_the_docstring_lists_every_variable_read() -> None:
    import codesift.config.env as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    body = source[source.index('"""', 3) + 3:]  # the code after the module docstring
    read = {node.value for node in ast.walk(ast.parse(body)) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and node.value.startswith("CODESIFT_")}
    listed = {line.split(":")[0][2:] for line in (module.__doc__ or "").splitlines() if line.startswith("- CODESIFT_")}
    assert read == listed == set(ALL)
    assert set(ENV_SETTINGS) <= listed


def test_blank_and_empty_values_are_unset_and_keys_fall_back() -> None:
    env = read_env({"CODESIFT_BACKEND": "  ", "CODESIFT_TOKEN": " ", "CODESIFT_EMBEDDER": "", "CODESIFT_WORKERS": "2",
                    "CODESIFT_QDRANT_URL": "", "OPENAI_API_KEY": "ok"})
    assert (env.backend, env.token, env.embedder, env.qdrant_url) == (None, None, None, None)
    assert not env.parse_in_process  # only "1" means one process
    assert env.embed_api_key == env.chat_api_key == "ok"  # OPENAI_API_KEY, the last fallback
    env = read_env({"CODESIFT_EMBED_API_KEY": "ek", "OPENAI_API_KEY": "ok"})
    assert env.embed_api_key == env.chat_api_key == "ek"


def test_the_embedder_is_taken_as_written() -> None:
    # Not stripped or lowercased (the provider lowercases it), as it always was.
    assert read_env({"CODESIFT_EMBEDDER": "None"}).embedder == "None"


# -- precedence: option > variable > codesift.toml > default ---------------------------------------------------
def _toml(root: Path) -> Path:
    (root / "codesift.toml").write_text('backend = "qdrant"\nqdrant_url = "file-url"\nqdrant_service = "file"\n'
                                        'qdrant_collection = "file-coll"\nembedder = "local"\n')
    return root


def test_the_file_wins_over_the_defaults(tmp_path: Path) -> None:
    cfg = load_config(_toml(tmp_path), env=read_env({}))
    assert (cfg.backend, cfg.qdrant_url, cfg.qdrant_service, cfg.qdrant_collection, cfg.embedder) == (
        "qdrant", "file-url", "file", "file-coll", "local")
    assert load_config(tmp_path / "nothing-here", env=read_env({})).backend == "embedded"


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    env = read_env({"CODESIFT_QDRANT_URL": "env-url", "CODESIFT_QDRANT_SERVICE": "env", "CODESIFT_EMBEDDER": "none"})
    cfg = load_config(_toml(tmp_path), env=env)
    assert (cfg.backend, cfg.qdrant_url, cfg.qdrant_service, cfg.qdrant_collection, cfg.embedder) == (
        "qdrant", "env-url", "env", "file-coll", "none")
    assert cfg.env is env


def test_overrides_win_over_the_environment_and_the_file(tmp_path: Path) -> None:
    env = read_env({"CODESIFT_QDRANT_URL": "env-url", "CODESIFT_QDRANT_SERVICE": "env"})
    cfg = load_config(_toml(tmp_path), env=env, overrides={"qdrant_url": "cli-url", "backend": "embedded"})
    assert (cfg.backend, cfg.qdrant_url, cfg.qdrant_service) == ("embedded", "cli-url", "env")


def test_bad_values_from_each_source_give_the_same_messages(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="^backend must be one of embedded, qdrant, got 'elastic'$"):
        load_config(tmp_path, env=read_env({"CODESIFT_BACKEND": "Elastic"}))
    with pytest.raises(ConfigError, match="^backend qdrant needs a URL: set qdrant_url in codesift.toml or "
                                          "CODESIFT_QDRANT_URL"):
        load_config(tmp_path, env=read_env({}), overrides={"backend": "qdrant"})


def test_loading_with_a_mapping_does_not_read_the_process_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_BACKEND", "elastic")  # would be refused if it were read
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "process"))
    cfg = load_config(tmp_path, env=read_env({"CODESIFT_CACHE_DIR": str(tmp_path / "given")}))
    assert cfg.backend == "embedded" and cfg.env.cache_dir == tmp_path / "given"
    with pytest.raises(ConfigError, match="elastic"):
        load_config(tmp_path)  # without one: this process's environment, read now


def test_a_config_made_in_code_takes_the_process_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "made"))
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    cfg = Config()
    assert cfg.env.cache_dir == tmp_path / "made" and cfg.env.backend == "qdrant"
    assert cfg.backend == "embedded"  # a Config given in code is used as it is, as before
    assert "env=" not in repr(cfg)  # keys stay out of logs


def test_env_is_not_a_codesift_toml_key(tmp_path: Path) -> None:
    (tmp_path / "codesift.toml").write_text("env = 1\n")
    with pytest.raises(ConfigError, match="unknown setting 'env'") as info:
        load_config(tmp_path, env=read_env({}))
    assert "env," not in str(info.value) and "embedder" in str(info.value)


# -- the CLI's global options: click's context, never os.environ ------------------------------------------------
def test_cli_options_reach_the_configuration_without_touching_the_environment(tmp_path: Path, monkeypatch) -> None:
    from codesift.cli.app import main

    for var in (*ENV_SETTINGS, "CODESIFT_EMBEDDER"):
        monkeypatch.delenv(var, raising=False)
    runner = CliRunner()
    result = runner.invoke(main, ["--backend", "QDRANT", "status", str(tmp_path)])
    assert result.exit_code == 2 and "backend qdrant needs a URL" in result.output  # the option reached load_config
    assert "CODESIFT_BACKEND" not in os.environ
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")  # no URL: refused, unless the option wins
    assert runner.invoke(main, ["status", str(tmp_path)]).exit_code == 2
    result = runner.invoke(main, ["--backend", "embedded", "status", str(tmp_path)])
    assert result.exit_code == 1 and "no index" in result.output, result.output  # exit 1: no index, config fine
    assert os.environ["CODESIFT_BACKEND"] == "qdrant"


def test_config_overrides_outside_a_command_are_none() -> None:
    from codesift.cli.common import config_overrides

    assert config_overrides() == {}


# -- the rule: CODESIFT_* variables are read in codesift.config only ------------------------------------------
def _module_strings(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "string"`` constants (so that ``os.environ.get(TOKEN_ENV)`` is seen through)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


def env_reads(source: str) -> list[int]:
    """Lines of ``source`` that look up a ``CODESIFT_*`` key: ``os.environ[...]``, ``.get``/``.pop``/
    ``.setdefault``/``getenv(...)`` on any mapping, or ``... in os.environ`` — with the key literal or a
    module constant."""
    tree = ast.parse(source)
    names = _module_strings(tree)

    def codesift_key(node: ast.AST | None) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value.startswith("CODESIFT_")
        if isinstance(node, ast.Name):
            return names.get(node.id, "").startswith("CODESIFT_")
        if isinstance(node, ast.JoinedStr):  # f"CODESIFT_{name}"
            first = node.values[0] if node.values else None
            return isinstance(first, ast.Constant) and str(first.value).startswith("CODESIFT_")
        return False

    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and codesift_key(node.slice):
            hits.append(node.lineno)
        elif isinstance(node, ast.Call) and node.args and codesift_key(node.args[0]):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in {"get", "pop", "setdefault", "getenv", "putenv", "unsetenv", "getenvb"}:
                hits.append(node.lineno)
        elif isinstance(node, ast.Compare) and codesift_key(node.left) and any(
                isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            hits.append(node.lineno)
    return hits


def test_only_the_config_package_reads_codesift_variables() -> None:
    modules = [p for p in sorted(SRC.rglob("*.py")) if "config" not in p.relative_to(SRC).parts[:1]]
    assert len(modules) > 100
    found = [f"{p.relative_to(SRC)}:{line}" for p in modules for line in env_reads(p.read_text(encoding="utf-8"))]
    assert found == [], "read CODESIFT_* settings in codesift.config.env and pass them on (Config.env)"
    assert env_reads((SRC / "config" / "env.py").read_text(encoding="utf-8"))  # the check sees the real reads


@pytest.mark.parametrize("line", [
    'os.environ.get("CODESIFT_TOKEN")', 'os.getenv("CODESIFT_X", "")', 'environ["CODESIFT_X"]',
    'os.environ["CODESIFT_X"] = "1"', '"CODESIFT_X" in os.environ', 'os.environ.pop("CODESIFT_X", None)',
    'env.get(f"CODESIFT_{name}")', 'VAR = "CODESIFT_TOKEN"\nos.environ.get(VAR, "")',
])
def test_the_check_sees_a_read(line: str) -> None:
    assert env_reads(f"import os\n{line}\n"), line


@pytest.mark.parametrize("line", [
    'raise ValueError("set CODESIFT_TOKEN")', 'os.environ.get("HOME")', '{k: v for k, v in os.environ.items()}',
    'TOKEN_ENV = "CODESIFT_TOKEN"\nprint(f"Set {TOKEN_ENV}")',
])
def test_the_check_leaves_messages_and_other_variables(line: str) -> None:
    assert env_reads(f"import os\n{line}\n") == [], line
