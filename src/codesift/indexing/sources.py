"""Where each configured service's files are read (its folder or a git commit), and what ``index --all``
recorded about it in the index."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codesift.config.services import ServiceConfigError, ServiceSpec

if TYPE_CHECKING:  # pragma: no cover
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore

MODE_KEY = "services_index"  # meta: "1" once the index holds the configured services (``index --all``)
META_PREFIX = "service:"  # meta per service: JSON {kind, source, commit, settings}


def services_active(store: "MetaStore", specs: tuple[ServiceSpec, ...]) -> bool:
    """Whether the index holds the configured services (built by ``index --all``)."""
    return bool(specs) and store.get_meta(MODE_KEY, "0") == "1"


def recorded(store: "MetaStore", name: str) -> dict[str, object]:
    """What the last ``index --all`` recorded about service ``name`` ({} when nothing)."""
    raw = store.get_meta(META_PREFIX + name)
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {}


@dataclass(frozen=True, slots=True)
class Location:
    """Where an indexed path's bytes are: a live file (``file``) or a blob (``repo`` at ``commit``)."""

    file: str | None = None
    repo: str | None = None
    commit: str | None = None
    inner: str = ""
    service: str | None = None


class Sources:
    """Maps an indexed path to its source: under the root, in a path service's folder, or a git blob."""

    def __init__(self, root: Path, specs: tuple[ServiceSpec, ...], store: "MetaStore") -> None:
        self.root, self.store = root, store
        self.specs = {s.name: s for s in specs}

    def active(self) -> bool:
        return services_active(self.store, tuple(self.specs.values()))

    def locate(self, rel: str) -> Location:
        """The source of the indexed path ``rel`` (relative to the root, ``/``-separated)."""
        name, _, inner = rel.partition("/")
        spec = self.specs.get(name) if inner and self.active() else None
        if spec is None:
            return Location(file=str(self.root / rel))
        if spec.folder is not None:
            return Location(file=str(spec.folder / inner), inner=inner, service=name)
        commit = str(recorded(self.store, name).get("commit") or "")
        if not commit:
            raise OSError(f"service {name!r} has no indexed commit: run `codesift index --all`")
        return Location(repo=str(spec.repo), commit=commit, inner=inner, service=name)

    def read(self, rel: str) -> bytes:
        """The bytes of ``rel`` as the index sees them now; raises OSError."""
        from codesift.indexing.gitblobs import read_blob

        loc = self.locate(rel)
        if loc.file is not None:
            with open(loc.file, "rb") as fh:
                return fh.read()
        assert loc.repo is not None and loc.commit is not None
        return read_blob(loc.repo, loc.commit, loc.inner)


def services_to_update(config: "Config", store: "MetaStore", requested: bool) -> tuple[ServiceSpec, ...] | None:
    """The services an update indexes: all configured ones with ``index --all`` or once an index was so
    built (a search's refresh must not drop them); None: the root's tree, as without services."""
    if requested and not config.services:
        raise ServiceConfigError("index --all needs [[services]] tables in codesift.toml (name, path or git + ref)")
    if requested or services_active(store, config.services):
        return config.services
    if store.get_meta(MODE_KEY, "0") == "1":  # the list was emptied: back to indexing the tree
        store.set_meta(MODE_KEY, "0")
    return None


def service_sources(root: Path, specs: tuple[ServiceSpec, ...], store: "MetaStore") -> list[dict[str, object]]:
    """``list_sources`` for configured services: name, files, symbols, languages, kind, source and the
    indexed commit (a git service's, or the checkout's when a folder lies in a git work tree)."""
    counts = {row[0]: row for row in store.service_counts()}
    languages = store.service_languages()
    out: list[dict[str, object]] = []
    for spec in specs:
        rec = recorded(store, spec.name)
        _, files, symbols = counts.get(spec.name, (spec.name, 0, 0))
        out.append({"root": str(root), "service": spec.name, "name": spec.name, "kind": spec.kind,
                    "source": str(spec.repo or spec.folder), "ref": spec.ref if spec.repo else None,
                    "files": files, "symbols": symbols, "languages": languages.get(spec.name, {}),
                    "commit": rec.get("commit")})
    return out
