"""Static reference extraction (``codesift.parse.references``) on small snippets per language."""

from __future__ import annotations

import textwrap

import pytest

from codesift.parse import grammars
from codesift.parse.ref_tables import REF_SPECS
from codesift.parse.references import KINDS, Reference, extract_references


def refs(source: str, language: str) -> list[Reference]:
    return extract_references(textwrap.dedent(source), language)


def kinds(source: str, language: str) -> dict[str, set[str]]:
    """name -> every kind it is referenced as."""
    out: dict[str, set[str]] = {}
    for r in refs(source, language):
        out.setdefault(r.name, set()).add(r.kind)
    return out


def find(found: list[Reference], name: str, kind: str | None = None) -> list[Reference]:
    return [r for r in found if r.name == name and (kind is None or r.kind == kind)]


# ---------------------------------------------------------------------------------------------
# Tables and robustness
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(REF_SPECS))
def test_every_query_block_compiles(language: str) -> None:
    spec = REF_SPECS[language]
    for block in spec.query:
        assert grammars.get_query(language, block) is not None, block


def test_unknown_language_and_bad_input_give_nothing() -> None:
    assert extract_references("foo()", "cobol") == []
    assert extract_references(None, "python") == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("python", "def broken(:\n    helper(\nclass\n"),
        ("javascript", "function f() { helper(x); "),
        ("java", "class { void ( helper(); "),
        ("go", "package x\nfunc ( { helper( }"),
        ("rust", "fn ( { helper(; "),
    ],
)
def test_syntax_errors_do_not_raise(language: str, source: str) -> None:
    found = extract_references(source, language)
    assert all(isinstance(r, Reference) for r in found)
    assert find(found, "helper")


def test_error_recovery_does_not_report_the_class_being_defined() -> None:
    found = refs(
        """\
        x = [1,
        class Broken(Base):
            pass
        """,
        "python",
    )
    assert not find(found, "Broken")


def test_bytes_and_invalid_utf8_are_accepted() -> None:
    found = extract_references(b"\xff\xfe = 1\nhelper()\n", "python")
    assert find(found, "helper", "call")


def test_deeply_nested_code_does_not_crash() -> None:
    nested = "x = " + "[" * 3000 + "value" + "]" * 3000 + "\n"
    assert find(extract_references(nested, "python"), "value")
    blocks = "def f():\n" + "".join("    " * (i + 1) + f"if c{i}:\n" for i in range(300))
    blocks += "    " * 301 + "target()\n"
    assert find(extract_references(blocks, "python"), "target", "call")
    target = "(" * 3000 + "a" + ")" * 3000 + " = 1\n"
    assert extract_references(target, "python") == []


def test_long_member_chains_stay_fast() -> None:
    import time

    start = time.perf_counter()
    chain = extract_references("a" + ".b()" * 10000 + "\n", "python")
    js = extract_references("a" + ".b()" * 10000 + ";\n", "javascript")
    assert time.perf_counter() - start < 4.0
    assert find(chain, "b", "call") and find(js, "b", "call")


# ---------------------------------------------------------------------------------------------
# Python
# ---------------------------------------------------------------------------------------------

PY = """\
import os.path as osp
from requests.utils import super_len, to_native as native
from . import sibling


@decorators.register("x")
@cached
class Session(BaseSession, mixins.Redirects, metaclass=Meta):
    \"\"\"Docstring mentioning super_len and Adapter.\"\"\"

    timeout: Timeout = DEFAULT

    def send(self, request: PreparedRequest, *args, retries=3, **kwargs) -> Response:
        # a comment about super_len
        size = super_len(request.body)
        adapter = self.get_adapter(url=request.url, timeout=self.timeout)
        self.last = adapter
        text = "super_len in a string"
        if isinstance(adapter, HTTPAdapter):
            return adapter.send(request, stream=True)
        for item, (key, value) in enumerate(pairs):
            use(item, key, value, native)
        lam = lambda q, r=FALLBACK: q + r
        return f"{size} {osp.join(a, b)}"
"""


def test_python_calls_attributes_and_qualifiers() -> None:
    found = refs(PY, "python")
    assert [(r.line, r.kind, r.qualifier) for r in find(found, "super_len")] == [
        (2, "import", "requests.utils"),
        (15, "call", ""),
    ]
    (get_adapter,) = find(found, "get_adapter")
    assert (get_adapter.kind, get_adapter.qualifier, get_adapter.line) == ("call", "self", 16)
    assert find(found, "body", "attribute")[0].qualifier == "request"
    (join,) = find(found, "join")
    assert (join.kind, join.qualifier) == ("call", "osp")  # inside an f-string expression
    assert find(found, "send", "call")[0].qualifier == "adapter"
    assert find(found, "isinstance", "call") and find(found, "HTTPAdapter", "reference")
    assert find(found, "native", "reference")  # a name passed as an argument


def test_python_imports() -> None:
    found = refs(PY, "python")
    assert {(r.name, r.qualifier) for r in found if r.kind == "import"} == {
        ("os", ""),
        ("path", "os"),
        ("super_len", "requests.utils"),
        ("to_native", "requests.utils"),
        ("requests", ""),
        ("utils", "requests"),
        ("sibling", "."),
    }
    # an alias binds a name: only its later reads count (osp.join on the last line)
    assert {(r.line, r.kind) for r in find(found, "osp")} == {(24, "reference")}
    assert {(r.line, r.kind) for r in find(found, "native")} == {(22, "reference")}


def test_python_inheritance_decorators_and_types() -> None:
    k = kinds(PY, "python")
    assert k["BaseSession"] == {"inherit"}
    assert k["Redirects"] == {"inherit"}
    assert k["Meta"] == {"reference"}  # a keyword's value is read
    assert k["register"] == {"decorator"}
    assert k["cached"] == {"decorator"}
    assert k["Timeout"] == {"type"}
    assert k["PreparedRequest"] == {"type"}
    assert k["Response"] == {"type"}
    assert k["DEFAULT"] == {"reference"}
    assert k["FALLBACK"] == {"reference"}


def test_python_non_references() -> None:
    found = refs(PY, "python")

    def lines(name: str) -> set[int]:
        return {r.line for r in find(found, name)}

    # the names being defined: class, method, parameters, lambda parameters
    for name in ("Session", "args", "retries", "kwargs"):
        assert not lines(name), name
    assert lines("q") == lines("r") == {23}  # the lambda body reads them; its parameters don't
    assert lines("send") == {20}  # adapter.send(...) only, not `def send`
    assert lines("request") == {15, 16, 20}  # read in the body, not the parameter on line 13
    # keyword-argument names (url=, timeout=, stream=, metaclass=) are not references
    assert lines("url") == {16}  # request.url
    assert lines("timeout") == {16}  # self.timeout
    assert not lines("stream") and not lines("metaclass")
    # assignment targets (plain, attribute writes, loop variables)
    assert lines("size") == {24}
    assert lines("adapter") == {17, 19, 20}
    assert not lines("lam") and not lines("text") and not lines("last")
    assert lines("item") == lines("key") == lines("value") == {22}
    # strings, docstrings and comments
    assert lines("super_len") == {2, 15}
    assert not lines("Adapter")


def test_python_assignment_targets() -> None:
    found = refs(
        """\
        a, (b, *c) = d
        self.x.y = z
        obj[key] = 1
        total += step
        (w := compute())
        del cache.entry
        with open(p) as (f, g):
            pass
        try:
            pass
        except (KeyError, ValueError) as err:
            pass
        """,
        "python",
    )
    names = {r.name for r in found}
    assert names.isdisjoint({"a", "b", "c", "y", "total", "w", "f", "g", "err"})
    assert {"d", "self", "x", "z", "obj", "key", "step", "compute", "cache", "entry"} <= names
    assert {"open", "p", "KeyError", "ValueError"} <= names


def test_python_match_statement() -> None:
    k = kinds(
        """\
        match event:
            case Click(position=(x, y), button=Button.LEFT):
                handle(x)
            case [first, *rest]:
                pass
            case other:
                pass
        """,
        "python",
    )
    assert {"event", "Click", "Button", "LEFT", "handle"} <= set(k)
    assert "position" not in k and "first" not in k and "rest" not in k and "other" not in k
    assert "button" not in k and "y" not in k


def test_python_duplicates_on_a_line_collapse() -> None:
    found = refs("f(f(f(1)))\n", "python")
    assert [(r.name, r.kind) for r in found] == [("f", "call")]


def test_python_identifiers_are_nfkc_normalised() -> None:
    assert find(refs("print(\uff57\uff49\uff44\uff54\uff48)\n", "python"), "width")


def test_python_misparsed_type_call_target() -> None:
    found = refs("type(obj).__cache = value\n", "python")
    assert find(found, "type", "call") and find(found, "value")
    assert not find(found, "__cache")


# ---------------------------------------------------------------------------------------------
# JavaScript / TypeScript / TSX
# ---------------------------------------------------------------------------------------------

JS = """\
import React, { useState as useLocal, Component } from 'react';
import * as path from "node:path";
const fs = require('fs'), { readFile, stat: statFn } = require('fs/promises');
const methods = require('./utils').methods;

@observer
class Panel extends Component {
  render() {
    const [count, setCount] = useLocal(0);
    this.cache = helper(count, { key: value, shorthand });
    // helper in a comment
    const s = "helper in a string";
    return <Widget.Item size={count} onClick={() => this.handle(count)}><div/></Widget.Item>;
  }
}
export { Panel as Default, other };
function outer(a, b = DEFAULT, ...rest) { return new Service.Client(a); }
const arrow = x => x * factor;
"""


def test_javascript() -> None:
    found = refs(JS, "javascript")
    k = kinds(JS, "javascript")
    assert k["Component"] == {"import", "inherit"}
    assert k["useState"] == {"import"} and "useLocal" in k  # called under its alias
    assert find(found, "React", "import")[0].qualifier == "react"
    assert find(found, "readFile", "import")[0].qualifier == "fs/promises"
    assert find(found, "stat", "import") and "statFn" not in k
    assert find(found, "methods", "import")[0].qualifier == "./utils"
    assert k["observer"] == {"decorator"}
    assert find(found, "handle", "call")[0].qualifier == "this"
    assert find(found, "Client", "call")[0].qualifier == "Service"
    assert find(found, "Item", "call")[0].qualifier == "Widget"
    assert {"helper", "count", "value", "shorthand", "DEFAULT", "factor", "other"} <= set(k)
    # definitions, parameters, object keys, written members, strings, comments, intrinsics
    for name in ("render", "outer", "b", "rest", "setCount", "key", "cache", "arrow", "s",
                 "div", "size", "onClick", "Default", "path"):
        assert name not in k, name
    assert k["fs"] == {"import"}  # the module required, not the variable it is bound to
    assert {r.line for r in find(found, "Panel")} == {16}  # exported (read), not the class line
    assert {r.line for r in find(found, "a")} == {17}  # new Service.Client(a), not the parameter
    assert {r.line for r in find(found, "x")} == {18}  # the arrow body, not its parameter
    assert {r.line for r in find(found, "helper")} == {10}  # not the comment or the string


TS = """\
import type { Options } from './options';
interface Store<T> extends Base<T>, Events { get(key: Key): T | undefined }
type Alias = Map<string, ns.Value>;
enum Color { Red = Seed }
abstract class Cache<V> extends Store<V> implements Disposable, io.Closeable {
  private entries: Entry<V>[] = [];
  constructor(private readonly loader: Loader, public opts?: Options) { super(); }
  @memoize() lookup({ id }: Query = {}): Result { return this.loader.load(id); }
}
function make(this: Window, n?: number): asserts n is Count {}
"""


def test_javascript_call_and_apply_are_calls_of_the_function() -> None:
    for language in ("javascript", "typescript"):
        got = [(r.name, r.kind, r.qualifier) for r in refs("""
            function wrap(sch) {
              compileSchema.call(this, sch)
              this.helper.apply(this, [sch])
              return other.call
            }
            """, language)]
        assert ("compileSchema", "call", "") in got and ("helper", "call", "this") in got
        assert not any(name in ("call", "apply") and kind == "call" for name, kind, _ in got)
        assert ("call", "attribute", "other") in got  # read, not called


def test_typescript() -> None:
    found = refs(TS, "typescript")
    k = kinds(TS, "typescript")
    assert k["Options"] == {"import", "type"}
    assert k["Base"] == {"inherit"} and k["Events"] == {"inherit"}
    assert k["Store"] == {"inherit"}  # its own declaration is not a reference
    assert {r.line for r in find(found, "Store")} == {5}
    assert k["Disposable"] == {"inherit"} and k["Closeable"] == {"inherit"}
    assert find(found, "Closeable")[0].qualifier == "io"
    for name in ("Key", "Map", "Value", "Entry", "Loader", "Query", "Result", "Window", "Count"):
        assert k[name] == {"type"}, name
    assert find(found, "Value")[0].qualifier == "ns"
    assert k["memoize"] == {"decorator"}
    assert find(found, "load", "call")[0].qualifier == "this.loader"
    assert k["Seed"] == {"reference"}
    for name in ("Alias", "Color", "Cache", "T", "V", "key", "loader", "opts", "id", "make", "Red"):
        if name in ("T", "V"):  # type parameters: their uses are references, not the declaration
            assert all(r.kind == "type" for r in find(found, name))
        elif name == "loader":
            assert {r.line for r in find(found, name)} == {8}  # this.loader.load
        elif name == "id":
            assert {r.line for r in find(found, name)} == {8}
        else:
            assert name not in k, name


def test_tsx_components() -> None:
    k = kinds("const el = <Layout.Header title={t}><span>{child}</span></Layout.Header>;\n", "tsx")
    assert k["Header"] == {"call"} and "Layout" in k and "t" in k and "child" in k
    assert "span" not in k and "title" not in k


# ---------------------------------------------------------------------------------------------
# Go, Java, Rust, C, C++, C#, Ruby, PHP, Kotlin
# ---------------------------------------------------------------------------------------------

GO = """\
package server

import (
	"fmt"
	str "net/http"
)

type Server struct {
	Base
	*Logger
	Addr string
	mux  *http.ServeMux
}

func (s *Server) Handle(w http.ResponseWriter, r *Request) (n int, err error) {
	total := compute(r.Body, limit)
	s.mux = router.New(total) // compute in a comment
	for i, item := range items { use(i, item) }
	cfg := Config{Name: name}
	return fmt.Println("compute in a string")
}
"""


def test_go() -> None:
    found = refs(GO, "go")
    k = kinds(GO, "go")
    assert find(found, "fmt", "import") and find(found, "http", "import")[0].qualifier == "net"
    assert k["Base"] == {"inherit"} and k["Logger"] == {"inherit"}
    assert find(found, "ServeMux", "type")[0].qualifier == "http"
    assert k["ResponseWriter"] == {"type"} and k["Request"] == {"type"} and k["Server"] == {"type"}
    assert find(found, "Println", "call")[0].qualifier == "fmt"
    assert find(found, "New", "call")[0].qualifier == "router"
    assert k["compute"] == {"call"} and {r.line for r in find(found, "compute")} == {16}
    assert find(found, "Body", "attribute")[0].qualifier == "r"
    assert k["Config"] == {"call"} and "name" in k and "limit" in k and "items" in k
    for name in ("Handle", "n", "err", "w", "total_def", "cfg", "Name", "Addr", "str", "mux"):
        if name == "w":
            assert name not in k
        elif name not in ("total_def",):
            assert name not in k, name
    assert {r.line for r in find(found, "total")} == {17}
    assert {r.line for r in find(found, "s")} == {17}  # the receiver is a parameter


JAVA = """\
package com.example.app;
import java.util.List;
import static org.junit.Assert.assertEquals;

@Service
public class Repo<T> extends BaseRepo<T> implements Closeable, io.Flushable {
  private final Map<String, Entity> cache = new HashMap<>();
  @Override
  public Result find(int id, Filter... filters) throws NotFound {
    Entity e = loader.load(id); // loader in a comment
    this.last = helper(e, "loader in a string");
    for (Item item : items) { process(item); }
    return Result.of(e).orElse(DEFAULT);
  }
}
"""


def test_java() -> None:
    found = refs(JAVA, "java")
    k = kinds(JAVA, "java")
    assert find(found, "List", "import")[0].qualifier == "java.util"
    assert find(found, "assertEquals", "import")
    assert k["BaseRepo"] == {"inherit"} and k["Closeable"] == {"inherit"}
    assert find(found, "Flushable")[0].qualifier == "io"
    assert k["Service"] == {"decorator"} and k["Override"] == {"decorator"}
    assert k["HashMap"] == {"call"}
    for name in ("Map", "String", "Entity", "Result", "Filter", "NotFound", "Item"):
        assert "type" in k[name], name
    assert find(found, "load", "call")[0].qualifier == "loader"
    assert find(found, "orElse", "call")[0].qualifier == "Result.of(e)"
    assert {r.line for r in find(found, "loader")} == {10}
    assert {"helper", "process", "items", "DEFAULT"} <= set(k)
    for name in ("Repo", "find", "id_param", "filters", "cache", "last", "example", "app"):
        if name != "id_param":
            assert name not in k, name
    assert {r.line for r in find(found, "id")} == {10}


RUST = """\
use std::collections::{HashMap, hash_map::Entry as Slot};
use crate::store::Backend;

#[derive(Debug)]
struct Cache<T: Clone> { map: HashMap<Key, T>, backend: io::Handle }

impl<T> Storage for Cache<T> where T: Send {
    fn get(&self, key: &Key, (a, b): (u8, u8)) -> Option<Value> {
        let hit = lookup(key); // lookup in a comment
        self.map.insert(hit, "lookup in a string");
        Backend::connect();
        match hit { Some(v) => v, None => fallback, other => other }
    }
}
"""


def test_rust() -> None:
    found = refs(RUST, "rust")
    k = kinds(RUST, "rust")
    assert find(found, "HashMap", "import")[0].qualifier == "std::collections"
    assert find(found, "Entry", "import")[0].qualifier == "hash_map"
    assert "Slot" not in k
    assert find(found, "Backend", "import")[0].qualifier == "crate::store"
    assert k["derive"] == {"decorator"}
    assert k["Storage"] == {"inherit"}
    assert {"Clone", "Key", "Send", "Value", "Option"} <= {n for n, ks in k.items() if "type" in ks}
    assert find(found, "Handle", "type")[0].qualifier == "io"
    assert find(found, "insert", "call")[0].qualifier == "self.map"
    assert find(found, "connect", "call")[0].qualifier == "Backend"
    assert {r.line for r in find(found, "lookup")} == {9}
    assert "None" in k and "fallback" in k
    for name in ("Cache_def", "get", "a", "b", "map_field"):
        if not name.endswith(("_def", "_field")):
            assert name not in k, name
    assert {r.line for r in find(found, "Cache")} == {7}
    assert {r.line for r in find(found, "map")} == {10}
    assert {r.line for r in find(found, "hit")} == {10, 12}


RUST_MACROS = """\
quickcheck! {
    fn prop(it: Vec<u8>) -> bool {
        let groups = it.group_by(|k| *k);
        crate::check::all(&groups)
    }
}
fn main() {
    assert_eq!(a.len(),
               vec![b.iter().count(), format!("{}", self.name())]);
    let n = q.len();
}
"""


def test_rust_macro_arguments_are_read_as_code() -> None:
    found = refs(RUST_MACROS, "rust")
    assert [(r.kind, r.qualifier, r.line) for r in find(found, "group_by")] == [("call", "it", 3)]
    assert [(r.kind, r.qualifier) for r in find(found, "all")] == [("call", "crate::check")]
    assert find(found, "Vec")[0].kind == "type"
    assert "prop" not in {r.name for r in found}  # a definition in the macro, not a use
    assert sorted((r.qualifier, r.line) for r in find(found, "len")) == [("a", 8), ("q", 10)]
    assert [(r.kind, r.qualifier, r.line) for r in find(found, "count")] == [("call", "b.iter()", 9)]
    # a macro call inside a macro's arguments is read too, one level deeper
    assert [(r.kind, r.qualifier) for r in find(found, "name")] == [("call", "self")]
    assert {r.name for r in found if r.kind == "call"} >= {"quickcheck", "assert_eq", "vec", "format"}
    assert [r.line for r in found] == sorted(r.line for r in found)


def test_rust_macro_text_that_is_not_code_keeps_its_names() -> None:
    found = refs("fn f() { select! { v = rx.recv() => handle(v), _ = stop => {} } }", "rust")
    assert {"rx", "recv", "handle", "stop"} <= {r.name for r in found}


C_SRC = """\
#include <stdio.h>
#include "util/strings.h"

typedef struct node { int value; struct node *next; } Node;

static int count(Node *head, size_t limit);

int main(int argc, char **argv) {
    Node first = { .value = 1 };
    int total = count(&first, MAX_NODES); /* count in a comment */
    first.next->value = total;
    printf("count in a string %d", sizeof(Node));
    return total;
}
"""


def test_c() -> None:
    found = refs(C_SRC, "c")
    k = kinds(C_SRC, "c")
    assert find(found, "stdio.h", "import")
    assert find(found, "strings.h", "import")[0].qualifier == "util"
    assert {r.line for r in find(found, "count")} == {10}
    assert k["printf"] == {"call"} and "MAX_NODES" in k
    assert "type" in k["Node"] and "type" in k["node"]
    assert find(found, "next", "attribute")[0].qualifier == "first"
    assert "value" not in k  # written through first.next->value and a designator
    for name in ("main", "argc", "head", "limit", "first_decl"):
        if name != "first_decl":
            assert name not in k, name
    assert {r.line for r in find(found, "total")} == {11, 13}


CPP = """\
#include <vector>
using std::string;
namespace app {
class Widget : public Base, protected ui::Themed<Widget> {
 public:
  explicit Widget(int size) : size_(size) {}
  void draw() override;
};
}
void app::Widget::draw() {
  auto canvas = std::make_unique<Canvas>(size_);
  this->size_ = helper(canvas.get());
  ui::paint(canvas);
  Shape* s = new geo::Circle(2);
}
"""


def test_cpp() -> None:
    found = refs(CPP, "cpp")
    k = kinds(CPP, "cpp")
    assert find(found, "vector", "import") and find(found, "string", "import")
    assert k["Base"] == {"inherit"} and find(found, "Themed", "inherit")[0].qualifier == "ui"
    assert find(found, "make_unique", "call")[0].qualifier == "std"
    assert find(found, "Canvas", "type")
    assert find(found, "paint", "call")[0].qualifier == "ui"
    assert find(found, "Circle", "call")[0].qualifier == "geo"
    assert find(found, "get", "call")[0].qualifier == "canvas"
    assert "helper" in k and "Shape" in k
    assert "draw" not in k and "size" in k  # the parameter read in size_(size)
    assert {r.line for r in find(found, "size_")} == {11}  # `this->size_ = ...` is a write


CSHARP = """\
using System.Text;
using Json = Newtonsoft.Json;
namespace Shop.Orders {
  [Serializable, Table("orders")]
  public class Order<T> : Entity<T>, IValidatable where T : IItem {
    private List<Line> lines = new List<Line>();
    public Money Total(int count, out Receipt receipt) {
      var sum = Calculator.Sum(lines, precision: 2);
      this.cache = repo.Find(sum).Value;
      receipt = default;
      return Helper(sum);
    }
  }
}
"""


def test_csharp() -> None:
    found = refs(CSHARP, "c_sharp")
    k = kinds(CSHARP, "c_sharp")
    assert find(found, "Text", "import")[0].qualifier == "System"
    assert find(found, "Json", "import")[0].qualifier == "Newtonsoft"  # the alias itself is not
    assert {r.line for r in find(found, "Json")} == {2}
    assert k["Serializable"] == {"decorator"} and k["Table"] == {"decorator"}
    assert k["Entity"] == {"inherit"} and k["IValidatable"] == {"inherit"}
    assert "type" in k["Line"] and "call" in k["List"]
    assert k["Money"] == {"type"} and k["Receipt"] == {"type"} and "type" in k["IItem"]
    assert find(found, "Sum", "call")[0].qualifier == "Calculator"
    assert find(found, "Value", "attribute")[0].qualifier == "repo.Find(sum)"
    assert k["Helper"] == {"call"}
    for name in ("Order", "Total", "count", "receipt", "sum_decl", "precision", "cache", "Shop"):
        if name == "sum_decl":
            continue
        assert name not in k, name


RUBY = """\
require 'json'
require_relative "lib/cache"

module Shop
  class Cart < Base::Model
    include Enumerable
    def total(items, rate = DEFAULT_RATE, *rest, discount: 0, &block)
      sum = compute(items) # compute in a comment
      @last = sum
      self.cached = Pricing::Tax.apply(sum, rate: rate)
      items.each { |item| track(item) }
      puts "compute in a string #{label}"
    end
  end
end
"""


def test_ruby() -> None:
    found = refs(RUBY, "ruby")
    k = kinds(RUBY, "ruby")
    assert find(found, "json", "import") and find(found, "cache", "import")[0].qualifier == "lib"
    assert find(found, "Model", "inherit")[0].qualifier == "Base"
    assert k["Enumerable"] == {"inherit"}
    assert {r.line for r in find(found, "compute")} == {8}
    assert find(found, "apply", "call")[0].qualifier == "Pricing::Tax"
    assert find(found, "each", "call")[0].qualifier == "items"
    assert {"DEFAULT_RATE", "track", "label", "puts"} <= set(k)
    for name in ("Shop", "Cart", "total", "rest", "discount", "block", "cached", "@last", "item"):
        if name == "item":
            assert {r.line for r in find(found, name)} == {11}
        else:
            assert name not in k, name


PHP = """\
<?php
namespace App\\Billing;
use Vendor\\Payment\\Gateway as Gw, Vendor\\Log\\Logger;
require_once 'lib/helpers.php';

#[Route("/pay")]
class Invoice extends Model implements Payable, \\Contracts\\Exportable {
    use HasItems;
    public function charge(Card $card, int $amount = 0): Receipt {
        $result = process($card, $amount); // process in a comment
        $this->status = $this->gateway->send($result)->code;
        Logger::info("process in a string");
        return new Receipt(total: $result);
    }
}
"""


def test_php() -> None:
    found = refs(PHP, "php")
    k = kinds(PHP, "php")
    assert find(found, "Gateway", "import")[0].qualifier == "Vendor\\Payment"
    assert "Gw" not in k and find(found, "Logger", "import")
    assert find(found, "helpers.php", "import")[0].qualifier == "lib"
    assert k["Route"] == {"decorator"}
    assert k["Model"] == k["Payable"] == k["HasItems"] == {"inherit"}
    assert find(found, "Exportable", "inherit")
    assert k["Card"] == {"type"} and "type" in k["Receipt"] and "call" in k["Receipt"]
    assert {r.line for r in find(found, "process")} == {10}
    assert find(found, "send", "call")[0].qualifier == "$this->gateway"
    assert find(found, "code", "attribute") and find(found, "info", "call")[0].qualifier == "Logger"
    for name in ("Invoice", "charge", "$card_param", "status", "total", "App", "Billing"):
        if name != "$card_param":
            assert name not in k, name
    assert {r.line for r in find(found, "$card")} == {10}
    assert {r.line for r in find(found, "$result")} == {11, 13}


PHP_CALLABLES = """\
<?php
class Parser {
    public function parse(Stream $stream): Node {
        $body = $this->parser->subparse([$this, 'decideEnd'], true);
        usort($items, [self::class, "compareItems"]);
        array_map([Normalizer::class, 'normalize'], $items);
        register_shutdown_function([$handler, 'onShutdown']);
        $pair = [$this, 'not a method name'];
        $constants = [Limits::MAX, 'ceiling'];
        $triple = [$this, 'first', 'second'];
        $plain = ['decideEnd', 'other'];
        return $body;
    }
}
"""


def test_php_callable_arrays_call_the_method_they_name() -> None:
    found = refs(PHP_CALLABLES, "php")
    calls = {(r.name, r.qualifier) for r in found if r.kind == "call"}
    assert {("decideEnd", "$this"), ("compareItems", "self"), ("normalize", "Normalizer"),
            ("onShutdown", "$handler")} <= calls
    # a string that is no name, a pair whose first element is no receiver, longer arrays and plain string lists
    for name in ("not a method name", "ceiling", "first", "second", "other"):
        assert not find(found, name), name
    assert {r.line for r in find(found, "decideEnd")} == {4}


KOTLIN = """\
package com.example.shop
import kotlinx.coroutines.launch
import com.example.data.Repo as Repository

@Serializable
class Cart<T>(val owner: User, size: Int) : BaseCart<T>(owner), Checkout, io.Closeable {
    override fun total(rate: Double): Money {
        val sum = compute(items, rate) // compute in a comment
        this.cached = repo.find(sum).value
        items.forEach { item -> track(item) }
        Pricing.apply(sum, mode = FAST)
        return Money("compute in a string")
    }
}
"""


def test_kotlin() -> None:
    found = refs(KOTLIN, "kotlin")
    k = kinds(KOTLIN, "kotlin")
    assert find(found, "launch", "import")[0].qualifier == "kotlinx.coroutines"
    assert find(found, "Repo", "import") and "Repository" not in k
    assert k["Serializable"] == {"decorator"}
    assert k["BaseCart"] == {"inherit"} and k["Checkout"] == {"inherit"}
    assert find(found, "Closeable", "inherit")[0].qualifier == "io"
    assert k["User"] == {"type"} and k["Double"] == {"type"} and "type" in k["Money"]
    assert {r.line for r in find(found, "compute")} == {8}
    assert find(found, "find", "call")[0].qualifier == "repo"
    assert find(found, "forEach", "call")[0].qualifier == "items"
    assert find(found, "apply", "call")[0].qualifier == "Pricing"
    assert "FAST" in k and "track" in k
    for name in ("Cart", "total", "size", "cached", "mode", "shop"):
        assert name not in k, name
    assert {r.line for r in find(found, "example")} == {3}  # the import, not the package header
    assert {r.line for r in find(found, "rate")} == {8}
    assert {r.line for r in find(found, "item")} == {10}


def test_every_kind_is_documented() -> None:
    seen = {r.kind for src, lang in ((PY, "python"), (JS, "javascript")) for r in refs(src, lang)}
    assert seen <= set(KINDS)
    assert {"call", "attribute", "import", "type", "inherit", "decorator", "reference"} <= seen
