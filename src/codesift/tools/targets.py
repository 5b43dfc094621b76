"""Which definition a reference most likely points at, when several share its name.

Static and best-effort, from what the reference index and the live source give: the reference's
qualifier (``srv`` in ``srv.Start()``, ``net::Conn`` in ``net::Conn::new``), the signature of the
definition enclosing it (receiver and parameter types), local declarations above it in the live
file (``c := &Client{}``, ``let c = Conn::new(1)``, ``c = Cache()``) and the file's imports. The
steps, first hit wins:

1. a receiver type: ``self``/``this``/``Self`` is the enclosing type; a variable gets the type of
   the Go receiver or parameter, the Rust/Python/TS parameter annotation, or the local declaration;
   a qualifier that is itself a type (``Conn::new``, ``Model.save``) is that type. A method of
   that type is the target, else of what its body mixes in (a Ruby module it includes, a PHP trait it
   uses: before its base classes), else of its bases; inside a Ruby module or PHP trait with no such method,
   a method of a type that mixes it in (:mod:`codesift.tools.lookups`). A known type with none of these is
   ``unresolved`` (an outside type), and so is a receiver that is an expression (``(a || b).to_s``);
2. a module or package path (``server.NewServer``, ``crate::net::helper``, ``app.base.make``) or,
   for a bare name, the module the file imports it from: the definition in that file or folder, or in a Go
   file of that package (``chi.URLParam`` from a repository whose root is ``package chi``);
3. a bare name: the method of the enclosing type where calls need no receiver (Java, C#, C++,
   Kotlin, Ruby), else a free function in the same file, the same folder (a Go package), or the
   only free function of that name; but a name the enclosing function binds itself (a parameter, a
   local such as ``fn = getattr(obj, "fn")``) is ``unresolved``: it holds whatever it was given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

from codesift.datatypes import PATH_HEADS, module_parts
from codesift.tools.payloads import Target

UNRESOLVED = "unresolved"
SELF_WORDS = frozenset({"self", "this", "Self", "cls", "me"})
IMPLICIT_THIS = frozenset({"java", "c_sharp", "cpp", "kotlin", "ruby"})
# Where ``value.name(…)`` can only be a method, never a free function of that name (a path says ``::``).
DOT_CALLS_METHODS = frozenset({"rust"})
MAX_SCAN_LINES = 300  # lines looked at above a reference for a local declaration
_SEP = re.compile(r"::|->|\?\.|\.|\\")
_WRAPPERS = frozenset({"Box", "Rc", "Arc", "Option", "RefCell", "Cell", "Mutex", "RwLock", "Weak", "Pin",
                       "Optional", "ref", "mut", "dyn", "impl", "const", "Ref", "RefMut", "Result", "Promise"})
TYPE_KINDS = frozenset({"class", "struct", "interface", "enum", "trait", "impl", "namespace", "module_def"})
_FUNCTION_KINDS = frozenset({"function", "method", "constructor"})  # what has parameters and locals
_CONSTRUCTORS = frozenset({"new", "default", "create", "builder", "from", "open", "with_capacity"})


@dataclass(frozen=True, slots=True)
class Scope:
    """The definition enclosing a reference."""

    start: int
    end: int
    qualified_name: str
    kind: str
    parent: str | None
    signature: str


def components(qualifier: str) -> list[str]:
    """``net::Conn`` → ``[net, Conn]``; a trailing call is dropped (``Conn::new(2)`` → ``[Conn, new]``)."""
    q = qualifier.strip()
    while q.endswith(")"):  # the receiver is a call: keep what was called
        depth, i = 0, len(q) - 1
        for i in range(len(q) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(q[i], 0)
            if depth == 0:
                break
        q = q[:i].rstrip()
    q = re.sub(r"<[^<>]*>", "", q)  # generic arguments: Vec::<T>::new
    return [p for p in (s.strip("&*!?@$ ") for s in _SEP.split(q)) if p]


def last_name(name: str | None) -> str:
    """``Rack.Request.Env`` → ``Env``, ``net::Conn`` → ``Conn``."""
    return _SEP.split(name)[-1] if name else ""


_EXTENSION = re.compile(r"\(\s*this\s+([A-Za-z_][\w.]*)")


def extended_type(signature: str) -> str:
    """The type a C# extension method extends (``static R F(this Builder b)`` → ``Builder``; ``this TBuilder b``
    with ``where TBuilder : Base`` → ``Base``), or ""."""
    found = _EXTENSION.search(signature)
    if found is None:
        return ""
    name = found.group(1)
    bound = re.search(rf"\bwhere\s+{re.escape(name)}\s*:\s*([A-Za-z_][\w.]*)", signature)
    return last_name(bound.group(1) if bound else name)


def _type_name(text: str) -> str:
    """The nominal type in a type expression: ``*server.Server`` → ``Server``, ``&'a mut Box<Conn>`` → ``Conn``."""
    text = re.sub(r"'\w+\b(?!')", "", text)  # Rust lifetimes, not Python's quoted forward references
    for word in re.findall(r"[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*", text):
        name = last_name(word)
        if name not in _WRAPPERS:
            return name
    return ""


def _module_keys(path: str) -> tuple[str, ...]:
    """The module paths a file answers to: ``src/net/mod.rs`` → ``src/net`` (and its folder ``src``)."""
    parts = module_parts(path)
    return tuple(k for k in ("/".join(parts), "/".join(parts[:-1])) if k)


_RUBY_SUPERCLASS = re.compile(r"\s*class\s+[\w:]+\s*<\s*([A-Z][\w:]*)")  # ``class Page < Base``


def ruby_superclass(signature: str) -> str:
    """The superclass as a Ruby class line writes it: ``class Cookie < Abstract::Persisted`` →
    ``Abstract::Persisted``; "" when it names none."""
    m = _RUBY_SUPERCLASS.match(signature)
    return m.group(1) if m else ""


def base_names(signature: str) -> list[str]:
    """The base types a class-like signature names: ``class A(B, m.C)``, ``class A extends B implements C``,
    ``class A : public B``, ``impl Trait for A`` (the trait's default methods), Ruby's ``class A < B``."""
    ruby = ruby_superclass(signature)
    if ruby:
        return [last_name(ruby)]
    sig = re.sub(r"<[^<>]*>|\[[^\[\]]*\]", "", signature)
    m = re.search(r"\(([^()]*)\)", sig) if sig.lstrip().startswith("class") and "(" in sig else None
    text = re.sub(r"\w+\s*=\s*[\w.]+", "", m.group(1)) if m else ""  # metaclass=…
    m2 = re.search(r"(?:\bextends\b|\bimplements\b|:)\s*(.+)$", sig) if not text else None
    text = text or (m2.group(1) if m2 else "")
    names = [last_name(w) for w in re.findall(r"[A-Za-z_][\w.:]*", text)]
    return [n for n in names if n not in ("public", "private", "protected", "virtual", "implements", "extends",
                                          "metaclass", "object")]


# ``Type name`` with the type's generic arguments balanced (three levels): a greedy ``<…>`` ran on to the next
# parameter's ``>`` (``List<A> a, Map<B, C> b`` read as ``b: List``).
_GENERIC = r"<(?:[^<>()]|<(?:[^<>()]|<[^<>()]*>)*>)*>"
_TYPED_NAME = re.compile(rf"([A-Za-z_][\w.:]*)(?:{_GENERIC})?(?:\[\])*[\s&*]+(\w+)\s*[,)=]")


@lru_cache(maxsize=4096)
def signature_bindings(signature: str, language: str) -> dict[str, str]:
    """Variable → type name from a definition's signature (Go receiver, parameters)."""
    out: dict[str, str] = {}
    if language == "go":
        recv = re.match(r"\s*func\s*\(\s*(\w+)\s+([^)]*)\)", signature)
        if recv:
            out[recv.group(1)] = _type_name(recv.group(2))
        params = re.search(r"\w+\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)", signature[recv.end():] if recv else signature)
        pending: list[str] = []
        for part in (params.group(1).split(",") if params else []):
            bits = part.split(None, 1)
            if not bits:
                continue
            if len(bits) == 1:
                pending.append(bits[0])  # ``a, b T``: the type comes with the last name
                continue
            for name in [*pending, bits[0]]:
                out[name] = _type_name(bits[1])
            pending = []
        return out
    # ``name: Type`` (Rust, Python, TypeScript, Kotlin, Swift, PHP 8 promoted…)
    for name, typ in re.findall(r"(\w+)\??\s*:\s*([&*\w][^,()=]*)", signature):
        out.setdefault(name, _type_name(typ))
    # ``Type name`` (Java, C#, C, C++)
    if language in ("java", "c_sharp", "c", "cpp", "kotlin"):
        for typ, name in _TYPED_NAME.findall(signature):
            out.setdefault(name, _type_name(typ))
    if language == "rust" and re.search(r"\(\s*&?\s*(?:'\w+\s+)?(?:mut\s+)?self\b", signature):
        out.pop("self", None)
    return {k: v for k, v in out.items() if v}


_NOT_TYPES = frozenset({"public", "private", "protected", "static", "final", "abstract", "async", "virtual",
                        "override", "inline", "extern", "void", "def", "fn", "func", "fun", "function", "pub",
                        "None", "self", "Self", "unsafe", "const"})


def return_type(signature: str, language: str, parent: str | None = None) -> str:
    """The type a function's signature says it returns (``-> Conn``, Go ``) *Server``, ``): Conn``,
    Java ``Conn get(``); ``Self`` is the owner ``parent``; "" when it does not say."""
    sig = signature.strip().rstrip("{:").strip()
    if "->" in sig:
        text = re.split(r"\bwhere\b", sig.rsplit("->", 1)[1])[0]
    elif language == "go":
        m = re.match(r"func\s*(?:\([^)]*\)\s*)?\w*\s*(?:\[[^\]]*\])?\s*\((?:[^()]|\([^()]*\))*\)(.*)$", sig)
        text = m.group(1) if m else ""
    elif (m := re.search(r"\)\s*:\s*([^{=]+)$", sig)) is not None:  # TypeScript, Kotlin
        text = m.group(1)
    elif language in ("java", "c_sharp", "c", "cpp") and (m := re.search(r"([\w.<>\[\]:*&]+)\s+[\w:~]+\s*\(", sig)):
        text = m.group(1)
    else:
        return ""
    name = _type_name(text)
    if name == "Self":
        return last_name(parent)
    return "" if name in _NOT_TYPES else name


# ``=`` or ``:=``, or Go's ``, err :=`` binding more names after it (not ``, key=`` in a call's arguments)
_ASSIGN = r"(?:\s*(?::=|=)|(?:\s*,\s*\w+)+\s*:=)"


@lru_cache(maxsize=1024)
def _local_patterns(var: str) -> list[re.Pattern[str]]:
    v = re.escape(var)
    return [
        # typed declarations: ``let c: Conn``, ``c: Cache =``, ``var c Client``, ``Conn c =``
        re.compile(rf"(?<![\w:.]){v}\s*:(?!:)\s*&?\s*(?:mut\s+)?([\w.:]+)"),
        re.compile(rf"\bvar\s+{v}\s+\*?([\w.]+)"),
        re.compile(rf"\b([A-Z][\w.]*)(?:<[^<>]*>)?\s+{v}\s*="),
        # constructors: ``c := &Client{}``, ``c = Cache()``, ``new Conn(``, ``Conn::new(``, ``NewServer(``, and
        # Go's ``c, err := NewClient()`` (the first of several results: the first type the function returns)
        re.compile(rf"\b{v}{_ASSIGN}\s*(?:new\s+|&\s*(?:mut\s+)?)?(?:[\w.]+(?:\.|::))*(?:New)?([A-Z]\w*)"
                   rf"(?:::<[^<>]*>)?\s*(?:::\w+\s*)?[({{]"),
        # any other call: its declared return type (``ctx = get_current_context()``, ``c, _ := cli.Dial()``)
        re.compile(rf"\b{v}{_ASSIGN}\s*(?:await\s+|try\s+)?(?:[\w.]+(?:\.|::))*(\w+)\s*\("),
    ]


CONSTRUCTED = 3  # index of the constructor pattern above
RETURNED = 4  # index of the pattern above whose group is a function name, not a type
# In Go a capitalised call is a function (``rctx := RouteContext(ctx)``), not a type's constructor: only
# ``&T{…}``, ``T{…}`` and ``NewT(…)`` make a ``T``.
_GO_CONSTRUCTOR = re.compile(r"[{]\s*$|(?:^|[^\w])New[A-Z]\w*\s*\($")


def labels(targets: Sequence[Target]) -> list[str]:
    """A name per target that tells same-named ones apart: the qualified name, plus the path when two files
    define it (Go/Rust/Python free functions of two modules). The overloads of one file share their label: a
    call resolves to the family (which overload it picks is left to the compiler)."""
    paths: dict[str, set[str]] = {}
    for t in targets:
        paths.setdefault(t["qualified_name"], set()).add(t["path"])
    return [t["qualified_name"] if len(paths[t["qualified_name"]]) == 1 else f"{t['qualified_name']} ({t['path']})"
            for t in targets]


@lru_cache(maxsize=1024)
def _binding_pattern(name: str, declared_only: bool = False) -> re.Pattern[str]:
    """A line binding ``name`` as a local: ``name = …`` (``name: T = …``, ``a, name = …``, ``let``/``const``/
    ``var``/``val``/``my``, Go's ``:=``), a declaration with its type first (``String name = …``, ``int name;``),
    ``for name in``, ``for (T name : …)``, ``foreach (var name in …)``, ``… as name``; not ``name == …``,
    ``name =~ …``, ``name => …`` nor a call's ``name=…,``. ``declared_only``: not a plain ``name = …``, which
    in most languages assigns a variable declared elsewhere (a field, a property) and binds a new local only in
    Python and Ruby."""
    v = re.escape(name)
    keyword = r"(?:let|const|var|val|my|local|auto)\s+(?:mut\s+)?"
    return re.compile(
        rf"^\s*(?:{keyword}){'' if declared_only else '?'}(?:[\w*]+\s*,\s*)*\*?{v}\s*(?:,\s*[\w*]+\s*)*"
        rf"(?::\s*[^=]+?)?(?::=|=(?![=~>]))(?!.*,\s*$)"
        rf"|^\s*(?:[\w*]+\s*,\s*)*{v}\s*(?:,\s*[\w*]+\s*)*:="
        rf"|^\s*(?:final\s+)?(?!(?:return|else|new|throw|yield|await|case)\b)[A-Za-z_][\w.:]*(?:<[^;=()]*>)?(?:\[\])*"
        rf"[\s*&]+{v}\s*(?:=(?![=~>])|;)"
        rf"|\bfor(?:each)?\s*\(\s*(?:final\s+)?[\w.:<>\[\], ?*&]+?\s+{v}\s*(?::|\bin\b)"
        rf"|\bfor\s+(?:[\w*]+\s*,\s*)*{v}\b[^=]*\bin\b|\bas\s+{v}\s*[:,)]")


ASSIGNMENT_BINDS = frozenset({"python", "ruby"})  # where ``name = …`` in a function makes a new local


_TYPE_FIRST = frozenset({"java", "c_sharp", "c", "cpp", "dart"})  # ``Type name`` parameters


def is_parameter(name: str, signature: str, language: str = "") -> bool:
    """Whether a definition's signature takes a parameter called ``name``: ``def run(fn, *, hook=None)``,
    ``(fn: Callable)``, ``(cb?: Fn)``, Go's ``func run(fn func())``, Java's ``void run(Runnable fn)``."""
    start = signature.find("(")
    if start < 0 or not name:
        return False
    params, v = signature[start:], re.escape(name)
    if language in _TYPE_FIRST:
        return re.search(rf"[\w>\]*&]\s+{v}\s*[,)=\[]", params) is not None
    after = r"\??\s*[:=,)\s]" if language == "go" else r"\??\s*[:=,)]"
    return re.search(rf"[(,]\s*(?:[*&]{{0,2}}|\.\.\.)\s*(?:mut\s+)?{v}{after}", params) is not None


def bound_locally(name: str, lines_of: Callable[[str], list[str]] | None, path: str, line: int,
                  scopes: Sequence[Scope], language: str = "", *, declared_only: bool = False) -> bool:
    """Whether ``name`` is a parameter or a local of the function around ``line`` (``fn = getattr(obj, "fn")``,
    ``for fn in hooks``, ``def run(fn)``): there the name is what that binding holds, not a definition of the name.
    Locals are read from the live file (``lines_of``; None: parameters only); ``declared_only``: a plain
    assignment binds only where :data:`ASSIGNMENT_BINDS` says it does."""
    function = next((s for s in scopes if s.kind in _FUNCTION_KINDS), None)
    if function is None or not name:
        return False
    if is_parameter(name, function.signature, language):
        return True
    if lines_of is None:
        return False
    lines = lines_of(path)
    pattern = _binding_pattern(name, declared_only and language not in ASSIGNMENT_BINDS)
    for n in range(max(function.start + 1, line - MAX_SCAN_LINES), min(line, len(lines) + 1)):
        text = lines[n - 1]
        # the last keyword argument of a call (``f(a,\n  fn=g)``) is no binding
        if name in text and pattern.search(text) and text.count("(") >= text.count(")"):
            return True
    return False


T = TypeVar("T", bound=Target)  # a find_symbol dict, or the reference graph's node of one


class Resolver(Generic[T]):
    """Picks the likely target of each reference among ``targets`` (``find_symbol`` dicts)."""

    def __init__(self, targets: list[T], lines_of: Callable[[str], list[str]] | None,
                 imports: dict[str, str], bases_of: Callable[[str], list[str]] | None = None,
                 returns_of: Callable[[str], str] | None = None, packages: dict[str, str] | None = None,
                 includers_of: Callable[[str], list[str]] | None = None,
                 mixins_of: Callable[[str], list[str]] | None = None) -> None:
        self.targets = targets
        self.lines_of = lines_of  # None: do not read files (very common names)
        self.imports = imports  # path → module the file imports the name from
        self.bases_of = bases_of  # type name → the names of its base types (inheritance)
        self.returns_of = returns_of  # function name → the type its definitions say they return
        self.includers_of = includers_of  # module or trait name → the types that mix it in
        self.mixins_of = mixins_of  # type name → the modules or traits its body mixes in
        self.owners = [last_name(str(t.get("parent") or "")) for t in targets]
        self.extends = [extended_type(str(t.get("signature") or "")) for t in targets]  # C# extension methods
        self.name = last_name(targets[0]["qualified_name"]) if targets else ""
        self.type_names = set(self.owners) - {""}
        packages = packages or {}  # path → the package its Go file declares
        self.modules = [_module_keys(t["path"]) + tuple(p.lower() for p in [packages.get(t["path"])] if p)
                        for t in targets]
        self._memo: dict[tuple[str, ...], list[T]] = {}
        self._types: dict[str, list[T]] = {}  # type name → its members among the targets (``_of_type``)
        self._free = [t for t in targets if t.get("kind") != "method"]  # free functions (and types, constants)
        self.labels = {id(t): label for t, label in zip(targets, labels(targets))}

    # -- pieces --------------------------------------------------------------------------------
    def _of_type(self, type_name: str) -> list[T]:
        """The targets that are members of ``type_name``, else of its nearest base types."""
        if type_name not in self._types:
            self._types[type_name] = self._members(type_name)
        return self._types[type_name]

    def _members(self, type_name: str) -> list[T]:
        hits = self._inherited(type_name)
        if hits or self.includers_of is None:
            return hits
        # a module's or trait's code runs inside the types that mix it in (``include Env`` beside ``include
        # Helpers``; a PHP trait's ``$this->``): their members, when it has none
        seen, layer = {type_name}, [type_name]
        for _ in range(2):  # a module mixed into a module mixed into a class
            layer = [t for name in layer for t in self.includers_of(name) if t not in seen]
            seen.update(layer)
            hits = list({id(t): t for name in layer for t in self._inherited(name)}.values())
            if hits or not layer:
                return hits
        return []

    def _inherited(self, type_name: str) -> list[T]:
        """The members of ``type_name``, else of its nearest base types."""
        seen, layer = {type_name}, [type_name]
        for _ in range(4):  # inheritance depth looked through
            hits = self._owned_by(layer)
            if hits or self.bases_of is None:
                return hits
            # what the layer mixes in comes before its base classes (a PHP trait's method over the interface's)
            mixed = [m for name in layer for m in self.mixins_of(name) if m not in seen] if self.mixins_of else []
            hits = self._owned_by(mixed)
            if hits:
                return hits
            bases = [b for name in layer for b in self.bases_of(name)]
            layer = [b for b in dict.fromkeys([*mixed, *bases]) if b not in seen]
            seen.update(layer)
            if not layer:
                break
        return []

    def _owned_by(self, types: list[str]) -> list[T]:
        """The targets that are members of one of ``types``: of a qualified name (``Rack.Response.Helpers``,
        as the lookups give a Ruby module) that type's own, of a short name any type's of that name."""
        short = {t for t in types if "." not in t}
        exact = set(types) - short
        extendable = short | {last_name(t) for t in exact}  # an extension method names its type short
        return [t for t, owner, extended in zip(self.targets, self.owners, self.extends)
                if (owner and owner in short) or (extended and extended in extendable) or t.get("parent") in exact]

    def _in_module(self, module: list[str]) -> list[T]:
        parts = [p for p in module if p not in PATH_HEADS]
        while parts and "/" in parts[0]:  # a Go import path ``example.com/app/server``
            parts = [*parts[0].split("/"), *parts[1:]]
        key = tuple(parts)
        if key not in self._memo:
            want = "/".join(parts).lower()
            self._memo[key] = [t for t, keys in zip(self.targets, self.modules)
                               if want and any(k == want or k.endswith("/" + want) for k in keys)]
        return self._memo[key]

    def _returned(self, function: str) -> str:
        return self.returns_of(function) if self.returns_of and function else ""

    def _local_type(self, var: str, path: str, line: int, start: int, language: str = "") -> str:
        """The type of a local declared at or above ``line`` (down to ``start``), from the live file."""
        if self.lines_of is None:
            return ""
        lines = self.lines_of(path)
        patterns = _local_patterns(var)
        for n in range(min(line, len(lines)), max(start, line - MAX_SCAN_LINES, 1) - 1, -1):
            text = lines[n - 1]
            if var not in text:
                continue
            for i, pattern in enumerate(patterns):
                m = pattern.search(text)
                if m and i == CONSTRUCTED and language == "go" and not _GO_CONSTRUCTOR.search(m.group(0)):
                    continue  # a function's result: what it is declared to return (RETURNED)
                if m:
                    return self._returned(m.group(1)) if i == RETURNED else _type_name(m.group(1))
        return ""

    def bound_locally(self, path: str, line: int, scopes: Sequence[Scope], language: str = "") -> bool:
        """Whether the bare name is a parameter or a local of the function around ``line``: see
        :func:`bound_locally`."""
        return bound_locally(self.name, self.lines_of, path, line, scopes, language)

    def _owner(self, scopes: Sequence[Scope]) -> str:
        """The type the innermost scope belongs to: ``View`` for ``self`` inside ``View.as_view.view``."""
        if not scopes:
            return ""
        names = _SEP.split(scopes[0].qualified_name)[:-1]
        return next((n for n in reversed(names) if n in self.type_names), last_name(scopes[0].parent))

    def _receiver_type(self, head: str, path: str, line: int, scopes: Sequence[Scope], language: str) -> str:
        if head in SELF_WORDS:
            return self._owner(scopes)
        for scope in scopes:  # parameters of the function, then of the functions around it (closures)
            bound = signature_bindings(scope.signature, language).get(head)
            if bound:
                return bound
        functions = [s.start for s in scopes if s.kind not in TYPE_KINDS]
        return self._local_type(head, path, line, min(functions, default=max(1, line - MAX_SCAN_LINES)), language)

    @staticmethod
    def _pick(hits: list[T], path: str) -> T | None:
        """One of ``hits``: the only one, else the one in the same file, else the same folder; overloads (one
        qualified name) count as one, and the first of them stands for the others."""
        if len(hits) == 1:
            return hits[0]
        folder = path.rsplit("/", 1)[0]
        for same in (lambda t: t["path"] == path, lambda t: t["path"].rsplit("/", 1)[0] == folder):
            near = [t for t in hits if same(t)]
            if near and len({t["qualified_name"] for t in near}) == 1:
                return near[0]
        return hits[0] if hits and len({t["qualified_name"] for t in hits}) == 1 else None

    # -- the steps -----------------------------------------------------------------------------
    def resolve(self, path: str, line: int, qualifier: str, scopes: Sequence[Scope], language: str) -> str:
        """The label (see :func:`labels`) of the likely target, or ``unresolved``. ``scopes``: the
        definitions around the reference, innermost first."""
        hit = self.resolve_target(path, line, qualifier, scopes, language)
        return self.labels[id(hit)] if hit else UNRESOLVED

    def resolve_target(self, path: str, line: int, qualifier: str, scopes: Sequence[Scope],
                       language: str) -> T | None:
        """The likely target itself (of overloads, the first: they share a label), or None."""
        parts = components(qualifier)
        scope = scopes[0] if scopes else None
        if not parts and qualifier.rstrip().endswith(")"):
            return None  # ``(a || b).to_s``: the receiver is an expression, of a type not known here
        if not parts:
            if self.bound_locally(path, line, scopes, language):
                return None  # a local or a parameter of that name: what it holds is not known here
            return self._bare(path, scope, language)
        last = parts[-1]
        if parts == ["super"]:  # super().save(): the enclosing type's bases
            bases = self.bases_of(self._owner(scopes)) if self.bases_of and scopes else []
            hits = next((h for h in map(self._inherited, bases) if h), [])  # not what subclasses define
            return self._pick(hits, path) if hits else None
        if qualifier.rstrip().endswith(")"):  # the receiver is a call's result
            if last.startswith("New") and len(last) > 3:
                type_name = last[3:]  # pkg.NewServer(..).Start()
            elif len(parts) > 1 and last in _CONSTRUCTORS:
                type_name = parts[-2]  # net::Conn::new(2).close()
            else:  # Cache().save(), or what get_current_context() is declared to return
                type_name = last if last[:1].isupper() else self._returned(last)
            hits = self._of_type(type_name) if type_name else []
            if not hits and not type_name and language in DOT_CALLS_METHODS:
                return self._lone_method()  # iter().group_by(): a method of what the call returns
            return self._pick(hits, path) if hits else None
        if last in self.type_names:
            type_name = last  # Conn::new, Model.save, net::Conn::new
        elif len(parts) == 1:
            type_name = self._receiver_type(last, path, line, scopes, language)
        else:
            type_name = ""  # a.b.name: a module path, or a field whose type is not known here
        if type_name:
            hits = self._of_type(type_name)
            return self._pick(hits, path) if hits else None  # a known type without it: outside code
        hit = self._from_module(parts, path)
        if hit is None and language in DOT_CALLS_METHODS and self._dot_call(path, line, qualifier):
            hit = self._lone_method()  # it.group_by(): a value of unknown type
        return hit

    def _lone_method(self) -> T | None:
        """The one method among the targets, for a method call whose receiver's type is not known."""
        if len(self.targets) - len(self._free) != 1:
            return None
        return next(t for t in self.targets if t.get("kind") == "method")

    def _dot_call(self, path: str, line: int, qualifier: str) -> bool:
        """The live line has ``qualifier.name`` (a method call on a value), not ``qualifier::name`` (a path)."""
        if self.lines_of is None or not self.name:
            return False
        lines = self.lines_of(path)
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        tail = components(qualifier)[-1:] or [""]
        return re.search(rf"{re.escape(tail[0])}\s*(?:\([^()]*\))?\s*\.\s*{re.escape(self.name)}\b", text) is not None

    def _from_module(self, module: list[str], path: str) -> T | None:
        """The definition a module path names: its function over a same-named method (``extra::helper``)."""
        hits = self._in_module(module)
        hits = [t for t in hits if t.get("kind") != "method"] or hits
        return self._pick(hits, path) if hits else None

    def _bare(self, path: str, scope: Scope | None, language: str) -> T | None:
        """A name without a receiver: imported, a method of the enclosing type, or a free function nearby."""
        module = self.imports.get(path)
        if module:
            hit = self._from_module(components(module) or [module], path)
            if hit:
                return hit
        if scope is not None and scope.parent and language in IMPLICIT_THIS:
            hits = self._of_type(scope.parent)  # qualified: its own bases and mixins, not a namesake's
            # two types of one short name (CodeBlock.Builder, MethodSpec.Builder): the enclosing one's own first
            hits = [t for t in hits if t.get("parent") == scope.parent] or hits
            if hits:
                return self._pick(hits, path)
        return self._pick(self._free, path) if self._free else None
