"""How big the MCP tools' answers are, as an agent receives them.

    python bench/latency/answer_sizes.py [--corpus DIR] [--json] [--record]

Copies the corpus (default: the flask checkout of the benchmark corpora) into a temporary folder,
indexes it keyword-only (sizes do not depend on embeddings), then calls the MCP tools in-process
through the SDK's own client with their default arguments and prints one row per call:
the Markdown text, the structured JSON, and the whole serialized ``CallToolResult`` (what goes over
the wire), in characters; ``≈tokens`` is the whole at ~3.5 characters per token. The calls are the
ones issue 14 names: a search, the context of one symbol, the context of a large file, the usages of a
common name, plus one find_symbol. ``--record`` keeps each call's total characters in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("CODESIFT_EMBEDDER", "none")  # sizes do not depend on embeddings; no model load
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import anyio  # noqa: E402

import common  # noqa: E402

DEFAULT_CORPUS = common.CORPORA_CACHE / "flask"
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("search", "search_code", {"query": "register a blueprint on the application"}),
    ("context of a symbol", "get_code_context", {"file_path": "src/flask/app.py",
                                                 "symbol_name": "Flask.make_response"}),
    ("context of a large file", "get_code_context", {"file_path": "src/flask/app.py"}),
    ("usages of a common name", "find_usages", {"symbol_name": "get"}),
    ("find_symbol", "find_symbol", {"name": "app"}),
]


def measure(root: Path) -> list[dict[str, Any]]:
    """Index ``root`` keyword-only and return one size record per call in CALLS."""
    from mcp import Client

    from codesift import Index
    from codesift.server.mcp import IndexService, build_server

    service = IndexService(Index(root), embed=False)
    server = build_server(service)
    service.start()

    async def scenario() -> list[dict[str, Any]]:
        rows = []
        async with Client(server) as client:
            for label, tool, args in CALLS:
                result = await client.call_tool(tool, args)
                text = "".join(b.text for b in result.content if b.type == "text")
                structured = json.dumps(result.structured_content or {}, ensure_ascii=False)
                wire = result.model_dump_json(by_alias=True, exclude_none=True)
                rows.append({"call": label, "tool": tool, "args": args, "error": bool(result.is_error),
                             "text": len(text), "structured": len(structured), "total": len(wire)})
        return rows

    try:
        return anyio.run(scenario)
    finally:
        service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--json", action="store_true", help="print the records as JSON")
    common.add_record_flag(parser)
    opts = parser.parse_args()
    if not opts.corpus.is_dir():
        sys.exit(f"no corpus at {opts.corpus}")
    with tempfile.TemporaryDirectory(prefix="codesift-sizes-") as tmp:
        root = Path(tmp) / opts.corpus.name
        shutil.copytree(opts.corpus, root, ignore=shutil.ignore_patterns(".codesift", ".git"))
        rows = measure(root)
    common.record(__file__, opts, {f"{r['call']} total chars": r["total"] for r in rows})
    if opts.json:
        print(json.dumps(rows, indent=1))
        return
    print("| call | tool | text chars | structured chars | total chars | ≈tokens |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        note = " (error)" if r["error"] else ""
        print(f"| {r['call']}{note} | `{r['tool']}` | {r['text']:,} | {r['structured']:,} | {r['total']:,} "
              f"| {round(r['total'] / 3.5):,} |")


if __name__ == "__main__":
    main()
