"""Settings, with defaults, an optional ``codesift.toml`` at the indexed root, and env overrides."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

CONFIG_FILE = "codesift.toml"
INDEX_DIR_NAME = ".codesift"


class ConfigError(ValueError):
    """A setting has a bad value; the message names it."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything tunable. Field names are the keys of ``codesift.toml`` (table ``[codesift]`` or top level)."""

    index_dir: str | None = None  # default: <root>/.codesift
    max_file_size: int = 1_048_576
    ignore: tuple[str, ...] = ()  # extra gitignore-style patterns
    embedder: str | None = None  # "local" (default) or "none"; env CODESIFT_EMBEDDER wins
    rrf_k: float = 60.0
    overfetch: float = 3.0  # each retriever returns overfetch × limit candidates
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    embed_batch: int = 256  # chunks embedded and committed per batch (the resumable unit)
    auto_embed_limit: int = 512  # `search` embeds at most this many pending chunks before answering
    extra: dict[str, object] = field(default_factory=dict)

    def with_overrides(self, **changes: object) -> "Config":
        """A copy with the given non-None fields replaced."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


_NUMERIC = {"max_file_size": int, "rrf_k": float, "overfetch": float, "keyword_weight": float,
            "vector_weight": float, "embed_batch": int, "auto_embed_limit": int}


def load_config(root: Path) -> Config:
    """Read ``<root>/codesift.toml`` if present; raise :class:`ConfigError` on unknown keys or bad values."""
    values: dict[str, object] = {}
    path = root / CONFIG_FILE
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}") from exc
        table = data.get("codesift", data)
        known = {f.name for f in fields(Config)} - {"extra"}
        for key, value in table.items():
            if key not in known:
                raise ConfigError(f"{path}: unknown setting {key!r} (known: {', '.join(sorted(known))})")
            values[key] = tuple(value) if key == "ignore" else value
    for key, cast in _NUMERIC.items():
        if key in values:
            try:
                values[key] = cast(values[key])
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"setting {key!r} must be a number, got {values[key]!r}") from exc
    cfg = Config(**values)  # type: ignore[arg-type]
    env = os.environ.get("CODESIFT_EMBEDDER")
    if env:
        cfg = replace(cfg, embedder=env)
    validate(cfg)
    return cfg


def validate(cfg: Config) -> None:
    """Raise :class:`ConfigError` for values no search could use."""
    if cfg.rrf_k < 0:
        raise ConfigError("rrf_k must be >= 0")
    if cfg.overfetch < 1:
        raise ConfigError("overfetch must be >= 1")
    if cfg.max_file_size <= 0:
        raise ConfigError("max_file_size must be > 0")
    if cfg.embed_batch <= 0:
        raise ConfigError("embed_batch must be > 0")
