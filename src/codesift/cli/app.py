"""The ``codesift`` command: a thin shell over :class:`codesift.Index`, each command group in its own module.

Heavy modules (tantivy, onnxruntime, tree-sitter) are imported inside the commands so that ``--help``
and argument errors stay instant.
"""

from __future__ import annotations

import click

from codesift.cli import doctor, graph, history, index, init, nav, search, serve
from codesift.cli.common import CONFIG_OVERRIDES, EXIT_DAMAGED, EXIT_FAILED, EXIT_NO_INDEX, EXIT_USAGE, damaged_line


class _Group(click.Group):
    """Index/model mismatches and bad settings can surface in any command: one line, exit 2; codesift's other errors
    one line, exit 1."""

    def invoke(self, ctx: click.Context) -> object:
        from codesift.api import IndexMismatchError, NoIndexError
        from codesift.config.settings import ConfigError
        from codesift.qdrant.collection import QdrantMissing, QdrantUnavailable
        from codesift.errors import CodesiftError
        from codesift.store.damage import IndexDamaged, is_damage
        from codesift.store.sqlite import StoreError

        try:
            return super().invoke(ctx)
        except (IndexMismatchError, ConfigError, QdrantMissing, QdrantUnavailable) as exc:
            click.echo(f"codesift: {exc}", err=True)
            ctx.exit(EXIT_USAGE)
        except NoIndexError as exc:  # a read-only command found nothing to read (and created nothing)
            click.echo(f"codesift: {exc}", err=True)
            ctx.exit(EXIT_NO_INDEX)
        except (StoreError, IndexDamaged) as exc:  # a damaged page of the index's database, read after it was opened
            if not is_damage(exc):
                raise
            click.echo(f"codesift: {exc if isinstance(exc, CodesiftError) else damaged_line(exc)}", err=True)
            ctx.exit(EXIT_DAMAGED)
        except CodesiftError as exc:  # any other error raised on purpose (the indexed folder gone mid-`watch`)
            click.echo(f"codesift: {exc}", err=True)
            ctx.exit(EXIT_FAILED)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="codesift")
@click.option("--backend", type=click.Choice(["embedded", "qdrant"], case_sensitive=False),
              help="Where the search indexes live (default: CODESIFT_BACKEND, else codesift.toml's backend, else "
              "embedded).")
@click.option("--qdrant-url", help="Qdrant for --backend qdrant: http(s)://host:port, or a folder or :memory: for "
              "qdrant-client's local mode (default: CODESIFT_QDRANT_URL, else codesift.toml's qdrant_url).")
@click.option("--qdrant-service", help="The service to read or write in the collection (default: "
              "CODESIFT_QDRANT_SERVICE, else codesift.toml's qdrant_service, else the root folder's name); "
              "'*' reads every service (a reader: no local index).")
@click.pass_context
def main(ctx: click.Context, backend: str | None, qdrant_url: str | None, qdrant_service: str | None) -> None:
    """Local hybrid (BM25 + dense) code search over symbols, for people and AI agents."""
    # The options win over the environment and codesift.toml: they ride in click's context object to every
    # configuration the command loads (codesift.cli.common.config_overrides).
    options = {"backend": backend.lower() if backend else None, "qdrant_url": qdrant_url,
               "qdrant_service": qdrant_service}
    ctx.ensure_object(dict)[CONFIG_OVERRIDES] = {
        name: value.strip() for name, value in options.items() if value and value.strip()}


COMMANDS: tuple[click.Command, ...] = (
    search.search, search.usages, search.symbol,
    index.index, index.status, doctor.doctor, serve.serve, serve.watch, init.init,
    *graph.COMMANDS, *history.COMMANDS, *nav.COMMANDS,
)
for command in COMMANDS:
    main.add_command(command)
