"""Settings, with defaults, an optional ``codesift.toml`` at the indexed root, and env overrides.

Precedence: overrides given to :func:`load_config` (the CLI's global options) > the environment
(:mod:`codesift.config.env`, the only reader of ``CODESIFT_*`` variables) > codesift.toml > the defaults."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codesift.config.env import Environment, read_env
from codesift.config.rank import RankSettings, RankValue
from codesift.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from codesift.config.services import ServiceSpec

CONFIG_FILE = "codesift.toml"
EXPANSIONS = ("off", "llm", "vocab")
BACKENDS = ("embedded", "qdrant")
INDEX_DIR_NAME = ".codesift"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything tunable. Field names are the keys of ``codesift.toml`` (table ``[codesift]`` or top level)."""

    index_dir: str | None = None  # default: <root>/.codesift
    # Bytes; a file over it is skipped (source in a language codesift parses may be 4 × this).
    max_file_size: int = 1_048_576
    ignore: tuple[str, ...] = ()  # extra gitignore-style patterns
    include: tuple[str, ...] = ()  # gitignore-style patterns of files to index although git/default rules skip them
    embedder: str | None = None  # "local" (default) or "none"; env CODESIFT_EMBEDDER wins
    rrf_k: float = 60.0  # k of Reciprocal Rank Fusion, Σ wᵢ/(k + rankᵢ)
    # Each retriever returns overfetch × max(limit, 50) candidates; why 2.0: docs/design-decisions.md#overfetch
    overfetch: float = 2.0
    keyword_weight: float = 1.0  # multiplies the keyword side's shape-adaptive RRF weight
    vector_weight: float = 1.0  # multiplies the vector side's shape-adaptive RRF weight
    embed_batch: int = 256  # chunks embedded and committed per batch (the resumable unit)
    # A chunk longer than the model's window also gets a vector per further window of its code (store/windows.py),
    # embedded after every chunk has its own (definitions outside tests and examples only); false embeds chunks
    # only (a quarter fewer texts on the bench corpora).
    embed_windows: bool = True
    auto_embed_limit: int = 64  # `search` embeds pending chunks first only when at most this many
    threshold: float = 0.0  # drop results whose normalised score is below this
    # "off", "llm" (rewrite through a chat model) or "vocab" (the index's own vocabulary).
    query_expansion: str = "off"
    expand_model: str | None = None  # chat model for "llm"; env CODESIFT_CHAT_MODEL wins
    # The chat server's kind, "ollama" or "openai"; default: the embedding provider if one of them, else ollama.
    expand_provider: str | None = None
    # The chat server's URL; env CODESIFT_CHAT_URL wins; default: CODESIFT_EMBED_URL, else the provider's local port.
    expand_url: str | None = None
    expand_timeout: float = 2.0  # seconds the chat model may take before the plain query is searched
    rank: RankSettings = field(default_factory=RankSettings)  # table [rank] in codesift.toml
    # Where the search indexes live: "embedded" (tantivy + the vector snapshot in the index folder) or
    # "qdrant" (one Qdrant collection; see codesift.qdrant.collection). Env CODESIFT_BACKEND wins.
    backend: str = "embedded"
    qdrant_url: str | None = None  # http(s)://host:port, or a folder / ":memory:" for qdrant-client's local mode
    qdrant_api_key: str | None = None  # env CODESIFT_QDRANT_API_KEY wins
    qdrant_collection: str = "codesift"  # the collection's name (the reference index is <name>_refs)
    # This tree's name in the collection (default: the root folder's name); a reader (no local index) reads that
    # service, or every one with "*"; env CODESIFT_QDRANT_SERVICE wins.
    qdrant_service: str | None = None
    # How a new collection is laid out (docs/scale.md, "Sizing a collection"); an existing one is used as it is.
    qdrant_shards: int = 0  # shard_number; 0: the server's default (one per node)
    qdrant_replicas: int = 0  # replication_factor; 0: the server's default (1)
    qdrant_on_disk: bool = False  # full-precision vectors and the sparse index on disk (memory-mapped)
    qdrant_quantization: str = "none"  # "int8": scalar-quantized copies of the dense vectors kept in RAM
    # [[services]] tables: services indexed by `codesift index --all` under <name>/ (codesift.config.services)
    services: tuple["ServiceSpec", ...] = ()
    # Not a codesift.toml key: the process's CODESIFT_* settings (codesift.config.env), read when the
    # configuration is loaded (load_config), or when a Config is made in code.
    env: Environment = field(default_factory=read_env, repr=False)

    def with_overrides(self, **changes: object) -> "Config":
        """A copy with the given non-None fields replaced."""
        kept: dict[str, Any] = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **kept)


_NUMERIC = {"max_file_size": int, "rrf_k": float, "overfetch": float, "keyword_weight": float,
            "vector_weight": float, "embed_batch": int, "auto_embed_limit": int, "threshold": float,
            "expand_timeout": float, "qdrant_shards": int, "qdrant_replicas": int}


def load_config(root: Path, *, env: Environment | None = None,
                overrides: Mapping[str, object] | None = None) -> Config:
    """Read ``<root>/codesift.toml`` if present; raise :class:`ConfigError` on unknown keys or bad values.

    ``env``: the environment's settings (default: this process's, :func:`codesift.config.env.read_env`), which
    win over the file; ``overrides``: Config fields that win over both (the CLI's ``--backend``, …)."""
    values: dict[str, object] = {}
    path = root / CONFIG_FILE
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}") from exc
        table = data.get("codesift", data)
        if table is not data and "services" in data:  # [[services]] beside a [codesift] table
            table = {**table, "services": data["services"]}
        known = {f.name for f in fields(Config)} - {"env"}
        for key, value in table.items():
            if key not in known:
                raise ConfigError(f"{path}: unknown setting {key!r} (known: {', '.join(sorted(known))})")
            if key == "services":
                from codesift.config.services import parse_services

                values[key] = parse_services(value, path, root)
            elif key == "rank":
                values[key] = rank_settings(value, path)
            elif key == "include":
                from codesift.config.include import pattern_errors

                errors = pattern_errors(value)
                if errors:
                    raise ConfigError(f"{path}: {'; '.join(errors)}")
                values[key] = tuple(value)
            elif key == "ignore":
                # A lone string is one pattern (tuple("fixtures/") would be one pattern per letter).
                patterns = [value] if isinstance(value, str) else value
                if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
                    raise ConfigError(f"{path}: ignore must be a list of gitignore-style patterns")
                values[key] = tuple(patterns)
            else:
                values[key] = value
    for key, cast in _NUMERIC.items():
        if key in values:
            try:
                values[key] = cast(values[key])
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"setting {key!r} must be a number, got {values[key]!r}") from exc
    cfg = with_env(Config(**values, env=read_env() if env is None else env))  # type: ignore[arg-type]
    if overrides:
        cfg = cfg.with_overrides(**overrides)
    validate(cfg)
    return cfg


def with_env(cfg: Config) -> Config:
    """``cfg`` with the settings its environment (``cfg.env``) sets over the file: ``CODESIFT_EMBEDDER`` and the
    backend's (``ENV_SETTINGS``)."""
    changes: dict[str, Any] = cfg.env.file_overrides()
    return replace(cfg, **changes) if changes else cfg


def rank_settings(table: object, source: object = "rank") -> RankSettings:
    """Build :class:`RankSettings` from a mapping, checking names and types."""
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [rank] must be a table")
    defaults = RankSettings()
    names = {f.name for f in fields(RankSettings)}
    out: dict[str, RankValue] = {}
    for key, value in table.items():
        if key not in names:
            known = ", ".join(f.name for f in fields(RankSettings))
            raise ConfigError(f"{source}: unknown rank setting {key!r} (known: {known})")
        default: RankValue = getattr(defaults, key)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"rank setting {key!r} must be true or false")
            out[key] = value
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"rank setting {key!r} must be a number, got {value!r}")
        if isinstance(default, int) and isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"rank setting {key!r} must be a whole number, got {value!r}")
        number = int(value) if isinstance(default, int) else float(value)
        _check_rank_range(key, number)
        out[key] = number
    return defaults.with_values(**out)


# Rank settings that multiply a score down (1 = no penalty) or are a share: between 0 and 1.
_UNIT_RANK_SETTINGS = frozenset({"namesake_factor", "test_penalty_factor", "import_penalty_factor",
                                 "declaration_factor", "module_factor", "stringifier_factor", "predicate_factor",
                                 "used_definition_factor", "min_vector_coverage", "preamble_debias"})


def _check_rank_range(key: str, value: float) -> None:
    """Every numeric rank setting is a finite weight, factor or count >= 0; penalties and shares are <= 1."""
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"rank setting {key!r} must be a finite number >= 0, got {value!r}")
    if key in _UNIT_RANK_SETTINGS and value > 1:
        raise ConfigError(f"rank setting {key!r} must be between 0 and 1, got {value!r}")


def validate(cfg: Config) -> None:
    """Raise :class:`ConfigError` for values no search could use."""
    for key in ("rrf_k", "overfetch", "keyword_weight", "vector_weight", "threshold", "expand_timeout"):
        if not math.isfinite(getattr(cfg, key)):
            raise ConfigError(f"{key} must be a finite number, got {getattr(cfg, key)!r}")
    if cfg.rrf_k < 0:
        raise ConfigError("rrf_k must be >= 0")
    if cfg.keyword_weight < 0 or cfg.vector_weight < 0:
        raise ConfigError("keyword_weight and vector_weight must be >= 0")
    if cfg.overfetch < 1:
        raise ConfigError("overfetch must be >= 1")
    if cfg.max_file_size <= 0:
        raise ConfigError("max_file_size must be > 0")
    if cfg.embed_batch <= 0:
        raise ConfigError("embed_batch must be > 0")
    if not 0 <= cfg.threshold <= 1:
        raise ConfigError("threshold must be between 0 and 1")
    if cfg.query_expansion not in EXPANSIONS:
        raise ConfigError(f"query_expansion must be one of {', '.join(EXPANSIONS)}, got {cfg.query_expansion!r}")
    if cfg.expand_provider is not None and cfg.expand_provider not in ("ollama", "openai"):
        raise ConfigError(f"expand_provider must be ollama or openai, got {cfg.expand_provider!r}")
    if cfg.expand_timeout <= 0:
        raise ConfigError("expand_timeout must be > 0")
    if cfg.backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {cfg.backend!r}")
    for key in ("qdrant_url", "qdrant_api_key", "qdrant_collection", "qdrant_service"):
        value = getattr(cfg, key)
        if value is not None and (not isinstance(value, str) or (key != "qdrant_api_key" and not value.strip())):
            raise ConfigError(f"{key} must be a non-empty string")
    if cfg.qdrant_shards < 0 or cfg.qdrant_replicas < 0:
        raise ConfigError("qdrant_shards and qdrant_replicas must be >= 0 (0: the server's default)")
    if not isinstance(cfg.embed_windows, bool):
        raise ConfigError("embed_windows must be true or false")
    if not isinstance(cfg.qdrant_on_disk, bool):
        raise ConfigError(f"qdrant_on_disk must be true or false, got {cfg.qdrant_on_disk!r}")
    if cfg.qdrant_quantization not in ("none", "int8"):
        raise ConfigError(f"qdrant_quantization must be none or int8, got {cfg.qdrant_quantization!r}")
    if cfg.backend == "qdrant" and not cfg.qdrant_url:
        raise ConfigError("backend qdrant needs a URL: set qdrant_url in codesift.toml or CODESIFT_QDRANT_URL "
                          "(http(s)://host:port for a server, a folder or :memory: for qdrant-client's local mode)")
    if cfg.include:
        from codesift.config.include import pattern_errors

        errors = pattern_errors(list(cfg.include))
        if errors:
            raise ConfigError("; ".join(errors))
