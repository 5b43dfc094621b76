"""train/translations.py (not part of the package): how the shipped translation table is learned."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_TRAIN = Path(__file__).resolve().parents[1] / "train"
_spec = importlib.util.spec_from_file_location("train_translations", _TRAIN / "translations.py")
tr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tr)


def _pairs():
    """Synthetic pairs: "glob" sentences come with ``fnmatch`` code in ten projects; "handler" sentences are
    mostly Go's, and every Go pair holds ``func`` (the language's syntax, not a translation: only a lift
    measured against all pairs, not per language, would keep it); "token" goes with ``lexer`` in one project."""
    out = []
    for i in range(800):
        glob = i % 20 == 0
        out.append((["file", "glob"] if glob else ["file", "name"], {"path", "fnmatch"} if glob else {"path"},
                    f"proj{i // 20 % 10}", "python"))
    for i in range(150):
        handler = i < 60
        out.append((["handler", "file"] if handler else ["file", "name"], {"func", "path"}, f"proj{i % 10}", "go"))
    out += [(["handler", "name"], {"path"}, f"proj{i}", "python") for i in range(10)]
    out += [(["token", "split"], {"lexer"}, "onlyproj", "python") for _ in range(20)]
    return out


def test_learns_the_terms_a_word_pairs_with_beyond_chance() -> None:
    table = tr.build(_pairs())
    assert [t for t, *_ in table["glob"]] == ["fnmatch"]
    term, score, together, lift, sources = table["glob"][0]
    assert together == 40 and sources == 10 and lift > tr.MIN_LIFT and score > 0
    assert "handler" not in table  # its ``func`` is Go's syntax: per language, no lift at all
    assert "token" not in table  # one project's jargon


def test_source_names_and_exclusions(tmp_path: Path) -> None:
    assert tr.source_name("spf13/cobra@adbc881") == "cobra"
    assert tr.source_name("@nestjs/core@12.5.1") == "core"
    assert tr.source_name("packaging@26.3") == "packaging"
    toml = tmp_path / "corpora.toml"
    toml.write_text('[[corpus]]\nname = "Cobra"\n\n[[corpus]]\nname = "mux"\n')
    assert tr.excluded_names((toml, tmp_path / "missing.toml")) == {"cobra", "mux"}


def test_pair_words_drop_a_restated_name() -> None:
    assert tr.pair_words("ParseGlob compiles the glob pattern", "ParseGlob") == ["compile", "glob", "pattern"]
    assert tr.pair_words("compile the glob pattern", "Matcher.compile") == ["glob", "pattern"]
    assert tr.pair_words("Compile the glob pattern", "compileGlob") == ["compile", "glob", "pattern"]
    # identifier parts of two letters or more, no numbers
    assert tr.code_terms("def parseGlob(x_1, ab): return x_1") == {"def", "parse", "glob", "ab", "return"}
