"""Call graphs of names with many definitions, and answers that say what is known and what is a guess
(issue 44, items 2 and 6)."""

import pytest

from codesift import Index
from codesift.server.common import usages_payload
from codesift.tools import markdown as md
from codesift.tools.markdown.graph import render_callers
from conftest import write_repo

MANY = 25  # more classes defining ``to_internal_value`` than find_symbol once listed as exact matches (20)
FIELDS = "\n\n".join(f"class F{i:02}:\n    def to_internal_value(self, data):\n        return data\n"
                     for i in range(MANY))
SERIALIZERS = '''
class Serializer:
    def to_internal_value(self, data):
        return data


class ListSerializer(Serializer):
    def to_internal_value(self, data):
        return [data]

    def run_validation(self, data):
        return self.to_internal_value(data)
'''


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    files = {"src/fields.py": FIELDS, "src/serializers.py": SERIALIZERS}
    with Index(write_repo(tmp_path_factory.mktemp("many") / "repo", files)) as idx:
        idx.update(embed=False)
        yield idx


def test_every_exact_definition_is_an_exact_match(many):
    found = [s for s in many.find_symbol("to_internal_value") if s["name"] == "to_internal_value"]
    assert len(found) == MANY + 2
    assert {s["match"] for s in found} == {"exact"}  # the 21st on is no "prefix" match


def test_callers_of_the_definition_past_the_cap(many):
    result = many.callers("ListSerializer.to_internal_value")
    assert [(r["path"], r["name"]) for r in result["results"]] == [("src/serializers.py",
                                                                     "ListSerializer.run_validation")]
    assert result["results"][0]["target"] == "ListSerializer.to_internal_value"


def test_callers_of_the_bare_name_file_the_call_under_the_right_class(many):
    result = many.callers("to_internal_value")
    assert [(r["name"], r["target"]) for r in result["results"]] == [
        ("ListSerializer.run_validation", "ListSerializer.to_internal_value")]
    assert len(result["definitions"]) == MANY + 2


def test_usages_callees_and_impact_consider_every_definition(many):
    usages = many.find_usages("ListSerializer.to_internal_value")
    assert [(u["enclosing"], u.get("target")) for u in usages["usages"]] == [
        ("ListSerializer.run_validation", "ListSerializer.to_internal_value")]
    callees = many.callees("ListSerializer.run_validation")["results"]
    assert [(c["name"], c["resolution"], c["definition"]["qualified_name"]) for c in callees] == [
        ("to_internal_value", "resolved", "ListSerializer.to_internal_value")]
    impact = many.impact("ListSerializer.to_internal_value", depth=1)
    assert [r["name"] for r in impact["results"]] == ["ListSerializer.run_validation"]


VIEWS = {
    "src/views.py": '''
        class GenericAPIView:
            def get_object(self):
                return 1


        class Other:
            def get_object(self):
                return 2


        def detail(view):
            return view.get_object()


        def edit(view):
            return view.get_object()


        def other(o: Other):
            return o.get_object()
        ''',
}


def test_unresolved_uses_are_not_said_to_be_none(tmp_path):
    with Index(write_repo(tmp_path / "repo", VIEWS)) as idx:
        idx.update(embed=False)
        found = idx.find_usages("get_object")
        groups = {g["target"]: g for g in found["groups"]}
        assert groups["unresolved"]["uses"] == 2 and groups["Other.get_object"]["uses"] == 1
        assert groups["unresolved"]["candidates"] == 2  # it could be any of the two
        assert found["unresolved"] == 2
        text = md.render_usages(usages_payload(found, symbol_name="get_object", offset=0, limit=50)).text
        assert "No uses resolve to" not in text
        assert ("No use resolves to `GenericAPIView.get_object` (src/views.py:2) for certain; 2 uses could "
                "not be resolved") in text
        assert "could be any of the 2 definitions" in text
        callers = idx.callers("get_object")
        text = render_callers({**callers, "offset": 0}).text
        assert "No calls resolve to" not in text
        assert "No call resolves to `GenericAPIView.get_object` (src/views.py:2) for certain" in text
        one = idx.callers("GenericAPIView.get_object")  # its possible callers: the unresolved ones
        assert {r["name"] for r in one["results"]} == {"detail", "edit"}
        assert {r["target"] for r in one["results"]} == {"unresolved"}


DYNAMIC = {
    "src/util.py": '''
        def get_object():
            return 1
        ''',
    "src/views.py": '''
        class View:
            def get_object(self):
                return 2


        def handler(obj):
            get_object = getattr(obj, "get_object")
            return get_object()


        def direct():
            from util import get_object
            return get_object()
        ''',
}


def test_a_name_bound_by_getattr_is_not_the_same_named_function(tmp_path):
    with Index(write_repo(tmp_path / "repo", DYNAMIC)) as idx:
        idx.update(embed=False)
        targets = {u["enclosing"]: u.get("target") for u in idx.find_usages("get_object")["usages"]
                   if u["kind"] == "call"}
        assert targets == {"handler": "unresolved", "direct": "get_object"}
        callees = {c["name"]: (c["resolution"], c["definition"]) for c in idx.callees("handler")["results"]}
        resolution, definition = callees["get_object"]
        assert definition is None and resolution != "resolved"
        callers = {r["name"]: r.get("target") for r in idx.callers("util.get_object")["results"]}
        assert callers.get("handler") in (None, "unresolved")


def test_a_local_bound_by_getattr_with_one_definition(tmp_path):
    files = {"src/util.py": DYNAMIC["src/util.py"],
             "src/views.py": '''
                def handler(obj):
                    get_object = getattr(obj, "get_object")
                    return get_object()
                '''}
    with Index(write_repo(tmp_path / "repo", files)) as idx:
        idx.update(embed=False)
        callees = {c["name"]: (c["resolution"], c["definition"]) for c in idx.callees("handler")["results"]}
        resolution, definition = callees["get_object"]
        assert definition is None and resolution == "local"


def test_parameters_by_language():
    from codesift.tools.targets import is_parameter

    assert is_parameter("fn", "def run(self, fn, *, hook=None):", "python")
    assert is_parameter("hook", "def run(self, fn, *, hook=None):", "python")
    assert is_parameter("cb", "function run(cb?: Fn)", "typescript")
    assert is_parameter("fn", "func run(fn func()) error", "go")
    assert is_parameter("task", "void run(Runnable task)", "java")
    assert not is_parameter("Runnable", "void run(Runnable task)", "java")  # a type, not a parameter
    assert not is_parameter("run", "def run(self, fn):", "python")
    assert not is_parameter("Foo", "def f(a: Dict[str, Foo], b=Foo()):", "python")


@pytest.mark.parametrize(("body", "local"), [
    ('    fn = getattr(obj, "fn")', True),
    ("    fn: Callable = pick(obj)", True),
    ("    a, fn = pair", True),
    ("    for fn in hooks:", True),
    ("    with open_hook() as fn:", True),
    ("    fn := lookup(x)", True),
    ("    const fn = obj[name]", True),
    ("    if fn == other:", False),
    ("    self.fn = other", False),
    ("    call(a,\n         fn=other)", False),  # the last keyword argument of a call
    ("    call(fn=other,", False),
    ("    other = fn", False),
])
def test_a_local_binding_of_the_name(body, local):
    from codesift.tools.targets import Resolver, Scope

    lines = ["def run(obj):", *body.split("\n"), "    return fn()"]
    target = {"path": "util.py", "start_line": 1, "qualified_name": "fn", "parent": None, "kind": "function"}
    resolver = Resolver([target], lambda path: lines, {})
    scope = Scope(1, len(lines), "run", "function", None, "def run(obj):")
    assert resolver.bound_locally("a.py", len(lines), [scope], "python") is local
    assert (resolver.resolve("a.py", len(lines), "", [scope], "python") == "unresolved") is local


def test_impact_says_an_unresolved_use_may_be_of_another_definition(tmp_path):
    from codesift.tools.markdown.graph import render_impact

    with Index(write_repo(tmp_path / "repo", VIEWS)) as idx:
        idx.update(embed=False)
        text = render_impact({**idx.impact("GenericAPIView.get_object", depth=1), "offset": 0}).text
        assert "`detail` (function) → unresolved (may use another definition of the name)" in text
        assert "2 definitions of these are reached through uses no one definition could be picked for" in text
