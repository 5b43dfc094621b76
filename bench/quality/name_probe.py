"""Name lookup on any repository, no ground truth needed: sampled definitions searched by their own name.

    python bench/quality/name_probe.py ROOT|CORPUS [...] [--n 150] [--seed 0] [--misses 8] [--set KEY=VALUE ...]
                                       [--record]

For each ROOT (indexed first if needed; a public bench corpus name such as ``requests`` opens its bench
index, as bench/quality/quality.py does), ``--n`` definitions outside tests are drawn at random; each is
searched (hybrid) by its bare name, by its kind and name (``class Session``, ``function main``), by its
definition line as pasted (``def list_domains(self) -> list[str]``: a hit covers that line), and a method
also as ``Parent.name``. A hit is a first result with that name (and kind), or ending with that
qualified name. A member is also searched in its language's own syntax ("native"): ``Class::method`` (C, C++,
PHP), ``Class#method`` and ``Module::Class`` (Ruby). A definition is also searched as ``pkg.Name``
(``pkg.Type.Method``) after the package or namespace its file declares, spelled as that language does: Go's
``cobra.Command`` (whose folder may be named anything: often the repository's root), C#'s
``Polly.Retry.RetryHelper.Method``, Java's and Kotlin's ``package`` prefix, PHP's ``Monolog\\Handler\\X::method``,
C++'s ``spdlog::details::os::now`` (the namespaces open at its line). The public bench
has only a few identifier queries
per corpus, all compound names; this checks every kind of name — one word (``Session``, ``get``),
Ruby's ``empty?``, overloads, names only an example defines — on code nobody tuned for.
Prints Hit@1 per repository and the first misses; ``--set`` overrides a setting as in bench/quality/quality.py
(``--set rank.named_first=false``); ``--record`` keeps each Hit@1 in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.query.shape import KIND_WORDS  # noqa: E402

KINDS = ("function", "method", "class", "struct", "interface", "enum", "trait", "type")


def sample(index: Index, n: int, seed: int) -> list[tuple[str, str, str, str, str, int, str]]:
    """(name, qualified name, kind, path, signature, start line, language) of ``n`` random definitions outside
    tests."""
    from codesift.languages import is_test_path

    rows = [(c.name, c.qualified_name, c.kind, c.path, c.signature.split("\n", 1)[0][:200], c.start_line, c.language)
            for c in index.store.iter_chunks()
            if c.kind in KINDS and len(c.name) > 2 and not is_test_path(c.path) and " " not in c.name]
    random.Random(seed).shuffle(rows)
    return rows[:n]


def go_package(path: Path) -> str:
    """The package a Go file declares, read from the file itself (not from codesift's index)."""
    import re

    m = re.search(r"^package\s+(\w+)", path.read_text(encoding="utf-8", errors="replace"), re.M)
    return m.group(1) if m else ""


_NAMESPACE = {"c_sharp": r"^\s*namespace\s+([\w.]+)", "java": r"^\s*package\s+([\w.]+)\s*;",
              "kotlin": r"^\s*package\s+([\w.]+)", "php": r"^\s*namespace\s+([\w\\\\]+)\s*[;{]"}
_SEPARATOR = {"c_sharp": ".", "java": ".", "kotlin": ".", "php": "\\", "cpp": "::", "c": "::"}


def namespace(path: Path, language: str, line: int) -> list[str]:
    """The namespace a file declares, as parts (C#, Java, Kotlin, PHP), or the C++ namespaces open at ``line``
    (braces counted, comments and strings ignored roughly); read from the file, not from codesift's index."""
    import re

    text = path.read_text(encoding="utf-8", errors="replace")
    if language in _NAMESPACE:
        m = re.search(_NAMESPACE[language], text, re.M)
        return re.split(r"[.\\\\]", m.group(1)) if m else []
    if language not in ("cpp", "c"):
        return []
    stack: list[tuple[int, list[str]]] = []
    depth = 0
    for raw in text.split("\n")[: line - 1]:
        code = re.sub(r"//.*|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", "", raw)
        opened = re.match(r"\s*(?:inline\s+)?namespace\s+([\w:]+)\s*\{", code)
        for ch in code:
            if ch == "{":
                depth += 1
                if opened is not None:
                    stack.append((depth, opened.group(1).split("::")))
                    opened = None
            elif ch == "}":
                while stack and stack[-1][0] >= depth:
                    stack.pop()
                depth -= 1
    return [part for _, parts in stack for part in parts]


def native_form(language: str, kind: str, qual: str) -> str | None:
    """A member or nested type as its language writes it: ``Class::method`` (C, C++, PHP), ``Class#method`` and
    ``Module::Class`` (Ruby); None where the language writes ``Parent.name`` (the column before)."""
    parts = qual.split(".")
    if len(parts) < 2:
        return None
    if language in ("cpp", "c", "php") and kind == "method":
        return "::".join(parts[-2:])
    if language == "ruby":
        return "#".join(parts[-2:]) if kind == "method" else "::".join(parts)
    return None


def open_index(target: str, overrides: dict[str, object]) -> Index:
    """The index of a folder, or of a public bench corpus by name."""
    if Path(target).is_dir():
        index = Index(Path(target), config_overrides=overrides or None)
        index.update()
        return index
    return common.open_index(target, overrides)


def probe(target: str, n: int, seed: int, overrides: dict[str, object]) -> tuple[dict[str, list[int]], list[str]]:
    labels = ("bare", "kind name", "definition line", "Parent.name", "native", "pkg.name")
    hits: dict[str, list[int]] = {label: [0, 0] for label in labels}
    misses: list[str] = []
    with open_index(target, overrides) as index:
        drawn = sample(index, n, seed)
        packages = {p: pkg for p in {d[3] for d in drawn} if p.endswith(".go") and (pkg := go_package(index.root / p))}
        for name, qual, kind, path, signature, line, language in drawn:
            word = "function" if kind == "method" else kind
            asks = [("bare", name, lambda r, name=name: r.name == name),
                    ("kind name", f"{word} {name}", lambda r, name=name, word=word: r.name == name
                     and r.kind in KIND_WORDS[word])]
            if signature:
                asks.append(("definition line", signature, lambda r, path=path, line=line:
                             r.path == path and r.start_line <= line <= r.end_line))
            if kind == "method" and "." in qual:
                q = ".".join(qual.split(".")[-2:])
                asks.append(("Parent.name", q, lambda r, q=q: r.qualified_name.endswith(q)))
            native = native_form(language, kind, qual)
            if native is not None:
                tail = ".".join(qual.split(".")[-2:]) if language != "ruby" or kind == "method" else qual
                asks.append(("native", native, lambda r, tail=tail: r.qualified_name.endswith(tail)))
            if path in packages:
                asks.append(("pkg.name", f"{packages[path]}.{qual}", lambda r, path=path, qual=qual:
                             r.qualified_name == qual and r.path == path))
            elif language in _SEPARATOR and (space := namespace(index.root / path, language, line)):
                sep = _SEPARATOR[language]
                member = "::".join(qual.split(".")) if sep == "::" else qual
                if language == "php" and kind == "method":
                    member = "::".join(qual.rsplit(".", 1))
                asks.append(("pkg.name", sep.join(space) + sep + member, lambda r, path=path, qual=qual:
                             r.qualified_name == qual and r.path == path))
            for label, query, ok in asks:
                top = index.search(query, limit=1).results
                good = bool(top) and ok(top[0])
                hits[label][0] += good
                hits[label][1] += 1
                if not good:
                    misses.append(f"{query!r} ({kind}, {path}) -> {top[0].qualified_name if top else 'nothing'}")
    return hits, misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", metavar="ROOT|CORPUS")
    ap.add_argument("--n", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--misses", type=int, default=8)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    common.add_record_flag(ap)
    args = ap.parse_args()
    overrides = common.parse_overrides(args.set)
    print("| repository | bare name Hit@1 | `kind name` Hit@1 | definition line Hit@1 | Parent.name Hit@1 "
          "| native `A::b`/`A#b` Hit@1 | package/namespace.name Hit@1 |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    kept: dict[str, float] = {}
    for root in args.roots:
        hits, misses = probe(root, args.n, args.seed, overrides)
        cells = [f"{h}/{t} ({h / t:.3f})" if t else "-" for h, t in hits.values()]
        name = Path(root).name
        print(f"| {name} | {' | '.join(cells)} |")
        kept |= {f"{name} {ask} Hit@1": h / t for ask, (h, t) in hits.items() if t}
        notes += [f"{name}: {m}" for m in misses[: args.misses]]
    if notes:
        print("\nfirst misses:")
        print("\n".join(f"- {m}" for m in notes))
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
