"""What the result labels (HIGH / GOOD / FAIR / LOW / WEAK) say: how often a result of each label is an answer.

    python bench/quality/labels.py [--modes hybrid keyword semantic] [--no-devset] [--cache F.json] [--record]

Every query of the public hand-written set and (unless ``--no-devset``) of the dev set's main, short and terse
sets (bench/quality/devset.py) is searched in each mode; each of its top 10 results is an *answer* when it hits
one of the query's targets (the scorer's rule, ``score.hits``). Printed per mode:

* per label: results, share of all results, share that are answers, and answers of each label among all
  answers found;
* leave one corpus out for the labels' floors (codesift.rank.labels): for each corpus in turn, the floors are
  fitted on the others by ``labels.fit_floors`` and the held-out corpus's results are labelled with them. The
  held-out precision of each label must stay close to its target for the floors to mean the same on code
  nobody fitted them on. Results the query names exactly are left out of the fit: they are HIGH anyway.

``--cache`` keeps the collected results in a JSON file, so the fit can be re-run without searching again.
``--record`` keeps, per mode, each label's share of results and the share of those that are answers in
bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402
from common import hits  # noqa: E402

from codesift.languages import is_test_path  # noqa: E402
from codesift.rank.labels import FLOORS, PRECISION_TARGETS, fit_floors, label, weak_match  # noqa: E402


# Everyday words no code library's text is likely to hold: the dictionary half of the nonsense queries.
NONSENSE_WORDS = ("giraffe marmalade violin tulip walrus lighthouse porcupine cinnamon harpsichord avalanche "
                  "buttercup flamingo gondola hedgehog kangaroo lagoon meadow nectarine octopus pelican quilt "
                  "raspberry saxophone tambourine umbrella volcano waffle xylophone yodel zeppelin accordion "
                  "badger cactus dolphin eggplant fjord gazebo hammock igloo jellyfish kiwi llama mango "
                  "narwhal orchid pumpkin quokka rhubarb seahorse trombone unicorn vineyard wombat yak zucchini "
                  "flibbertigibbet bamboozle gobbledygook snorkel crumpet pancake galoshes mitten scarecrow").split()


def nonsense_queries(rng: random.Random, n: int) -> list[str]:
    """``n`` queries that match nothing in a code library: half of random letter strings, half of two or
    three everyday words (``giraffe marmalade violin``)."""
    out = []
    for i in range(n):
        if i % 2:
            out.append(" ".join(rng.sample(NONSENSE_WORDS, rng.choice([2, 3]))))
        else:
            out.append(" ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 10)))
                                for _ in range(rng.choice([1, 2, 3]))))
    return out


def collect(modes: list[str], with_devset: bool, nonsense: int = 0) -> list[dict]:
    """One row per (query, mode, result): corpus, its language, query id, text and kind, mode, score kind,
    score, position, whether the query names it exactly, whether it is an answer, the result's path, whether
    it is a test file, and the response's evidence of a match (query terms, those some indexed text holds, the
    nearest chunk's cosine). ``nonsense``: that many nonsense queries per corpus too (set ``nonsense``, never
    answers)."""
    langs = common.corpus_languages() | {c["name"]: c.get("language", "?") for c in common.devset_corpora()}
    sets = [("public", common.load_sets(["handwritten"], None)["handwritten"], common.open_index)]
    if with_devset:
        dev_open = common.devset_opener()
        sets += [("dev", common.load_devset_queries(None), dev_open),
                 ("short", common.load_devset_queries(None, "short"), dev_open),
                 ("terse", common.load_devset_queries(None, "terse"), dev_open)]
    if nonsense:
        rng = random.Random(44)
        for _set, queries, opener in list(sets[:2]):
            corpora = list(dict.fromkeys(q["corpus"] for q in queries))
            sets.append(("nonsense", [{"corpus": c, "id": f"nonsense-{c}-{i}", "query": text, "targets": [],
                                       "kind": "nonsense"}
                                      for c in corpora for i, text in enumerate(nonsense_queries(rng, nonsense))],
                         opener))
    rows: list[dict] = []
    for name, queries, opener in sets:
        indexes = {}
        for q in queries:
            if q["corpus"] not in indexes:
                indexes[q["corpus"]] = opener(q["corpus"], {})
            for mode in modes:
                res = indexes[q["corpus"]].search(q["query"], limit=10, mode=mode)
                for pos, r in enumerate(res.results, start=1):
                    hit = any(hits({"path": r.path, "start_line": r.start_line, "end_line": r.end_line}, t)
                              for t in q["targets"])
                    # HIGH from the exact name, not from the score
                    named = r.label == "HIGH" and label(r.score, r.score_kind) != "HIGH"
                    rows.append({"set": name, "corpus": ("short" if name == "short" else q["corpus"]), "id": q["id"],
                                 "lang": langs.get(q["corpus"], "?"), "query": q["query"],
                                 "query_kind": q.get("kind", "nl"), "named": named, "mode": mode,
                                 "kind": r.score_kind, "score": r.score, "position": pos, "answer": hit,
                                 "path": r.path, "test": is_test_path(r.path), "terms": res.terms,
                                 "held": res.held, "best_cosine": res.best_cosine})
                if not res.results:
                    rows.append({"set": name, "corpus": q["corpus"], "id": q["id"], "lang": langs.get(q["corpus"]),
                                 "query": q["query"], "query_kind": q.get("kind", "nl"), "mode": mode,
                                 "position": 0, "terms": res.terms, "held": res.held,
                                 "best_cosine": res.best_cosine})
        for index in indexes.values():
            index.close()
    return rows


def label_table(rows: list[dict], mode: str) -> dict[str, float]:
    """Prints the label table of one mode; returns each label's share of results and of answers among them."""
    sub = [r for r in rows if r["mode"] == mode]
    answers = sum(r["answer"] for r in sub) or 1
    print(f"\n{mode}: {len(sub)} results, {answers} answers\n")
    print("| label | results | share | answers among them | share of all answers |")
    print("|---|---|---|---|---|")
    kept: dict[str, float] = {}
    for name in [*FLOORS, "WEAK"]:
        got = [r for r in sub if label(r["score"], r["kind"], named=r["named"]) == name]
        a = sum(r["answer"] for r in got)
        prec = f"{a / len(got):.2f}" if got else "-"
        print(f"| {name} | {len(got)} | {len(got) / max(1, len(sub)):.2f} | {prec} | {a / answers:.2f} |")
        kept[f"{mode} {name} share"] = len(got) / max(1, len(sub))
        if got:
            kept[f"{mode} {name} answers among them"] = a / len(got)
    return kept


def set_table(rows: list[dict], mode: str) -> None:
    """Each label's share of answers per query set: a label must mean the same for a sentence and for the
    2–4 words typed into a search box (the terse set)."""
    sub = [r for r in rows if r["mode"] == mode]
    sets = sorted({r["set"] for r in sub})
    print(f"\n{mode}: answers among each label's results, per query set (results in brackets)\n")
    print("| set | " + " | ".join([*FLOORS, "WEAK"]) + " |")
    print("|---|" + "---|" * (len(FLOORS) + 1))
    for name in sets:
        cells = []
        for lab in [*FLOORS, "WEAK"]:
            got = [r for r in sub if r["set"] == name and label(r["score"], r["kind"], named=r["named"]) == lab]
            cells.append(f"{sum(r['answer'] for r in got) / len(got):.2f} ({len(got)})" if got else "- (0)")
        print(f"| {name} | " + " | ".join(cells) + " |")


def language_table(rows: list[dict], mode: str) -> None:
    """Each label's share of answers per language of the corpus: a label must mean the same in every one."""
    sub = [r for r in rows if r["mode"] == mode]
    print(f"\n{mode}: answers among each label's results, per language (results in brackets)\n")
    print("| language | " + " | ".join([*FLOORS, "WEAK"]) + " |")
    print("|---|" + "---|" * (len(FLOORS) + 1))
    for lang in sorted({r.get("lang", "?") for r in sub}):
        cells = []
        for lab in [*FLOORS, "WEAK"]:
            got = [r for r in sub if r.get("lang", "?") == lang
                   and label(r["score"], r["kind"], named=r["named"]) == lab]
            cells.append(f"{sum(r['answer'] for r in got) / len(got):.2f} ({len(got)})" if got else "- (0)")
        print(f"| {lang} | " + " | ".join(cells) + " |")


def position_table(rows: list[dict], mode: str) -> None:
    """Each label's share of answers by the result's position, and per query by its best label whether an
    answer is in its top 3 or top 10: what an agent should do when nothing is above a label."""
    sub = [r for r in rows if r["mode"] == mode]
    names = [*FLOORS, "WEAK"]
    print(f"\n{mode}: answers among each label's results, by position (results in brackets)\n")
    print("| position | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for title, lo, hi in (("1", 1, 1), ("2-3", 2, 3), ("4-10", 4, 10)):
        cells = []
        for lab in names:
            got = [r for r in sub if lo <= r["position"] <= hi
                   and label(r["score"], r["kind"], named=r["named"]) == lab]
            cells.append(f"{sum(r['answer'] for r in got) / len(got):.2f} ({len(got)})" if got else "- (0)")
        print(f"| {title} | " + " | ".join(cells) + " |")
    queries: dict[tuple, list[dict]] = {}
    for r in sub:
        queries.setdefault((r["set"], r["corpus"], r["id"]), []).append(r)
    print(f"\n{mode}: queries by their best label: an answer in the top 3 / top 10\n")
    print("| best label | queries | top 3 | top 10 |")
    print("|---|---|---|---|")
    for lab in names:
        got = [rs for rs in queries.values()
               if min(names.index(label(r["score"], r["kind"], named=r["named"])) for r in rs) == names.index(lab)]
        if got:
            top3 = sum(any(r["answer"] for r in rs if r["position"] <= 3) for rs in got) / len(got)
            top10 = sum(any(r["answer"] for r in rs) for rs in got) / len(got)
            print(f"| {lab} | {len(got)} | {top3:.2f} | {top10:.2f} |")


def held_out(of_kind: list[dict], corpora: list[str], group: str | None) -> dict[str, list[int]]:
    """Leave one corpus out: per label, [results, answers] of the held-out corpora labelled with floors fitted
    on the others (``group``: "lang", on the others of the held-out corpus's language only)."""
    names = list(PRECISION_TARGETS)
    out = {n: [0, 0] for n in [*names, "WEAK"]}
    for held in corpora:
        mine = [r for r in of_kind if r["corpus"] == held]
        if not mine:
            continue
        train = [r for r in of_kind if r["corpus"] != held
                 and (group is None or r.get(group) == mine[0].get(group))]
        floors = fit_floors([(r["score"], r["answer"]) for r in train])
        for r in mine:
            name = next((n for n in names if r["score"] >= floors[n]), "WEAK")
            out[name][0] += 1
            out[name][1] += r["answer"]
    return out


def language_loco_table(rows: list[dict], mode: str) -> None:
    """Held-out precision per language with global floors (fitted on every other corpus) and with per-language
    floors (fitted on the other corpora of the same language): per-language floors only if they come closer
    to the targets."""
    sub = [r for r in rows if r["mode"] == mode and not r["named"] and r["kind"] == "rrf"]
    corpora = sorted({r["corpus"] for r in sub})
    names = [*PRECISION_TARGETS, "WEAK"]
    print(f"\n{mode}: leave one corpus out per language, global floors / per-language floors (results)\n")
    print("| language | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    glob = held_out(sub, corpora, None)
    per = held_out(sub, corpora, "lang")
    for lang in [*sorted({r.get("lang", "?") for r in sub}), "all"]:
        of_lang = [c for c in corpora if lang == "all" or any(r["corpus"] == c and r.get("lang") == lang for r in sub)]
        g = held_out(sub, of_lang, None) if lang != "all" else glob
        p_ = held_out([r for r in sub if lang == "all" or r.get("lang") == lang], of_lang, "lang") \
            if lang != "all" else per
        cells = [f"{g[n][1] / g[n][0]:.2f} / {p_[n][1] / p_[n][0]:.2f} ({g[n][0]} / {p_[n][0]})"
                 if g[n][0] and p_[n][0] else f"{g[n][1] / max(1, g[n][0]):.2f} / - ({g[n][0]} / {p_[n][0]})"
                 for n in names]
        print(f"| {lang} | " + " | ".join(cells) + " |")


def nonsense_table(rows: list[dict], mode: str) -> None:
    """The nonsense queries' results: their labels by score alone, and whether search.notes' rule (no query term
    held, nearest chunk far: rank.labels.weak_match) catches each query; the real queries it would catch."""
    sub = [r for r in rows if r["mode"] == mode]
    queries: dict[tuple, dict] = {}
    for r in sub:
        queries.setdefault((r["set"], r["corpus"], r["id"]), r)
    non = [r for k, r in queries.items() if k[0] == "nonsense"]
    real = [r for k, r in queries.items() if k[0] != "nonsense"]
    if not non:
        return
    caught = sum(weak_match(r["terms"], r["held"], r["best_cosine"]) for r in non)
    false = sum(weak_match(r["terms"], r["held"], r["best_cosine"]) for r in real)
    cos = sorted(r["best_cosine"] for r in non if r["best_cosine"] is not None)
    rcos = sorted(r["best_cosine"] for r in real if r["best_cosine"] is not None)
    print(f"\n{mode}: {len(non)} nonsense queries, {caught} say nothing matches; {false} of {len(real)} real ones do")
    if cos and rcos:
        print(f"nearest chunk's cosine: nonsense median {cos[len(cos) // 2]:.3f}, max {cos[-1]:.3f}; real min "
              f"{rcos[0]:.3f}, median {rcos[len(rcos) // 2]:.3f}")
    print(f"query terms some indexed text holds: nonsense none in {sum(r['held'] == 0 for r in non)}; real, the "
          f"smallest share {min(r['held'] / r['terms'] for r in real if r['terms']):.2f}")
    by_score = [label(r["score"], r["kind"]) for r in sub if r.get("set") == "nonsense" and r["position"]]
    print("nonsense results by score alone: " + ", ".join(f"{n} {by_score.count(n)}" for n in [*FLOORS, "WEAK"]))


def loco_table(rows: list[dict], mode: str) -> None:
    sub = [r for r in rows if r["mode"] == mode]
    kinds = sorted({r["kind"] for r in sub})
    corpora = sorted({r["corpus"] for r in sub})
    names = list(PRECISION_TARGETS)
    print(f"\n{mode}: leave one corpus out, held-out precision of each label (its target in the header)\n")
    print("| score kind | " + " | ".join(f"{n} ≥ {PRECISION_TARGETS[n]:.2f}" for n in names)
          + " | floors fitted on all corpora |")
    print("|---|" + "---|" * (len(names) + 1))
    for kind in kinds:
        of_kind = [r for r in sub if r["kind"] == kind and not r["named"]]  # named ones are HIGH anyway
        got = dict.fromkeys(names, 0)
        answers = dict.fromkeys(names, 0)
        for held in corpora:
            floors = fit_floors([(r["score"], r["answer"]) for r in of_kind if r["corpus"] != held])
            for r in of_kind:
                if r["corpus"] == held:
                    name = next((n for n in names if r["score"] >= floors[n]), None)
                    if name:
                        got[name] += 1
                        answers[name] += r["answer"]
        cells = [f"{answers[n] / got[n]:.2f} ({got[n]})" if got[n] else "- (0)" for n in names]
        floors = fit_floors([(r["score"], r["answer"]) for r in of_kind])
        print(f"| {kind} | " + " | ".join(cells) + " | " + ", ".join(f"{floors[n]:.3f}" for n in names) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["hybrid", "keyword", "semantic"],
                    choices=["hybrid", "keyword", "semantic"])
    ap.add_argument("--no-devset", action="store_true", help="the public hand-written set only")
    ap.add_argument("--nonsense", type=int, default=0, metavar="N",
                    help="also N nonsense queries per corpus (random letters, everyday words)")
    ap.add_argument("--cache", type=Path, help="read the results from this file if it exists, else write them there")
    common.add_record_flag(ap)
    args = ap.parse_args()
    if args.cache and args.cache.is_file():
        rows = json.loads(args.cache.read_text())
    else:
        rows = collect(args.modes, not args.no_devset, args.nonsense)
        if args.cache:
            args.cache.write_text(json.dumps(rows))
    for mode in args.modes:
        nonsense_table(rows, mode)
    rows = [r for r in rows if r["set"] != "nonsense" and r["position"]]  # the queries with answers
    kept: dict[str, float] = {}
    for mode in args.modes:
        kept |= label_table(rows, mode)
        set_table(rows, mode)
        position_table(rows, mode)
        language_table(rows, mode)
        language_loco_table(rows, mode)
        loco_table(rows, mode)
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
