from codesift.rank.candidate import Candidate
from codesift.rank.diversity import (best_of_each_file_first, cap_per_file, consolidate, contained_yields,
                                     declaration_yields, dedupe_content, enclosing_first, implementation_first,
                                     is_bodiless)


def c(cid, path, start, end, text=None, name=None):
    name = name or f"f{cid}"
    return Candidate(cid, path, name, name, "function", "python", start, end, text or f"def {name}(): {cid}")


def test_cap_per_file():
    out = cap_per_file([c(1, "a", 1, 2), c(2, "a", 5, 6), c(3, "a", 9, 9), c(4, "b", 1, 1)], 2)
    assert [x.chunk_id for x in out] == [1, 2, 4]


def test_dedupe_content_keeps_first_copy():
    out = dedupe_content([c(1, "a", 1, 2, "same  text"), c(2, "b", 1, 2, "same text"), c(3, "b", 4, 5)])
    assert [x.chunk_id for x in out] == [1, 3]


def test_dedupe_content_sees_a_bundles_copy_of_a_module_function():
    module = ("export function tokenizeArgString(argString) {\n    // split on spaces unless quoted\n"
              "    const args = [];\n    /* the previous char */\n    let prev = null;\n    return args;\n}")
    bundle = "function tokenizeArgString(argString) {\n    const args = [];\n    let prev = null;\n    return args;\n}"
    name = "tokenizeArgString"
    out = dedupe_content([c(1, "build/lib/t.js", 7, 13, module, name), c(2, "build/index.cjs", 51, 55, bundle, name)])
    assert [x.chunk_id for x in out] == [1]
    # two definitions of other names whose code differs only in comments are not copies of one
    assert len(dedupe_content([c(5, "a.js", 1, 7, module), c(6, "b.js", 1, 5, bundle)])) == 2
    # one license header over different code: two chunks, not copies
    header = "# Copyright (c) the authors\n# Licensed under the MIT licence, see LICENSE for the terms of use\n" * 2
    out = dedupe_content([c(3, "a.py", 1, 9, header + "import os\n"), c(4, "b.py", 1, 9, header + "import re\n")])
    assert [x.chunk_id for x in out] == [3, 4]


def test_best_of_each_file_first():
    out = best_of_each_file_first([c(1, "a", 1, 2), c(2, "a", 5, 6), c(3, "b", 1, 1)])
    assert [x.chunk_id for x in out] == [1, 3, 2]


def test_consolidate_merges_adjacent_not_nested():
    out = consolidate([c(1, "a", 10, 20), c(2, "a", 21, 30), c(3, "a", 1, 100), c(4, "a", 12, 14), c(5, "b", 31, 40)])
    assert [(x.chunk_id, x.start_line, x.end_line) for x in out] == [(1, 10, 30), (3, 1, 100), (4, 12, 14), (5, 31, 40)]
    assert out[0].merged_names == ["f2"]


def test_consolidate_respects_gap_and_span_limit():
    out = consolidate([c(1, "a", 10, 20), c(2, "a", 23, 30)])
    assert len(out) == 2
    out = consolidate([c(1, "a", 1, 150), c(2, "a", 151, 300)])
    assert len(out) == 2


def test_consolidate_keeps_named_symbols_apart():
    a, b = c(1, "a", 10, 20), c(2, "a", 21, 30)
    b.explain["name_match"] = 1.0
    assert [x.chunk_id for x in consolidate([a, b])] == [1, 2]


def _container(cid, path, start, end, name="Big"):
    return Candidate(cid, path, name, name, "class", "java", start, end, f"class {name} {{}}")


def test_a_long_container_yields_to_its_members():
    from codesift.datatypes import CONTAINER_KINDS
    from codesift.rank.diversity import members_first

    cls = _container(1, "A.java", 1, 500)
    others = [c(2, "B.java", 1, 9), c(3, "A.java", 40, 60), c(4, "A.java", 100, 120), c(5, "C.java", 1, 9)]
    out = members_first([cls, *others], CONTAINER_KINDS)
    assert [x.chunk_id for x in out] == [2, 3, 4, 1, 5]  # after the last of its members, not the first


def test_short_named_or_memberless_containers_stay():
    from codesift.datatypes import CONTAINER_KINDS
    from codesift.rank.diversity import members_first

    short = _container(1, "A.java", 1, 80)
    assert [x.chunk_id for x in members_first([short, c(2, "A.java", 10, 20)], CONTAINER_KINDS)] == [1, 2]
    named = _container(1, "A.java", 1, 500)
    named.explain["name_match"] = 1.0
    assert [x.chunk_id for x in members_first([named, c(2, "A.java", 10, 20)], CONTAINER_KINDS)] == [1, 2]
    alone = _container(1, "A.java", 1, 500)
    assert [x.chunk_id for x in members_first([alone, c(2, "B.java", 10, 20), c(3, "A.java", 600, 610)],
                                              CONTAINER_KINDS)] == [1, 2, 3]


def test_nested_long_containers_each_follow_their_own_member():
    from codesift.datatypes import CONTAINER_KINDS
    from codesift.rank.diversity import members_first

    outer, inner = _container(1, "T.java", 1, 900, "TypeSpec"), _container(2, "T.java", 400, 890, "Builder")
    method, builder_method = c(3, "T.java", 100, 150), c(4, "T.java", 500, 520)
    for x, score in zip((outer, inner, method, builder_method), (4.0, 3.0, 2.0, 1.0)):
        x.score = score
    out = members_first([outer, inner, method, builder_method], CONTAINER_KINDS)
    assert [x.chunk_id for x in out] == [3, 4, 1, 2]  # the outer class also holds the builder's method
    assert [x.score for x in out] == [2.0, 1.0, 1.0, 1.0]  # never above the member it follows


def test_enclosing_function_takes_the_place_of_its_nested_function():
    inner, other, outer = c(1, "a", 20, 30, name="process"), c(2, "b", 1, 5), c(3, "a", 10, 60, name="tree")
    inner.score, other.score, outer.score = 0.9, 0.8, 0.5
    out = enclosing_first([inner, other, outer])
    assert [x.chunk_id for x in out] == [3, 2]
    assert out[0].score == 0.9 and out[0].merged_names == ["process"]


def test_enclosing_first_climbs_every_level_and_keeps_lower_ones_in_place():
    inner, middle, outer = c(1, "a", 20, 22), c(2, "a", 15, 30), c(3, "a", 10, 60)
    assert [x.chunk_id for x in enclosing_first([inner, middle, outer])] == [3]
    # an enclosing function already above its nested one: nothing moves
    assert [x.chunk_id for x in enclosing_first([outer, c(4, "b", 1, 2), inner])] == [3, 4, 1]


def test_a_long_function_holding_many_definitions_does_not_take_their_place():
    # immer's enablePatches: 292 lines holding ten functions, each an answer of its own
    module_like, inner = c(1, "a", 26, 317, name="enablePatches"), c(2, "a", 214, 286, name="applyPatches_")
    inner.score, module_like.score = 0.9, 0.8
    module_like.nested = 10
    assert [x.chunk_id for x in enclosing_first([inner, module_like])] == [2, 1]
    module_like.nested = 2  # a decorator and its wrapper: still one unit
    assert [x.chunk_id for x in enclosing_first([inner, module_like])] == [1]
    short = c(3, "a", 100, 260, name="createRetryer")  # a factory of many closures, short enough to point at
    short.nested, inner = 9, c(4, "a", 150, 170)
    assert [x.chunk_id for x in enclosing_first([inner, short])] == [3]


def test_enclosing_first_leaves_named_methods_classes_and_long_functions():
    named, outer = c(1, "a", 20, 30, name="process"), c(2, "a", 10, 60)
    named.explain["name_match"] = 1.0
    assert [x.chunk_id for x in enclosing_first([named, outer])] == [1, 2]
    method, cls = c(3, "a", 20, 30), c(4, "a", 10, 60)
    cls.kind = "class"
    assert [x.chunk_id for x in enclosing_first([method, cls])] == [3, 4]
    assert [x.chunk_id for x in enclosing_first([c(5, "a", 20, 30), c(6, "a", 1, 401)])] == [5, 6]
    assert [x.chunk_id for x in enclosing_first([c(9, "a", 20, 30), c(10, "a", 1, 390)])] == [10]
    assert [x.chunk_id for x in enclosing_first([c(7, "a", 20, 30), c(8, "b", 1, 60)])] == [7, 8]  # other file


def _module_like_js(helpers: int) -> str:
    """One 230-line function holding ``helpers`` inner functions (a plugin installer, immer's style)."""
    inner = []
    for i in range(helpers):
        words = "squeeze sparse holes from arrays" if i == 0 else f"helper number {i} does its own thing"
        inner.append(f"  function helper{i}(items) {{\n    // {words}\n"
                     + "".join(f"    items.push({j});\n" for j in range(20)) + "    return items;\n  }\n")
    filler = "".join(f"  const setting{j} = configure('alpha', 'beta', 'gamma', 'delta', {j});\n"
                     for j in range(230 - sum(s.count(chr(10)) for s in inner)))
    return "export function installPlugin() {\n" + "".join(inner) + filler + "}\n"


def test_search_keeps_the_inner_function_of_a_module_like_function(tmp_path, monkeypatch):
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "plugin.js").write_text(_module_like_js(helpers=6))
    (tmp_path / "decorate.js").write_text(_module_like_js(helpers=1).replace("installPlugin", "decorate")
                                          .replace("items", "entries"))  # not a copy (dedupe would drop it)
    with Index(tmp_path) as index:
        index.update(embed=False)
        hits = index.search("squeeze sparse holes from arrays", mode="keyword", limit=5).results
    first = {}
    for r in hits:
        first.setdefault(r.path, r)
    by_path = first
    assert by_path["plugin.js"].qualified_name == "installPlugin.helper0"  # six inner functions: a module
    assert by_path["decorate.js"].qualified_name == "decorate"  # one: the function is the unit


def test_a_short_overload_yields_its_place_to_the_longest_one():
    wrapper, other = c(1, "J.java", 944, 948, name="usage"), c(2, "K.java", 1, 40, name="print")
    impl, mid = c(3, "J.java", 1153, 1259, name="usage"), c(4, "J.java", 1016, 1030, name="usage")
    out = implementation_first([wrapper, other, mid, impl])
    assert [x.chunk_id for x in out] == [3, 1, 2, 4]  # the longest first, the wrapper right after it
    assert out[0].score >= wrapper.score
    wrapper.explain["name_match"] = 1.0  # the query names it: left where it is
    assert [x.chunk_id for x in implementation_first([wrapper, other, impl])] == [1, 2, 3]
    long_first = [c(5, "J.java", 1, 50, name="run"), c(6, "J.java", 60, 62, name="run")]
    assert [x.chunk_id for x in implementation_first(long_first)] == [5, 6]


def _fn(cid, name, text, language="c_sharp", path=None):
    return Candidate(cid, path or f"src/F{cid}.cs", name, f"T{cid}.{name}", "method", language, 1, 3, text,
                     score=1.0 - cid / 10)


BODILESS = [
    ("    ResiliencePipeline GetPipeline(string key);", "c_sharp"),  # an interface member
    ("public abstract int Compute(int x);", "c_sharp"),
    ("/** Handles a record {@see X}. */\npublic function handle(LogRecord $record): bool;", "php"),
    ("expect fun platformName(): String", "kotlin"),
    ("fun fetch(): FetchResult?", "kotlin"),  # in an interface
    ("fn name(&self) -> &str;", "rust"),  # in a trait
    ("int lua_gettop (lua_State *L);", "cpp"),
]
WITH_BODY = [
    ("public X(string m)\n    : base(m) => Retry = r;", "c_sharp"),  # expression-bodied
    ("public function handle(LogRecord $r): bool { return true; }", "php"),
    ('actual fun platformName(): String = "jvm"', "kotlin"),
    ("fun AsyncImage(\n  model: Any?,\n  alpha: Float = DefaultAlpha,\n) = AsyncImage(\n    state = State(model),\n)",
     "kotlin"),  # an overload delegating to another
    ("def fetch(self): ...", "python"),  # Python's stubs have a body of their own: never bodiless
]


def test_functions_declared_without_a_body():
    assert [is_bodiless(_fn(0, "f", text, lang)) for text, lang in BODILESS] == [True] * len(BODILESS)
    assert [is_bodiless(_fn(0, "f", text, lang)) for text, lang in WITH_BODY] == [False] * len(WITH_BODY)


def test_a_declaration_yields_to_the_implementation_of_its_name():
    decl = _fn(0, "GetPipeline", "ResiliencePipeline GetPipeline(string key);")
    other = _fn(1, "Other", "void Other() { }")
    impl = _fn(2, "GetPipeline", "public ResiliencePipeline GetPipeline(string key) { return x; }")
    out = declaration_yields([decl, other, impl], "look up a pipeline by key")
    assert [c.chunk_id for c in out] == [2, 0, 1]  # the body first, its declaration right after it
    assert out[0].score == 1.0
    # asked for the interface, or named by an identifier query: left as they are
    fresh = [_fn(0, "GetPipeline", decl.text), other, _fn(2, "GetPipeline", impl.text)]
    assert [c.chunk_id for c in declaration_yields(fresh, "the provider interface")] == [0, 1, 2]
    fresh[0].explain["name_match"] = 1.0
    assert [c.chunk_id for c in declaration_yields(fresh, "GetPipeline")] == [0, 1, 2]
    # another language's function of the name is no implementation of it
    kt = _fn(2, "GetPipeline", "fun GetPipeline(key: String) { }", language="kotlin")
    mixed = [_fn(0, "GetPipeline", decl.text), other, kt]
    assert [c.chunk_id for c in declaration_yields(mixed, "a pipeline")] == [0, 1, 2]


def test_a_result_inside_one_shown_above_follows_the_others():
    """WhatFailureGroupHandler (class), its close and handle methods, then FallbackGroupHandler: the methods were
    shown with their class, so FallbackGroupHandler comes second; each place keeps its score."""
    def ranked():
        out = [c(1, "What.php", 23, 80, name="WhatFailureGroupHandler"), c(2, "What.php", 70, 79, name="close"),
               c(3, "What.php", 28, 43, name="handle"), c(4, "Fallback.php", 24, 68, name="FallbackGroupHandler"),
               c(5, "Fallback.php", 29, 44, name="handle")]
        for i, x in enumerate(out):
            x.score = 1.0 - i / 10
        return out

    out = contained_yields(ranked())
    assert [x.chunk_id for x in out] == [1, 4, 2, 3, 5]
    assert [x.score for x in out] == [1.0, 0.9, 0.8, 0.7, 0.6]
    assert out[2].explain["contained_yields"] == 1.0 and "contained_yields" not in out[1].explain
    named = ranked()
    named[1].explain["name_match"] = 1.0  # the query names close: it stays
    assert [x.chunk_id for x in contained_yields(named)] == [1, 2, 4, 3, 5]
    # only among the first ``depth``; a method above its class, or of another file, stays
    assert [x.chunk_id for x in contained_yields(ranked(), depth=2)] == [1, 2, 3, 4, 5]
    above = [c(2, "a", 70, 79), c(1, "a", 23, 80), c(3, "b", 70, 79)]
    assert [x.chunk_id for x in contained_yields(above)] == [2, 1, 3]


def test_a_result_inside_a_long_container_stays():
    """A class over MAX_MERGED_SPAN lines points at none of its methods: the method below it is the pointer."""
    out = contained_yields([c(1, "options.rb", 2, 254), c(2, "options.rb", 11, 26), c(3, "actions.rb", 308, 319)])
    assert [x.chunk_id for x in out] == [1, 2, 3]


RETRY = '''
class RetryGroup:
    """Retry the handlers until one succeeds: each handler in turn, the first success ends it."""

    def __init__(self, handlers):
        self.handlers = handlers

    def handle(self, record):
        """Retry the handlers in turn."""
        for handler in self.handlers:
            if handler.handle(record):
                return True
        return False
'''
FALLBACK = '''
def fallback(handlers, record):
    """Hand the record to a fallback when one succeeds."""
    return any(h.handle(record) for h in handlers)
'''


def test_search_lists_a_method_shown_with_its_class_after_the_other_results(tmp_path):
    from codesift import Index
    from codesift.config.rank import RankSettings
    from codesift.config.settings import Config

    (tmp_path / "retry.py").write_text(RETRY)
    (tmp_path / "fallback.py").write_text(FALLBACK)

    def names(yields: bool) -> list[str]:
        config = Config(embedder="none", rank=RankSettings(contained_yields=yields))
        with Index(tmp_path, config=config) as idx:
            idx.update(embed=False)
            return [r.qualified_name for r in idx.search("retry handlers until one succeeds", mode="keyword").results]

    assert names(False) == ["RetryGroup", "RetryGroup.handle", "fallback"]
    assert names(True) == ["RetryGroup", "fallback", "RetryGroup.handle"]  # the method was shown with its class
