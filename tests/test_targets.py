"""Picking the likely target of a reference among same-named definitions (``codesift.tools.targets``)."""

from codesift.tools.targets import (UNRESOLVED, Resolver, Scope, base_names, components, extended_type, labels,
                                    return_type, signature_bindings)


def test_components_of_qualifiers():
    assert components("net::Conn::new(2)") == ["net", "Conn", "new"]  # a call's result: what was called
    assert components('server.NewServer(":80")') == ["server", "NewServer"]
    assert components("Vec::<T>::new") == ["Vec", "new"]
    assert components("$this->conn") == ["this", "conn"]
    assert components("") == []


def test_signature_bindings_per_language():
    assert signature_bindings("func (s *Server) Start() error", "go") == {"s": "Server"}
    assert signature_bindings("func Run(srv *server.Server, a, b *Client, n int)", "go") == {
        "srv": "Server", "a": "Client", "b": "Client", "n": "int"}
    assert signature_bindings("pub fn close(&self, c: &'a mut Box<Conn>) -> Self", "rust") == {"c": "Conn"}
    assert signature_bindings("def save(self, c: Optional[Cache] = None) -> Model", "python") == {"c": "Cache"}
    assert signature_bindings("public void run(Conn c, int n)", "java") == {"c": "Conn", "n": "int"}
    assert signature_bindings("function f(c: Conn, d?: Cache)", "typescript") == {"c": "Conn", "d": "Cache"}


def test_base_names():
    assert base_names("class Sub(Base, pkg.Mixin, metaclass=Meta):") == ["Base", "Mixin"]
    assert base_names("public class A<T> extends B<T> implements C") == ["B", "C"]
    assert base_names("class A : public B") == ["B"]


def _t(qualified: str, path: str, kind: str = "method") -> dict[str, object]:
    parent = qualified.rsplit(".", 1)[0] if "." in qualified else None
    return {"qualified_name": qualified, "path": path, "parent": parent, "kind": kind, "start_line": 1}


def test_resolver_steps():
    targets = [_t("Server.Start", "server/server.go"), _t("Client.Start", "client/client.go"),
               _t("Start", "util/start.go", "function")]
    body = {"client/run.go": ["func Run() {", "\tother := &Client{}", "\ts2 := server.NewServer()",
                              "\tother.Start()", "\ts2.Start()", "\tx.Start()", "}"]}
    r = Resolver(targets, lambda p: body.get(p, []), {"client/imp.go": "example.com/app/util"})
    run = Scope(1, 7, "Run", "function", None, "func Run()")
    assert r.resolve("client/run.go", 4, "other", [run], "go") == "Client.Start"  # &Client{}
    assert r.resolve("client/run.go", 5, "s2", [run], "go") == "Server.Start"  # NewServer()
    assert r.resolve("client/run.go", 6, "x", [run], "go") == UNRESOLVED  # nothing says what x is
    method = Scope(1, 9, "Server.serve", "method", "Server", "func (s *Server) serve(c *Client)")
    assert r.resolve("server/server.go", 3, "s", [method], "go") == "Server.Start"  # the receiver
    assert r.resolve("server/server.go", 4, "c", [method], "go") == "Client.Start"  # a parameter
    assert r.resolve("a.go", 1, "Client", [], "go") == "Client.Start"  # a type's method expression
    assert r.resolve("a.go", 1, "util", [], "go") == "Start"  # a package-qualified function
    assert r.resolve("client/imp.go", 2, "", [], "go") == "Start"  # bare, imported from util
    assert r.resolve("a.go", 1, "io.Reader", [], "go") == UNRESOLVED


def test_resolver_follows_inheritance_and_self_in_nested_functions():
    targets = [_t("Base.get", "app/base.py"), _t("Other.get", "app/other.py")]
    r = Resolver(targets, lambda p: ["x = Sub()", "x.get()"], {}, bases_of=lambda t: {"Sub": ["Base"]}.get(t, []))
    assert r.resolve("app/use.py", 2, "x", [], "python") == "Base.get"
    nested = Scope(3, 5, "Base.as_view.view", "function", "Base.as_view", "def view()")
    assert r.resolve("app/base.py", 4, "self", [nested], "python") == "Base.get"
    sub = Scope(1, 9, "Sub.get", "method", "Sub", "def get(self)")
    assert r.resolve("app/sub.py", 2, "super()", [sub], "python") == "Base.get"


def test_return_types_and_locals_assigned_from_calls():
    assert return_type("def current(silent: bool = False) -> t.Optional['Context']:", "python") == "Context"
    assert return_type("pub fn new(id: u32) -> Self", "rust", "Conn") == "Conn"
    assert return_type("fn open() -> Result<File, Error>", "rust") == "File"
    assert return_type("func (s *Server) Get(k string) (*Conn, error)", "go") == "Conn"
    assert return_type("func NewServer(addr string) *Server", "go") == "Server"
    assert return_type("function f(a: number): Conn", "typescript") == "Conn"
    assert return_type("public Conn open(String x)", "java") == "Conn"
    assert return_type("public void run()", "java") == return_type("def f(x):", "python") == ""
    targets = [_t("Context.invoke", "core.py"), _t("CliRunner.invoke", "testing.py")]
    lines = ["def outer(runner: CliRunner):", "    def inner():", "        ctx = current()",
             "        ctx.invoke(f)", "        runner.invoke(f)", "        current().invoke(f)"]
    r = Resolver(targets, lambda p: lines, {}, returns_of={"current": "Context"}.get)
    outer = Scope(1, 6, "outer", "function", None, "def outer(runner: CliRunner):")
    inner = Scope(2, 6, "outer.inner", "function", None, "def inner():")
    assert r.resolve("a.py", 4, "ctx", [inner, outer], "python") == "Context.invoke"
    assert r.resolve("a.py", 5, "runner", [inner, outer], "python") == "CliRunner.invoke"  # a closure's variable
    assert r.resolve("a.py", 6, "current()", [inner, outer], "python") == "Context.invoke"


def test_labels_tell_same_named_definitions_apart():
    same = [_t("helper", "src/a.rs", "function"), _t("helper", "src/b.rs", "function"), _t("X.helper", "x.rs")]
    assert labels(same) == ["helper (src/a.rs)", "helper (src/b.rs)", "X.helper"]
    # overloads of one file share their label: a call resolves to the family
    overloads = [_t("B.add", "B.java"), _t("B.add", "B.java"), _t("C.add", "C.java")]
    assert labels(overloads) == ["B.add", "B.add", "C.add"]


def test_rust_method_call_on_a_value_of_unknown_type_is_the_one_method():
    # a test function shares the trait method's name; ``value.group_by(…)`` cannot call a free function
    targets = [_t("Itertools.group_by", "src/lib.rs"), _t("group_by", "tests/test_std.rs", "function")]
    lines = ["fn t(data: &[u8]) {", "    let g = it.group_by(|k| *k);", "    data.iter().group_by(f);",
             "    it::group_by(x);", "    let h = it  .  group_by(f);", "}"]
    r = Resolver(targets, lambda p: lines, {})
    scope = Scope(1, 6, "t", "function", None, "fn t(data: &[u8])")
    assert r.resolve("tests/a.rs", 2, "it", [scope], "rust") == "Itertools.group_by"
    assert r.resolve("tests/a.rs", 3, "data.iter()", [scope], "rust") == "Itertools.group_by"
    assert r.resolve("tests/a.rs", 4, "it", [scope], "rust") == UNRESOLVED  # a path: a module's function
    assert r.resolve("tests/a.rs", 5, "it", [scope], "rust") == "Itertools.group_by"
    assert r.resolve("src/a.py", 2, "it", [scope], "python") == UNRESOLVED  # a module's function there
    # two methods of that name: nothing tells them apart
    two = Resolver([*targets, _t("Other.group_by", "src/other.rs")], lambda p: lines, {})
    assert two.resolve("tests/a.rs", 2, "it", [scope], "rust") == UNRESOLVED
    # without the live source a dot cannot be told from a path
    blind = Resolver(targets, None, {})
    assert blind.resolve("tests/a.rs", 2, "it", [scope], "rust") == UNRESOLVED


def test_go_multiple_assignment_takes_the_first_result_type():
    targets = [_t("Client.Start", "cli/client.go"), _t("Server.Start", "srv/server.go")]
    lines = ["func run() {", "\tc, _ := cli.Dial()", "\tc.Start()", "\ts, err := srv.NewServer()", "\ts.Start()",
             "\tcall(x, key=make())", "\tx.Start()", "}"]
    r = Resolver(targets, lambda p: lines, {}, returns_of={"Dial": "Client", "make": "Server"}.get)
    run = Scope(1, 8, "run", "function", None, "func run()")
    assert r.resolve("app/main.go", 3, "c", [run], "go") == "Client.Start"  # Dial returns (*Client, error)
    assert r.resolve("app/main.go", 5, "s", [run], "go") == "Server.Start"  # NewServer makes a Server
    assert r.resolve("app/main.go", 7, "x", [run], "go") == UNRESOLVED  # key=make() is an argument, not x's value


def test_parameters_with_generic_types_each_keep_their_own_type():
    # a greedy ``<…>`` ran on to the next parameter's ``>``: ``b: List``, and ``a`` lost
    assert signature_bindings("void f(List<A> a, Map<B, C> b)", "java") == {"a": "List", "b": "Map"}
    assert signature_bindings("void f(Map<String, List<Integer>> m, Foo<X> x)", "java") == {"m": "Map", "x": "Foo"}
    sig = ("public static Builder<T> AddHedging<[Dynamic(Members.All)] T>( this Builder<T> builder, "
           "Options<T> options)")
    assert signature_bindings(sig, "c_sharp") == {"builder": "Builder", "options": "Options"}


def test_a_csharp_extension_method_is_a_member_of_the_type_it_extends():
    assert extended_type("public static Builder<T> AddStrategy<T>( this Builder<T> builder, int x)") == "Builder"
    assert extended_type("public static TB AddStrategy<TB>(this TB builder) where TB : BuilderBase") == "BuilderBase"
    assert extended_type("public void Run(int x)") == ""
    targets = [{**_t("BuilderExtensions.AddStrategy", "Ext.cs"),
                "signature": "public static Builder<T> AddStrategy<T>( this Builder<T> builder, Func<int> f)"},
               {**_t("BuilderExtensions.AddStrategy", "Ext.cs"),
                "signature": "public static Builder AddStrategy( this Builder builder, Func<int> f)"},
               _t("Pipeline.AddStrategy", "Pipeline.cs")]
    r = Resolver(targets, lambda p: [], {})
    caller = Scope(1, 9, "HedgingExtensions.AddHedging", "method", "HedgingExtensions",
                   "public static Builder<T> AddHedging<T>( this Builder<T> builder, Options<T> options)")
    assert r.resolve("Hedging.cs", 3, "builder", [caller], "c_sharp") == "BuilderExtensions.AddStrategy"
    # a base list read with an empty name in it (a Kotlin primary constructor's ``val x: T = …``) makes no
    # parentless definition, nor one that extends nothing, a member of the type
    sloppy = Resolver([_t("precision", "a.kt", "function"), _t("Builder.precision", "b.kt")], lambda p: [], {},
                      bases_of=lambda name: ["", "PlatformContext"] if name == "Options" else [])
    copy = Scope(1, 9, "Options.copy", "method", "Options", "fun copy(precision: Precision = this.precision)")
    assert sloppy.resolve("c.kt", 3, "this", [copy], "kotlin") == UNRESOLVED
