"""Reference tables of the dynamic languages: Python, JavaScript / TypeScript / TSX, Ruby and PHP."""

from __future__ import annotations

from dataclasses import replace

from codesift.parse.ref_tables.spec import RefSpec


# --------------------------------------------------------------------------------------------
# Python
# --------------------------------------------------------------------------------------------

_PYTHON = r"""
(identifier) @reference

(attribute) @attribute.member
(call function: (identifier) @call)
(call function: (attribute) @call.member)

(decorator (identifier) @decorator)
(decorator (attribute) @decorator.member)
(decorator (call function: (identifier) @decorator))
(decorator (call function: (attribute) @decorator.member))

(class_definition superclasses: (argument_list (identifier) @inherit))
(class_definition superclasses: (argument_list (attribute) @inherit.member))
(class_definition superclasses: (argument_list (subscript value: (identifier) @inherit)))
(class_definition superclasses: (argument_list (subscript value: (attribute) @inherit.member)))

(type) @type.scope

(import_statement name: (dotted_name (identifier) @import))
(import_statement name: (aliased_import name: (dotted_name (identifier) @import)))
(import_from_statement module_name: (dotted_name (identifier) @import))
(import_from_statement module_name: (relative_import (dotted_name (identifier) @import)))
(import_from_statement name: (dotted_name (identifier) @import))
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @import)))
(future_import_statement name: (dotted_name (identifier) @import))
(aliased_import alias: (identifier) @skip)

(function_definition name: (identifier) @skip)
(class_definition name: (identifier) @skip)
(parameters (identifier) @skip)
(lambda_parameters (identifier) @skip)
(default_parameter name: (identifier) @skip)
(typed_default_parameter name: (identifier) @skip)
(typed_parameter . (identifier) @skip)
(list_splat_pattern (identifier) @skip)
(dictionary_splat_pattern (identifier) @skip)
(keyword_argument name: (identifier) @skip)
(global_statement (identifier) @skip)
(nonlocal_statement (identifier) @skip)
(named_expression name: (identifier) @skip)
(type_alias_statement left: (type (identifier) @skip))
(type_alias_statement left: (type (generic_type . (identifier) @skip)))
; ``type(x).attr = v`` misparsed as a type alias: ``type`` is a call, the left side a target
(type_alias_statement "type" @call left: (type [(attribute) (subscript)] @store))

; match statements: capture patterns bind, value patterns (dotted) and class patterns read
(case_pattern . (dotted_name . (identifier) @skip .) .)
(keyword_pattern . (identifier) @skip)
(keyword_pattern (dotted_name . (identifier) @skip .) .)
(splat_pattern (identifier) @skip)
(as_pattern (case_pattern) . (identifier) @skip)

; error recovery leaves ``class``/``def`` keywords and their names loose inside ERROR nodes
(ERROR "class" . (identifier) @skip)
(ERROR "def" . (identifier) @skip)
(ERROR "class" . (call function: (identifier) @skip))
(ERROR "def" . (call function: (identifier) @skip))
(ERROR (ERROR "class") . (identifier) @skip)
(ERROR (ERROR "def") . (identifier) @skip)
(ERROR (ERROR "class") . (call function: (identifier) @skip))
(ERROR (ERROR "def") . (call function: (identifier) @skip))

(assignment left: (_) @store)
(augmented_assignment left: (_) @store)
(for_statement left: (_) @store)
(for_in_clause left: (_) @store)
(as_pattern_target) @store
"""

PYTHON = RefSpec(
    query=(_PYTHON,),
    members={"attribute": "attribute"},
    store_containers=frozenset(
        {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "list_splat",
         "tuple", "list", "parenthesized_expression", "as_pattern_target", "expression_list"}
    ),  # fmt: skip
    qualified_parents=frozenset({"attribute", "dotted_name"}),
    import_sources={"import_from_statement": "module_name"},
    nfkc=True,
)


# --------------------------------------------------------------------------------------------
# JavaScript / TypeScript / TSX
# --------------------------------------------------------------------------------------------

_JS_CORE = r"""
(identifier) @reference
(shorthand_property_identifier) @reference

(member_expression) @attribute.member
(call_expression function: (identifier) @call)
(call_expression function: (member_expression) @call.member)
(new_expression constructor: (identifier) @call)
(new_expression constructor: (member_expression) @call.member)
; ``fn.call(this, …)`` and ``fn.apply(this, args)`` call ``fn`` (ajv compiles every schema so)
((call_expression function: (member_expression object: (identifier) @call property: (property_identifier) @skip))
  (#match? @skip "^(call|apply)$"))
((call_expression function: (member_expression object: (member_expression) @call.member
                                               property: (property_identifier) @skip))
  (#match? @skip "^(call|apply)$"))

(decorator (identifier) @decorator)
(decorator (member_expression) @decorator.member)
(decorator (call_expression function: (identifier) @decorator))
(decorator (call_expression function: (member_expression) @decorator.member))

(import_clause (identifier) @import)
(import_specifier name: (identifier) @import)
(import_specifier alias: (identifier) @skip)
(namespace_import (identifier) @skip)
(export_statement (export_clause (export_specifier name: (identifier) @import)) source: (_))
(export_specifier alias: (_) @skip)

(function_declaration name: (identifier) @skip)
(function_expression name: (identifier) @skip)
(generator_function_declaration name: (identifier) @skip)
(generator_function name: (identifier) @skip)
(class_declaration name: (_) @skip)
(class name: (_) @skip)
(arrow_function parameter: (identifier) @skip)

(formal_parameters (_) @store)
(variable_declarator name: (_) @store)
(assignment_expression left: (_) @store)
(augmented_assignment_expression left: (_) @store)
(for_in_statement left: (_) @store)
(catch_clause parameter: (_) @store)
"""

# ``import x from "m"``, ``const {a, b: c} = require("m")``, ``require("m").a``: imports.
_JS_MODULES = r"""
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string (string_fragment) @import)))
  (#eq? @_require "require"))
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import)))
((member_expression
   object: (call_expression function: (identifier) @_require)
   property: (property_identifier) @import)
  (#eq? @_require "require"))
((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @import)
   value: (call_expression function: (identifier) @_require))
  (#eq? @_require "require"))
((variable_declarator
   name: (object_pattern (pair_pattern key: (property_identifier) @import))
   value: (call_expression function: (identifier) @_require))
  (#eq? @_require "require"))
"""

_JS_CLASS = r"""
(class_heritage (identifier) @inherit)
(class_heritage (member_expression) @inherit.member)
"""

_JSX = r"""
(jsx_closing_element name: (_) @skip.scope)
((jsx_opening_element name: (identifier) @skip) (#match? @skip "^[a-z]"))
((jsx_self_closing_element name: (identifier) @skip) (#match? @skip "^[a-z]"))
(jsx_opening_element name: (identifier) @call)
(jsx_self_closing_element name: (identifier) @call)
(jsx_opening_element name: (member_expression) @call.member)
(jsx_self_closing_element name: (member_expression) @call.member)
"""

_TS = r"""
(type_identifier) @type
(nested_type_identifier module: (identifier) @type)
(type_annotation) @type.scope
(type_arguments) @type.scope

(extends_clause value: (identifier) @inherit)
(extends_clause value: (member_expression) @inherit.member)
(implements_clause (type_identifier) @inherit)
(implements_clause (generic_type name: (type_identifier) @inherit))
(implements_clause (nested_type_identifier name: (type_identifier) @inherit))
(implements_clause (generic_type name: (nested_type_identifier name: (type_identifier) @inherit)))
(extends_type_clause type: (type_identifier) @inherit)
(extends_type_clause type: (generic_type name: (type_identifier) @inherit))
(extends_type_clause type: (nested_type_identifier name: (type_identifier) @inherit))

(interface_declaration name: (_) @skip)
(type_alias_declaration name: (_) @skip)
(enum_declaration name: (_) @skip)
(abstract_class_declaration name: (_) @skip)
(type_parameter name: (_) @skip)
(internal_module name: (_) @skip)
(module name: (identifier) @skip)
(function_signature name: (_) @skip)
"""

_JS_COMMON = RefSpec(
    query=(),  # each language's own blocks, set below
    members={"member_expression": "property"},
    store_names=frozenset({"identifier", "shorthand_property_identifier_pattern"}),
    store_containers=frozenset({"object_pattern", "array_pattern", "rest_pattern"}),
    store_fields={"pair_pattern": "value", "assignment_pattern": "left",
                  "object_assignment_pattern": "left", "required_parameter": "pattern",
                  "optional_parameter": "pattern"},
    qualified_parents=frozenset({"member_expression", "nested_type_identifier",
                                 "nested_identifier"}),
    import_sources={"import_statement": "source", "export_statement": "source",
                    "variable_declarator": "value"},
)  # fmt: skip

JAVASCRIPT = replace(_JS_COMMON, query=(_JS_CORE, _JS_MODULES, _JS_CLASS, _JSX))
TYPESCRIPT = replace(_JS_COMMON, query=(_JS_CORE, _JS_MODULES, _TS))
TSX = replace(_JS_COMMON, query=(_JS_CORE, _JS_MODULES, _TS, _JSX))



# --------------------------------------------------------------------------------------------
# Ruby
# --------------------------------------------------------------------------------------------

_RUBY = r"""
(identifier) @reference
(constant) @reference
(instance_variable) @attribute
(class_variable) @attribute
(global_variable) @reference
(call) @call.member

(superclass (constant) @inherit)
(superclass (scope_resolution name: (constant) @inherit))
((call . method: (identifier) @_mixin arguments: (argument_list (constant) @inherit))
  (#any-of? @_mixin "include" "extend" "prepend"))
((call . method: (identifier) @_mixin
   arguments: (argument_list (scope_resolution name: (constant) @inherit)))
  (#any-of? @_mixin "include" "extend" "prepend"))
((call . method: (identifier) @_require
   arguments: (argument_list (string (string_content) @import)))
  (#any-of? @_require "require" "require_relative" "load" "autoload"))

(method name: (_) @skip)
(singleton_method name: (_) @skip)
(class name: (constant) @skip)
(class name: (scope_resolution name: (constant) @skip))
(module name: (constant) @skip)
(module name: (scope_resolution name: (constant) @skip))
(method_parameters (identifier) @skip)
(lambda_parameters (identifier) @skip)
(block_parameters (identifier) @skip)
(optional_parameter name: (identifier) @skip)
(splat_parameter name: (identifier) @skip)
(hash_splat_parameter name: (identifier) @skip)
(block_parameter name: (identifier) @skip)
(keyword_parameter name: (identifier) @skip)
(destructured_parameter (identifier) @skip)
(exception_variable (identifier) @skip)
(assignment left: (_) @store)
(operator_assignment left: (_) @store)
(for pattern: (_) @store)
"""

RUBY = RefSpec(
    query=(_RUBY,),
    members={"call": "method", "scope_resolution": "name"},
    store_names=frozenset(
        {"identifier", "constant", "instance_variable", "class_variable", "global_variable"}
    ),
    store_containers=frozenset(
        {"left_assignment_list", "destructured_left_assignment", "rest_assignment"}
    ),
    qualified_parents=frozenset({"call", "scope_resolution"}),
)


# --------------------------------------------------------------------------------------------
# PHP
# --------------------------------------------------------------------------------------------

_PHP = r"""
(name) @reference
(variable_name) @reference
(variable_name (name) @skip)
(member_access_expression) @attribute.member
(nullsafe_member_access_expression) @attribute.member
(member_call_expression) @call.member
(nullsafe_member_call_expression) @call.member
(scoped_call_expression) @call.member
(class_constant_access_expression (_) (name) @attribute .)
(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (name) @call))
(object_creation_expression (name) @call)
(object_creation_expression (qualified_name (name) @call))
(named_type (name) @type)
(named_type (qualified_name (name) @type))

(attribute (name) @decorator)
(attribute (qualified_name (name) @decorator))

(namespace_use_clause) @import.scope
(namespace_use_clause alias: (name) @skip)
(require_expression (string (string_content) @import))
(require_once_expression (string (string_content) @import))
(include_expression (string (string_content) @import))
(include_once_expression (string (string_content) @import))

; a callable array, ``[$this, 'method']`` or ``[Foo::class, 'method']``: the string names a method it calls (the
; predicates outside the pattern: after its last anchor they would undo it)
((array_creation_expression . (array_element_initializer (variable_name))
  . (array_element_initializer [(string (string_content) @call) (encapsed_string . (string_content) @call .)]) .)
 (#match? @call "^[A-Za-z_][A-Za-z0-9_]*$"))
((array_creation_expression . (array_element_initializer (class_constant_access_expression (_) (name) @_class))
  . (array_element_initializer [(string (string_content) @call) (encapsed_string . (string_content) @call .)]) .)
 (#eq? @_class "class") (#match? @call "^[A-Za-z_][A-Za-z0-9_]*$"))

(base_clause (name) @inherit)
(base_clause (qualified_name (name) @inherit))
(class_interface_clause (name) @inherit)
(class_interface_clause (qualified_name (name) @inherit))
(use_declaration (name) @inherit)
(use_declaration (qualified_name (name) @inherit))

(namespace_definition name: (_) @skip.scope)
(class_declaration name: (name) @skip)
(interface_declaration name: (name) @skip)
(trait_declaration name: (name) @skip)
(enum_declaration name: (name) @skip)
(function_definition name: (name) @skip)
(method_declaration name: (name) @skip)
(const_element (name) @skip)
(enum_case name: (name) @skip)
(simple_parameter name: (variable_name) @skip)
(variadic_parameter name: (variable_name) @skip)
(property_promotion_parameter name: (variable_name) @skip)
(property_element name: (variable_name) @skip)
(argument name: (name) @skip)
(catch_clause name: (variable_name) @skip)
(static_variable_declaration name: (variable_name) @skip)
(global_declaration (variable_name) @skip)
(foreach_statement (_) (variable_name) @skip)
(foreach_statement (pair (variable_name) @skip))
(foreach_statement (by_ref (variable_name) @skip))
(assignment_expression left: (_) @store)
(augmented_assignment_expression left: (_) @store)
"""

PHP = RefSpec(
    query=(_PHP,),
    members={"member_access_expression": "name", "nullsafe_member_access_expression": "name",
             "member_call_expression": "name", "nullsafe_member_call_expression": "name",
             "scoped_call_expression": "name"},
    store_names=frozenset({"variable_name"}),
    store_containers=frozenset({"list_literal", "array_creation_expression",
                                "array_element_initializer", "by_ref"}),
    qualified_parents=frozenset(
        {"member_access_expression", "nullsafe_member_access_expression", "member_call_expression",
         "nullsafe_member_call_expression", "scoped_call_expression",
         "scoped_property_access_expression", "class_constant_access_expression",
         "qualified_name"}
    ),
    callable_pairs=frozenset({"array_element_initializer"}),
)  # fmt: skip
