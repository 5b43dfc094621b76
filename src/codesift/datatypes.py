"""Plain data types shared by every stage of the pipeline."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


# Bumped whenever a change to the parsers changes the chunks of unchanged files; an index built by
# another version re-parses every file once on its next update (vectors are kept: keyed by text).
# 2: Rust inline modules are scopes (``tests.it_adds``).
# 3: the dense model reads camelCase split into words (``text.model_input.embed_text``): every chunk re-embeds.
# 4: a chunk longer than the model's window is embedded as its head and the vocabulary of the rest
#    (``text.model_input.embed_text``): those chunks re-embed.
# 5: JavaScript/TypeScript module-level calls defining a named function (``defineGetter(req, 'ip',
#    function ip() {...})``) are definitions.
# 6: so is a const made by a plain function called on a function (``const h = defineEventHandler(() => ...)``).
# 7: a Go package-level ``var f = func(...) {...}`` is a function.
# 8: TypeScript overload signatures belong to the definition that implements them (its start line, text and doc).
# 9: a const made by calling an imported module's function on a function is a definition (zod's
#    ``core.$constructor("X", (inst) => ...)``).
# 10: a Java enum constant (a Kotlin enum entry) with a body is a class, the scope of its methods
#     (``HtmlTreeBuilderState.InBody.process``).
# 11: a ``/** */`` block one blank line above a definition, at its indentation, is its doc (commander's JSDoc).
# 12: JavaScript/TypeScript ``fn.call(this, …)`` / ``fn.apply(…)`` are calls of ``fn`` (ajv's compileSchema had no
#     callers).
# 13: a Rust impl for a reference with a lifetime (``impl … for &'a mut Deserializer<R>``) is the type's
#     (``Deserializer.deserialize_any``, was ``'a mut Deserializer.deserialize_any``).
# 14: reStructuredText files are split into sections at their headings (were 60-line windows).
# 15: Rust macro arguments are parsed as code for references (`assert_eq!(a.len(), 2)` calls `len` on `a`).
# 16: the stemmer undoubles a final consonant pair before -ing/-ed (``running`` → ``run``, was ``runn``).
# 17: a plural of -ing meets its singular (``settings`` → ``set``, was ``setting``; ``strings`` → ``str``).
# 18: a short punctuation literal's names join the body's keyword terms (``'`'`` → ``backtick``).
# 19: a definition that calls itself gets ``recursive recursively recursion recurse recurs``.
# 20: a chunk longer than the model's window records its further windows' text hashes (store/windows.py).
# 21: not in tests' and examples' files (indexing.prepare.windowed).
# 22: definitions only (not documentation sections, text windows or module code).
# 23: a file with an enormous line is parsed unless its definitions begin on such lines (a minified bundle).
# 24: C/C++ export macros blanked before parsing (``class SPDLOG_API logger``, ``SPDLOG_INLINE A::f``) and
#     function-like macros are definitions; C# properties that run code are methods; a Kotlin top-level extension
#     function's parent is its receiver type; Ruby ``class A::B`` keeps ``A`` in its qualified name.
#     Swift, Scala, Lua, shell, Elixir, Dart, Haskell, Zig, OCaml and Julia files are parsed (were line windows) too.
# 25: a C# or Swift file whose parse fails where it has ``#if`` directives is parsed again past them
#     (parse/conditional.py); C# operators, C# indexers (``this[]``) and C/C++ conversion operators are methods
#     (``JToken.operator bool``).
# 26: a PHP callable array (``[$this, 'method']``, ``[Foo::class, 'method']``) is a call of the method it names.
PARSER_VERSION = "26"

_QUALIFIER = re.compile(r"::|->|#|\\(?=[A-Za-z_])")  # PHP's namespaces: Monolog\Handler\StreamHandler


def dotted(name: str) -> str:
    """``name`` with every language's qualifier syntax (``Type::method``, ``obj->field``, ``Class#method``,
    ``Ns\\Type``) written as a dot, the separator of codesift's qualified names; a leading one (``::Foo``,
    ``\\Monolog\\Utils``: from the global scope) dropped."""
    dotted_name = _QUALIFIER.sub(".", name)
    return dotted_name[1:] if dotted_name.startswith(".") and _QUALIFIER.match(name) else dotted_name


@dataclass(slots=True)
class Chunk:
    """One indexable unit of a file: a symbol definition, a module-level block or a text window.

    Lines are 1-based and inclusive. ``start_line`` is the ``def``/``class`` line (decorators are
    kept in ``text`` and ``decorators`` but do not move ``start_line``).
    """

    # function | method | class | struct | interface | enum | trait | impl | namespace | module | section | window
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int
    text: str
    language: str
    parent: str | None = None
    signature: str = ""
    docstring: str = ""
    decorators: list[str] = field(default_factory=list)
    route: str | None = None


# The heads of a module path that name no folder: Rust's ``crate::``, ``self::``, ``super::``; JavaScript's
# relative ``.``/``..`` and aliases ``~``/``@``.
PATH_HEADS = frozenset({"crate", "self", "super", ".", "..", "~", "@"})
_MODULE_FILES = frozenset({"__init__", "mod", "index"})  # a folder's own module file


def module_parts(path: str) -> list[str]:
    """The module path a file answers to, lower-cased: ``pkg/fields.py`` → ``[pkg, fields]``, ``src/net/mod.rs``
    → ``[src, net]`` (a folder's own module file is the folder)."""
    parts = path.rsplit(".", 1)[0].lower().split("/")
    return parts[:-1] if len(parts) > 1 and parts[-1] in _MODULE_FILES else parts


# Chunk kinds that define nothing: module code between definitions, line windows, document sections.
NOT_DEFINITIONS = frozenset({"module", "window", "section"})

# Kinds whose chunk holds member chunks (their function members are methods).
CONTAINER_KINDS = frozenset({"class", "struct", "interface", "enum", "trait", "impl", "module_def"})

DEFINITION_KINDS = frozenset(
    {"function", "method", "class", "struct", "interface", "enum", "trait", "type", "module_def"}
)
