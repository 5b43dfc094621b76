"""Training pairs from ``../shared/train/``, shaped exactly as codesift embeds them at run time.

Document side: ``codesift.text.model_input.embed_text`` of a chunk built from the pair. Query side: the query
preamble codesift puts before a search (``"<lang> function: "``, see ``DenseSide.query_preamble``) and a query
derived from the doc comment's first sentence.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from codesift.text.model_input import embed_text, query_embed_text
from codesift.datatypes import Chunk
from codesift.text.tokens import STOP_WORDS, split_identifier

LANGS = ("python", "javascript", "typescript", "go", "rust", "java")
_KIND_RE = re.compile(
    r"^\s*(?:(?:pub(?:\([^)]*\))?|export|default|public|private|protected|static|abstract|final|async|"
    r"unsafe|sealed|declare)\s+)*(class|interface|struct|enum|trait|impl|type|mod|namespace)\b")
_GO_TYPE_RE = re.compile(r"^\s*type\s+\w+\s+(struct|interface)\b")
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_pairs(folder: Path, split: str, lang: str) -> list[dict]:
    """All pairs of one language of one split (``pairs`` or ``valid``)."""
    with gzip.open(folder / f"{split}-{lang}.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def guess_kind(code: str, name: str) -> str:
    """The chunk kind codesift's parser would give the definition (a heuristic on its first line)."""
    lines = [ln for ln in code.splitlines() if ln.strip() and not ln.lstrip().startswith(("@", "#[", "//"))]
    first = lines[0] if lines else ""
    go = _GO_TYPE_RE.match(first)
    if go:
        return go.group(1)
    m = _KIND_RE.match(first)
    if m:
        return {"mod": "namespace", "type": "type"}.get(m.group(1), m.group(1))
    if first.lstrip().startswith("func (") or "." in name or "::" in name:
        return "method"
    return "function"


def document(pair: dict) -> str:
    """The text codesift's dense model reads for this definition."""
    name = pair["name"]
    short = re.split(r"[.:#]+", name)[-1] or name
    n = pair["code"].count("\n") + 1
    chunk = Chunk(kind=guess_kind(pair["code"], name), name=short, qualified_name=name, start_line=1,
                  end_line=n, text=pair["code"], language=pair["lang"])
    return embed_text(chunk, pair["path"])


def code_words(code: str) -> set[str]:
    """The lower-case identifiers of a definition and their parts (``parseArgs`` → parseargs, parse, args)."""
    out: set[str] = set()
    for word in _WORD_RE.findall(code):
        out.add(word.lower())
        out.update(part.lower() for part in split_identifier(word))
    return out


def drop_overlap(q: str, code: str, p: float, rng: random.Random, keep: int = 3) -> str:
    """The query with each word (not a stop word) that also occurs in the code dropped with probability
    ``p`` (never below ``keep`` words): the dense model then learns the description-to-behaviour match the
    keyword side cannot make, rather than the word overlap the keyword side already finds."""
    words = q.split()
    vocab = code_words(code)

    def shared(word: str) -> bool:
        w = word.strip("`'\"()[],.:;?!").lower()
        return w in vocab and w not in STOP_WORDS

    out = [w for w in words if not (shared(w) and rng.random() < p)]
    return " ".join(out) if len(out) >= keep else q


def query_forms(pair: dict, rng: random.Random, overlap_drop: float = 0.0) -> str:
    """One query for the pair as the dense model reads it: :func:`query_text` behind codesift's query
    preamble (``"<lang> function: "``)."""
    return query_embed_text(f"{pair['lang']} function: ", query_text(pair, rng, overlap_drop))


def query_text(pair: dict, rng: random.Random, overlap_drop: float = 0.0) -> str:
    """One query for the pair, as typed: the doc sentence, with the restated symbol name dropped (Go and Java
    docs start with it; people do not ask that way), sometimes cut to a short lower-case phrase, sometimes
    a "where …" question, and with ``overlap_drop`` > 0 the words it shares with the code thinned out
    (:func:`drop_overlap`)."""
    q = pair["q"].strip()
    short = re.split(r"[.:#]+", pair["name"])[-1]
    words = q.split()
    if words and short and words[0].strip("`'\"()").lower() == short.lower() and len(words) > 3:
        q = " ".join(words[1:])
    if overlap_drop > 0:
        q = drop_overlap(q, pair["code"], overlap_drop, rng)
    r = rng.random()
    if r < 0.25:
        q = " ".join(q.rstrip(".").split()[:8]).lower()
    elif r < 0.35:
        q = "where " + ("do we " if rng.random() < 0.5 else "is code that ") + q[0].lower() + q[1:].rstrip(".")
    return q


LONG_LINES = 20  # a definition longer than this is "long" for ``sample(long_share=...)``


def sample(folder: Path, quota: dict[str, int], seed: int, long_share: float | None = None) -> list[dict]:
    """``quota[lang]`` training pairs per language, drawn at random with a fixed seed.

    ``long_share``: that share of each language's pairs comes from definitions over ``LONG_LINES`` lines
    (as many as there are), the rest from the shorter ones — the documented functions of the training set
    are mostly short (median 6–15 lines), the code people ask about is longer."""
    rng = random.Random(seed)
    out: list[dict] = []
    for lang, k in quota.items():
        pairs = read_pairs(folder, "pairs", lang)
        rng.shuffle(pairs)
        if long_share is None:
            out.extend(pairs[:k])
            continue
        long = [p for p in pairs if p["code"].count("\n") >= LONG_LINES]
        short = [p for p in pairs if p["code"].count("\n") < LONG_LINES]
        n_long = min(len(long), round(k * long_share))
        picked = long[:n_long] + short[: k - n_long]
        rng.shuffle(picked)
        out.extend(picked)
    return out


def batches(pairs: list[dict], size: int, seed: int) -> Iterator[list[dict]]:
    """Batches of one language each (harder in-batch negatives than a mixed batch), in random order."""
    rng = random.Random(seed)
    by_lang: dict[str, list[dict]] = {}
    for p in pairs:
        by_lang.setdefault(p["lang"], []).append(p)
    chunks: list[list[dict]] = []
    for group in by_lang.values():
        rng.shuffle(group)
        chunks.extend(group[i : i + size] for i in range(0, len(group) - size + 1, size))
    rng.shuffle(chunks)
    yield from chunks


class NegativeSampler:
    """A hard negative for a pair: another definition from the same file, else from the same source
    package (same vocabulary and style, another meaning), else any other pair — never one with the same
    doc sentence (an overload: the sentence describes it as well)."""

    def __init__(self, pairs: list[dict], seed: int) -> None:
        self.rng = random.Random(seed + 1)
        self.pairs = pairs
        self.by_file: dict[tuple[str, str], list[int]] = {}
        self.by_src: dict[str, list[int]] = {}
        for i, p in enumerate(pairs):
            self.by_file.setdefault((p["src"], p["path"]), []).append(i)
            self.by_src.setdefault(p["src"], []).append(i)

    def pick(self, pair: dict) -> dict:
        for group in (self.by_file.get((pair["src"], pair["path"]), []), self.by_src.get(pair["src"], [])):
            others = [i for i in group if self.pairs[i]["code"] != pair["code"] and self.pairs[i]["q"] != pair["q"]]
            if others:
                return self.pairs[self.rng.choice(others)]
        return any_other(self.pairs, pair, self.rng)


def any_other(pairs: list[dict], pair: dict, rng: random.Random) -> dict:
    """A random pair of ``pairs`` with other code than ``pair``'s: the negative samplers' last resort."""
    while True:
        other = pairs[rng.randrange(len(pairs))]
        if other["code"] != pair["code"]:
            return other


class ProseSampler:
    """A documentation negative for a pair: a Markdown section in the shape of a project's README — a
    heading and a paragraph of doc sentences from the same source package, now and then the pair's own
    sentence among them, sometimes with a fenced code example. codesift indexes such sections beside the
    code; the tuned model must still put the code that does the thing above prose that talks about it
    (run 3 gave README sections of javapoet most of its top vector places)."""

    def __init__(self, pairs: list[dict], seed: int, own_share: float = 0.5) -> None:
        self.rng = random.Random(seed + 2)
        self.pairs = pairs
        self.own_share = own_share
        self.by_src: dict[str, list[int]] = {}
        for i, p in enumerate(pairs):
            self.by_src.setdefault(p["src"], []).append(i)

    def section(self, pair: dict) -> str:
        """The text codesift's dense model reads for one such section (``embed_text`` of a Markdown chunk)."""
        group = [i for i in self.by_src.get(pair["src"], []) if self.pairs[i]["code"] != pair["code"]]
        others = [self.pairs[i] for i in self.rng.sample(group, min(len(group), self.rng.randint(2, 4)))]
        sentences = [o["q"].strip() for o in others]
        if self.rng.random() < self.own_share:
            sentences.insert(self.rng.randrange(len(sentences) + 1), pair["q"].strip())
        title = " ".join(split_identifier(Path(pair["path"]).stem)).capitalize() or "Usage"
        text = f"## {title}\n\n" + " ".join(s if s.endswith(".") else s + "." for s in sentences)
        if others and self.rng.random() < 0.5:
            example = "\n".join(others[0]["code"].splitlines()[:6])
            text += f"\n\n```{pair['lang']}\n{example}\n```"
        doc = "docs/" + Path(pair["path"]).stem + ".md" if self.rng.random() < 0.3 else "README.md"
        chunk = Chunk(kind="section", name=title, qualified_name=title, start_line=1,
                      end_line=text.count("\n") + 1, text=text, language="markdown")
        return embed_text(chunk, doc)
