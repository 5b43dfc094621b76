"""Build ``src/codesift/query/translations.tsv``: query word → the code terms that documented code pairs it with.

    python train/translations.py --data ../shared/train --out src/codesift/query/translations.tsv

Reads the training pairs (``pairs-*.jsonl.gz``: a definition's first doc sentence and its code; the held-out
``valid-*`` files are not read). A pair's *words* are :func:`codesift.query.translate.query_words` of its sentence
(a leading restated symbol name dropped, as Go and Java docs start with it); its *terms* are the index terms of
the identifier parts in its code (first 6,000 characters), once each. For a word w and a term t over all pairs:
``p(t|w)`` = share of w's pairs whose code holds t; ``lift`` = pairs holding both / the pairs expected to, were
t as common in w's pairs as in all pairs *of the same language* (so that Go's ``func`` or Rust's ``pub``, in
every pair of their language, is no translation of the words Go or Rust docs happen to use). A term is kept for
a word when both occur in at least ``MIN_DF`` pairs, together in at least ``MIN_PAIRS``, lift ≥ ``MIN_LIFT``,
neither is a prefix of the other (``config``/``configur`` is word form, not translation), the together-pairs
come from at least ``MIN_SOURCES`` projects (one project's jargon is not the language's), and t is among the
word's ``PER_WORD`` best by ``p(t|w) · log(lift)``: often there, and not merely because it is everywhere.
Sources whose name is one of the evaluation corpora (``../shared/bench/corpora.toml``) or of the dev set's
(``bench/quality/devset/corpora.toml``) are left out, so that no benchmark measures its own code (seven dev-set
libraries are among the training sources: cobra, mux, logrus, clap, commander, packaging, immer).

Needs numpy (co-occurrence counts of ~50M word-term pairs); ~2 minutes on 2 cores. Deterministic.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from codesift.text.tokens import STOP_WORDS, WORD, split_identifier, stem, tokenize
from codesift.query.translate import query_words

MIN_DF = 20
MIN_PAIRS = 10
MIN_LIFT = 4.0
MIN_SOURCES = 5
PER_WORD = 3
CODE_CHARS = 6000
ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT.parent / "shared" / "bench" / "corpora.toml", ROOT / "bench" / "quality" / "devset" / "corpora.toml")


def excluded_names(paths=CORPORA) -> set[str]:
    """Names of the benchmark corpora (evaluation and dev set): a source called so is left out."""
    names: set[str] = set()
    for path in paths:
        if path.exists():
            names.update(c["name"].lower() for c in tomllib.loads(path.read_text())["corpus"])
    return names


def source_name(src: str) -> str:
    """``spf13/cobra@adbc881`` → ``cobra``; ``@nestjs/core@12.5.1`` → ``core``."""
    return src.rsplit("@", 1)[0].rsplit("/", 1)[-1].lower()


def code_terms(code: str) -> set[str]:
    """Index terms of the identifier parts of ``code``: 2–20 letters, no stop words, no numbers."""
    out: set[str] = set()
    for match in WORD.finditer(code[:CODE_CHARS]):
        for part in split_identifier(match.group()):
            if 2 <= len(part) <= 20 and part not in STOP_WORDS and not part.isdigit():
                out.add(stem(part))
    return out


def pair_words(sentence: str, name: str) -> list[str]:
    """Query words of a doc sentence, without a leading restatement of the symbol's name."""
    head, _, rest = sentence.partition(" ")
    if head.strip("`*") == name.rsplit(".", 1)[-1] or head.strip("`*") == name:
        sentence = rest
    return query_words(sentence)


def read_pairs(data: Path, skip: set[str]):
    """(words, terms, source, language) of every training pair not from a skipped source."""
    for path in sorted(data.glob("pairs-*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                if source_name(d["src"]) not in skip:
                    yield pair_words(d["q"], d["name"]), code_terms(d["code"]), d["src"].rsplit("@", 1)[0], d["lang"]


def expected_together(pairs, wid: dict[str, int], tid: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per language: pairs holding each word, and the share of pairs holding each term."""
    langs = sorted({lang for *_, lang in pairs})
    wl = np.zeros((len(wid), len(langs)))
    tl = np.zeros((len(tid), len(langs)))
    size = Counter(lang for *_, lang in pairs)
    for ws, ts, _, lang in pairs:
        j = langs.index(lang)
        for w in ws:
            if w in wid:
                wl[wid[w], j] += 1
        for t in ts:
            if t in tid:
                tl[tid[t], j] += 1
    return wl, tl / np.array([size[lang] for lang in langs])


def build(pairs) -> dict[str, list[tuple[str, float, int, float, int]]]:
    """Word → [(term, score, pairs together, lift, sources)], best first (see the module docstring)."""
    wdf = Counter(w for ws, *_ in pairs for w in ws)
    tdf = Counter(t for _, ts, *_ in pairs for t in ts)
    words = sorted(w for w, c in wdf.items() if c >= MIN_DF)
    terms = sorted(t for t, c in tdf.items() if c >= MIN_DF)
    wid, tid = {w: i for i, w in enumerate(words)}, {t: i for i, t in enumerate(terms)}
    wl, tl = expected_together(pairs, wid, tid)
    keys = []
    for ws, ts, *_ in pairs:
        wi = np.array([wid[w] for w in ws if w in wid], np.int64)
        ti = np.array([tid[t] for t in ts if t in tid], np.int64)
        if len(wi) and len(ti):
            keys.append((wi[:, None] * len(tid) + ti[None, :]).ravel())
    key, together = np.unique(np.concatenate(keys), return_counts=True)
    expect = (wl[key // len(tid)] * tl[key % len(tid)]).sum(axis=1)
    cand: dict[str, list[tuple[float, str, int, float]]] = defaultdict(list)
    for k, c, e in zip(key.tolist(), together.tolist(), expect.tolist()):
        if c < MIN_PAIRS:
            continue
        w, t = words[k // len(tid)], terms[k % len(tid)]
        if t.startswith(w) or w.startswith(t) or tokenize(t, keep_stop_words=True) != [t]:
            continue  # word forms, and terms a query cannot spell (the keyword side re-tokenizes them)
        p = c / wdf[w]
        lift = c / e
        if lift >= MIN_LIFT:
            cand[w].append((p * math.log(lift), t, c, lift))
    best = {w: sorted(v, key=lambda x: (-x[0], x[1]))[:2 * PER_WORD] for w, v in cand.items()}
    sources: dict[tuple[str, str], set[str]] = defaultdict(set)
    for ws, ts, src, _ in pairs:
        for w in ws:
            for _, t, _, _ in best.get(w, ()):
                if t in ts:
                    sources[(w, t)].add(src)
    out = {}
    for w, v in sorted(best.items()):
        kept = [(t, s, c, lift, len(sources[(w, t)])) for s, t, c, lift in v if len(sources[(w, t)]) >= MIN_SOURCES]
        if kept:
            out[w] = kept[:PER_WORD]
    return out


def write(table, out: Path, n_pairs: int, skipped: set[str]) -> None:
    """The TSV codesift reads: a ``#`` header, then ``word<TAB>term term term``."""
    lines = [
        "# codesift translations: query word -> code terms (best first). Built by train/translations.py",
        f"# from {n_pairs} pairs of ../shared/train; min_df={MIN_DF} min_pairs={MIN_PAIRS} min_lift={MIN_LIFT} "
        f"min_sources={MIN_SOURCES} per_word={PER_WORD}; sources named like a benchmark corpus left out "
        f"({len(skipped)} names)",
    ]
    lines += [f"{w}\t{' '.join(t for t, *_ in v)}" for w, v in table.items()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "train")
    ap.add_argument("--out", type=Path, default=ROOT / "src" / "codesift" / "query" / "translations.tsv")
    ap.add_argument("--explain", type=Path, help="also write word → [term, score, pairs, lift, sources] as JSON")
    args = ap.parse_args(argv)
    skip = excluded_names()
    pairs = list(read_pairs(args.data, skip))
    table = build(pairs)
    write(table, args.out, len(pairs), skip)
    if args.explain:
        args.explain.write_text(json.dumps(table, indent=0))
    print(f"{len(pairs)} pairs, {len(table)} words, {sum(map(len, table.values()))} terms -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
