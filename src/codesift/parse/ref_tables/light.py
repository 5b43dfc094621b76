"""Light reference tables: calls, imports and inheritance only, for Swift, Scala, Lua, shell, Elixir, Dart,
Haskell, Zig, OCaml and Julia.

Without a blanket ``(identifier) @reference`` there is no need for the ``@skip`` of every name a definition or a
pattern binds; what is found (who calls what, what a file imports, what a type extends) is what usages and the
call graph read first. Reads of variables and type annotations are left out until a language needs them.
Repeated fields match their first node only in a query (``extends_clause type:``): such children are matched
by type.
"""

from __future__ import annotations

from codesift.parse.ref_tables.spec import LAST_CHILD, RefSpec

_SWIFT = r"""
(call_expression . (simple_identifier) @call)
(call_expression . (navigation_expression) @call.member)
(inheritance_specifier inherits_from: (user_type (type_identifier) @inherit))
(import_declaration (identifier (simple_identifier) @import .))
"""

SWIFT = RefSpec(
    query=(_SWIFT,),
    members={"navigation_expression": "suffix", "navigation_suffix": "suffix"},
    qualified_parents=frozenset({"navigation_expression"}),
    member_wrappers=frozenset({"navigation_suffix"}),
)

_SCALA = r"""
(call_expression function: (identifier) @call)
(call_expression function: (field_expression) @call.member)
(call_expression function: (generic_function function: (identifier) @call))
(instance_expression (type_identifier) @call)
(instance_expression (generic_type (type_identifier) @call))
(extends_clause (type_identifier) @inherit)
(extends_clause (generic_type . (type_identifier) @inherit))
(import_declaration (identifier) @import .)
(import_declaration (namespace_selectors (identifier) @import))
"""

SCALA = RefSpec(
    query=(_SCALA,),
    members={"field_expression": "field"},
    qualified_parents=frozenset({"field_expression"}),
)

_LUA = r"""
(function_call name: (identifier) @call)
(function_call name: (dot_index_expression) @call.member)
(function_call name: (method_index_expression) @call.member)
(function_call name: (identifier) @_require (#eq? @_require "require")
  arguments: (arguments . (string content: (string_content) @import)))
"""

LUA = RefSpec(
    query=(_LUA,),
    members={"dot_index_expression": "field", "method_index_expression": "method"},
    qualified_parents=frozenset({"dot_index_expression", "method_index_expression"}),
)

# A command runs a function of the script or a program: both are calls.
SHELL = RefSpec(query=(r"(command name: (command_name (word) @call))",))

_ELIXIR_FORMS = (
    "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl"
    "|defstruct|defexception|defoverridable|import|alias|require|use|quote|unquote|if|unless|case|cond|with|for"
    "|fn|try|receive|raise|reraise|throw|super)$"
)
_ELIXIR_DEFS = "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$"

_ELIXIR = rf"""
(call target: (identifier) @call (#not-match? @call "{_ELIXIR_FORMS}"))
(call target: (dot) @call.member)
(call target: (identifier) @_def (#match? @_def "{_ELIXIR_DEFS}")
  (arguments . (call target: (identifier) @skip)))
(call target: (identifier) @_def (#match? @_def "{_ELIXIR_DEFS}")
  (arguments . (binary_operator left: (call target: (identifier) @skip))))
(call target: (identifier) @_use (#match? @_use "^(import|alias|require|use)$") (arguments . (alias) @import))
(unary_operator operator: "@" operand: (call target: (identifier) @skip))
(unary_operator operator: "@" operand: (call target: (identifier) @_type
  (#match? @_type "^(spec|type|typep|opaque|callback|macrocallback)$"))) @skip.scope
"""

ELIXIR = RefSpec(query=(_ELIXIR,), members={"dot": "right"}, qualified_parents=frozenset({"dot"}))

_DART = r"""
((identifier) @call . (selector (argument_part)))
((selector (unconditional_assignable_selector (identifier) @call)) . (selector (argument_part)))
(superclass (type_identifier) @inherit)
(mixins (type_identifier) @inherit)
(interfaces (type_identifier) @inherit)
(import_specification (configurable_uri (uri (string_literal) @import)))
"""

DART = RefSpec(query=(_DART,))

_HASKELL = r"""
(apply function: (variable) @call)
(apply function: (qualified id: (variable) @call))
(import module: (module) @import)
"""

HASKELL = RefSpec(query=(_HASKELL,), qualified_parents=frozenset({"qualified"}))

_ZIG = r"""
(call_expression function: (identifier) @call)
(call_expression function: (field_expression) @call.member)
(builtin_function (builtin_identifier) @_import (#eq? @_import "@import")
  (arguments (string (string_content) @import)))
"""

ZIG = RefSpec(
    query=(_ZIG,), members={"field_expression": "member"}, qualified_parents=frozenset({"field_expression"})
)

_OCAML = r"""
(application_expression function: (value_path (value_name) @call .))
(open_module module: (module_path (module_name) @import .))
"""

OCAML = RefSpec(query=(_OCAML,), qualified_parents=frozenset({"value_path"}))

_JULIA = r"""
(call_expression . (identifier) @call)
(call_expression . (field_expression) @call.member)
(signature . (call_expression . (identifier) @skip))
(signature (typed_expression . (call_expression . (identifier) @skip)))
(signature (where_expression . (call_expression . (identifier) @skip)))
(signature (where_expression . (typed_expression . (call_expression . (identifier) @skip))))
(signature . (call_expression . (field_expression) @skip.scope))
(assignment . (call_expression . (identifier) @skip))
(assignment . (typed_expression . (call_expression . (identifier) @skip)))
(assignment . (where_expression . (call_expression . (identifier) @skip)))
(using_statement (identifier) @import)
(import_statement (identifier) @import)
(selected_import . (identifier) (identifier) @import)
"""

JULIA = RefSpec(
    query=(_JULIA,), members={"field_expression": LAST_CHILD}, qualified_parents=frozenset({"field_expression"})
)
