"""Per-language tables for :mod:`codesift.parse.references`.

Each table is a tree-sitter query whose capture names say what an identifier node is at that
spot (the vocabulary is described in ``references.py``), plus the node types the driver needs to
find member names, walk assignment targets and compute qualifiers.

Query performance rule: a pattern that constrains a *later* child of a node which nests on its
first child (``a.b.c.d``: ``attribute`` nests on ``object``) keeps one pending state per
ancestor while the whole chain is walked, which is quadratic on long chains.  Member accesses are
therefore captured as whole nodes (``@call.member``) and their name child is looked up in Python
through ``RefSpec.members``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Special ``members`` values: the member name is the node's first / last named child.
FIRST_CHILD = "<first>"
LAST_CHILD = "<last>"


@dataclass(frozen=True)
class RefSpec:
    """How references look in one grammar."""

    # Query blocks; a block that does not compile against the installed grammar is dropped alone.
    query: tuple[str, ...]
    # Member-access node type -> field (or FIRST_CHILD / LAST_CHILD) holding the member's name.
    # Used for ``@<role>.member`` captures and for the member written by ``obj.name = ...``.
    members: Mapping[str, str] = field(default_factory=dict)
    # Walking an ``@store`` target: identifier node types that get bound (skipped) ...
    store_names: frozenset[str] = frozenset({"identifier"})
    # ... node types whose named children are all walked (destructuring patterns) ...
    store_containers: frozenset[str] = frozenset()
    # ... and wrappers whose binding part is one field (``[a = 1] = ...``: ``left``).
    store_fields: Mapping[str, str] = field(default_factory=dict)
    # Parents (member accesses, scoped / dotted paths) in which a name's qualifier is the text
    # of the parent before the name, separator removed: ``a.b`` in ``a.b.c``, ``std::io``.
    qualified_parents: frozenset[str] = frozenset()
    # Nodes wrapping a name inside its member access or path (C++ ``ns::f<T>``: template_function).
    member_wrappers: frozenset[str] = frozenset()
    # Import statement node type -> field holding the module: an imported name's qualifier.
    import_sources: Mapping[str, str] = field(default_factory=dict)
    # Identifiers are NFKC-normalised by the language (Python: ``ｗｉｄｔｈ`` is ``width``).
    nfkc: bool = False


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

_JS_COMMON = dict(
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

JAVASCRIPT = RefSpec(query=(_JS_CORE, _JS_MODULES, _JS_CLASS, _JSX), **_JS_COMMON)
TYPESCRIPT = RefSpec(query=(_JS_CORE, _JS_MODULES, _TS), **_JS_COMMON)
TSX = RefSpec(query=(_JS_CORE, _JS_MODULES, _TS, _JSX), **_JS_COMMON)


# --------------------------------------------------------------------------------------------
# Go
# --------------------------------------------------------------------------------------------

_GO = r"""
(identifier) @reference
(type_identifier) @type
(qualified_type package: (package_identifier) @type)
(selector_expression) @attribute.member
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression) @call.member)
(composite_literal type: (type_identifier) @call)
(composite_literal type: (qualified_type name: (type_identifier) @call))
(composite_literal type: (generic_type type: (type_identifier) @call))
(type_arguments) @type.scope
(parameter_declaration type: (_) @type.scope)
(var_spec type: (_) @type.scope)

(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @import))
(import_spec path: (raw_string_literal (raw_string_literal_content) @import))

; embedding: a struct field or interface element without a name
(field_declaration_list (field_declaration !name type: (type_identifier) @inherit))
(field_declaration_list (field_declaration !name
  type: (qualified_type name: (type_identifier) @inherit)))
(field_declaration_list (field_declaration !name type: (pointer_type (type_identifier) @inherit)))
(field_declaration_list (field_declaration !name
  type: (pointer_type (qualified_type name: (type_identifier) @inherit))))
(interface_type (type_elem (type_identifier) @inherit))
(interface_type (type_elem (qualified_type name: (type_identifier) @inherit)))

(function_declaration name: (identifier) @skip)
(type_spec name: (type_identifier) @skip)
(type_alias name: (type_identifier) @skip)
(parameter_declaration name: (identifier) @skip)
(variadic_parameter_declaration name: (identifier) @skip)
(type_parameter_declaration name: (identifier) @skip)
(var_spec name: (identifier) @skip)
(const_spec name: (identifier) @skip)
(short_var_declaration left: (expression_list (identifier) @skip))
(range_clause left: (expression_list (identifier) @skip))
(receive_statement left: (expression_list (identifier) @skip))
(keyed_element key: (literal_element (identifier) @skip))
(assignment_statement left: (_) @store)
"""

GO = RefSpec(
    query=(_GO,),
    members={"selector_expression": "field"},
    store_containers=frozenset({"expression_list", "parenthesized_expression"}),
    qualified_parents=frozenset({"selector_expression", "qualified_type"}),
)


# --------------------------------------------------------------------------------------------
# Java
# --------------------------------------------------------------------------------------------

_JAVA = r"""
(identifier) @reference
(type_identifier) @type
(type_arguments) @type.scope
(field_access) @attribute.member
(method_invocation) @call.member
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(object_creation_expression type: (scoped_type_identifier (type_identifier) @call .))
(object_creation_expression type: (generic_type (scoped_type_identifier (type_identifier) @call .)))
(method_reference (_) (identifier) @call .)
(class_literal (_) @type.scope)

(annotation name: (identifier) @decorator)
(marker_annotation name: (identifier) @decorator)
(annotation name: (scoped_identifier name: (identifier) @decorator))
(marker_annotation name: (scoped_identifier name: (identifier) @decorator))
(element_value_pair key: (identifier) @skip)

(import_declaration) @import.scope
(package_declaration) @skip.scope

(superclass (type_identifier) @inherit)
(superclass (generic_type (type_identifier) @inherit))
(superclass (scoped_type_identifier (type_identifier) @inherit .))
(superclass (generic_type (scoped_type_identifier (type_identifier) @inherit .)))
(type_list (type_identifier) @inherit)
(type_list (generic_type (type_identifier) @inherit))
(type_list (scoped_type_identifier (type_identifier) @inherit .))
(type_list (generic_type (scoped_type_identifier (type_identifier) @inherit .)))

(class_declaration name: (identifier) @skip)
(interface_declaration name: (identifier) @skip)
(enum_declaration name: (identifier) @skip)
(annotation_type_declaration name: (identifier) @skip)
(method_declaration name: (identifier) @skip)
(constructor_declaration name: (identifier) @skip)
(enum_constant name: (identifier) @skip)
(formal_parameter name: (identifier) @skip)
(variable_declarator name: (identifier) @skip)
(catch_formal_parameter name: (identifier) @skip)
(enhanced_for_statement name: (identifier) @skip)
(inferred_parameters (identifier) @skip)
(lambda_expression parameters: (identifier) @skip)
(type_parameter (type_identifier) @skip)
(resource name: (identifier) @skip)
(labeled_statement (identifier) @skip)
(break_statement (identifier) @skip)
(continue_statement (identifier) @skip)
(assignment_expression left: (_) @store)
"""

_JAVA_RECORD = r"""
(record_declaration name: (identifier) @skip)
"""

JAVA = RefSpec(
    query=(_JAVA, _JAVA_RECORD),
    members={"field_access": "field", "method_invocation": "name"},
    store_containers=frozenset({"parenthesized_expression"}),
    qualified_parents=frozenset(
        {"field_access", "method_invocation", "scoped_identifier", "scoped_type_identifier",
         "method_reference"}
    ),  # fmt: skip
)


# --------------------------------------------------------------------------------------------
# Rust
# --------------------------------------------------------------------------------------------

_RUST = r"""
(identifier) @reference
(type_identifier) @type
(type_arguments) @type.scope
(field_expression) @attribute.member
(call_expression function: (identifier) @call)
(call_expression function: (field_expression) @call.member)
(call_expression function: (scoped_identifier) @call.member)
(call_expression function: (generic_function) @call.member)
(macro_invocation macro: (identifier) @call)
(macro_invocation macro: (scoped_identifier) @call.member)
(macro_invocation (token_tree) @_macro_args)
(struct_expression name: (type_identifier) @call)
(struct_expression name: (scoped_type_identifier name: (type_identifier) @call))
(tuple_struct_pattern type: (_) @type.scope)

(attribute_item (attribute . (identifier) @decorator))
(attribute_item (attribute . (scoped_identifier) @decorator.member))
(inner_attribute_item (attribute . (identifier) @decorator))

(use_declaration) @import.scope
(use_as_clause alias: (identifier) @skip)
(extern_crate_declaration name: (identifier) @import)
(extern_crate_declaration alias: (identifier) @skip)

(impl_item trait: (type_identifier) @inherit)
(impl_item trait: (scoped_type_identifier name: (type_identifier) @inherit))
(impl_item trait: (generic_type type: (type_identifier) @inherit))
(impl_item trait: (generic_type type: (scoped_type_identifier name: (type_identifier) @inherit)))
(trait_item bounds: (trait_bounds (type_identifier) @inherit))
(trait_item bounds: (trait_bounds (scoped_type_identifier name: (type_identifier) @inherit)))
(trait_item bounds: (trait_bounds (generic_type type: (type_identifier) @inherit)))

(function_item name: (identifier) @skip)
(function_signature_item name: (identifier) @skip)
(struct_item name: (type_identifier) @skip)
(enum_item name: (type_identifier) @skip)
(union_item name: (type_identifier) @skip)
(trait_item name: (type_identifier) @skip)
(type_item name: (type_identifier) @skip)
(associated_type name: (type_identifier) @skip)
(enum_variant name: (identifier) @skip)
(mod_item name: (identifier) @skip)
(const_item name: (identifier) @skip)
(static_item name: (identifier) @skip)
(macro_definition name: (identifier) @skip)
(type_parameter name: (type_identifier) @skip)
(lifetime (identifier) @skip)
(label (identifier) @skip)

; patterns: a lower-case bare name binds, ``None`` / ``Some(..)`` / ``Path::X`` read
(parameter pattern: (identifier) @skip)
(let_declaration pattern: (identifier) @skip)
(for_expression pattern: (identifier) @skip)
(closure_parameters (identifier) @skip)
(let_condition pattern: (identifier) @skip)
(field_pattern pattern: (identifier) @skip)
(captured_pattern . (identifier) @skip)
(ref_pattern (identifier) @skip)
(mut_pattern (identifier) @skip)
(reference_pattern (identifier) @skip)
((match_pattern . (identifier) @skip) (#match? @skip "^[a-z_]"))
((tuple_pattern (identifier) @skip) (#match? @skip "^[a-z_]"))
((slice_pattern (identifier) @skip) (#match? @skip "^[a-z_]"))
((or_pattern (identifier) @skip) (#match? @skip "^[a-z_]"))
((tuple_struct_pattern type: (_) (identifier) @skip) (#match? @skip "^[a-z_]"))

(assignment_expression left: (_) @store)
(compound_assignment_expr left: (_) @store)
"""

RUST = RefSpec(
    query=(_RUST,),
    members={"field_expression": "field", "scoped_identifier": "name",
             "generic_function": "function"},
    store_containers=frozenset({"parenthesized_expression", "tuple_expression"}),
    qualified_parents=frozenset(
        {"field_expression", "scoped_identifier", "scoped_type_identifier"}
    ),
    member_wrappers=frozenset({"generic_function"}),
    import_sources={"scoped_use_list": "path"},
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# C / C++
# --------------------------------------------------------------------------------------------

_C = r"""
(identifier) @reference
(type_identifier) @type
(field_expression) @attribute.member
(call_expression function: (identifier) @call)
(call_expression function: (field_expression) @call.member)
(preproc_include path: (system_lib_string) @import)
(preproc_include path: (string_literal (string_content) @import))
(type_descriptor) @type.scope
(parameter_declaration type: (_) @type.scope)

(function_declarator declarator: (identifier) @skip)
(init_declarator declarator: (identifier) @skip)
(declaration declarator: (identifier) @skip)
(pointer_declarator declarator: (identifier) @skip)
(array_declarator declarator: (identifier) @skip)
(parenthesized_declarator (identifier) @skip)
(parameter_declaration declarator: (identifier) @skip)
(type_definition declarator: (type_identifier) @skip)
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @skip))
(function_declarator
  declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @skip)))
(struct_specifier name: (_) @skip body: (_))
(union_specifier name: (_) @skip body: (_))
(enum_specifier name: (_) @skip body: (_))
(enumerator name: (identifier) @skip)
(preproc_def name: (identifier) @skip)
(preproc_function_def name: (identifier) @skip)
(preproc_params (identifier) @skip)
(assignment_expression left: (_) @store)
"""

_CPP = r"""
(namespace_identifier) @reference
(call_expression function: (qualified_identifier) @call.member)
(call_expression function: (template_function) @call.member)
(new_expression type: (type_identifier) @call)
(new_expression type: (qualified_identifier) @call.member)
(new_expression type: (template_type) @call.member)
(template_argument_list) @type.scope

(base_class_clause (type_identifier) @inherit)
(base_class_clause (template_type) @inherit.member)
(base_class_clause (qualified_identifier) @inherit.member)

(using_declaration) @import.scope

(namespace_definition name: (_) @skip)
(alias_declaration name: (type_identifier) @skip)
(class_specifier name: (_) @skip body: (_))
(function_declarator declarator: (qualified_identifier name: (identifier) @skip))
(function_declarator declarator: (qualified_identifier
  name: (qualified_identifier name: (identifier) @skip)))
(reference_declarator (identifier) @skip)
(type_parameter_declaration (type_identifier) @skip)
(optional_type_parameter_declaration name: (type_identifier) @skip)
(variadic_type_parameter_declaration (type_identifier) @skip)
(optional_parameter_declaration declarator: (identifier) @skip)
(structured_binding_declarator (identifier) @skip)
(for_range_loop declarator: (_) @store)
"""

_C_STORE = dict(
    store_containers=frozenset({"parenthesized_expression", "reference_declarator",
                                "structured_binding_declarator"}),
)  # fmt: skip

C = RefSpec(
    query=(_C,),
    members={"field_expression": "field"},
    qualified_parents=frozenset({"field_expression"}),
    **_C_STORE,
)
CPP = RefSpec(
    query=(_C, _CPP),
    members={"field_expression": "field", "qualified_identifier": "name",
             "template_function": "name", "template_type": "name", "template_method": "name"},
    qualified_parents=frozenset({"field_expression", "qualified_identifier"}),
    member_wrappers=frozenset({"template_function", "template_type", "template_method"}),
    **_C_STORE,
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# C#
# --------------------------------------------------------------------------------------------

_CSHARP = r"""
(identifier) @reference
(type_argument_list) @type.scope
(variable_declaration type: (_) @type.scope)
(parameter type: (_) @type.scope)
(method_declaration returns: (_) @type.scope)
(property_declaration type: (_) @type.scope)
(cast_expression type: (_) @type.scope)
(type_parameter_constraint type: (_) @type.scope)
(typeof_expression type: (_) @type.scope)
(array_type type: (_) @type.scope)
(nullable_type type: (_) @type.scope)

(member_access_expression) @attribute.member
(member_binding_expression) @attribute.member
(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name) @call.member)
(invocation_expression function: (member_access_expression) @call.member)
(invocation_expression function: (member_binding_expression) @call.member)
(object_creation_expression type: (identifier) @call)
(object_creation_expression type: (generic_name) @call.member)
(object_creation_expression type: (qualified_name) @call.member)

(attribute name: (identifier) @decorator)
(attribute name: (qualified_name) @decorator.member)

(using_directive) @import.scope
(using_directive name: (identifier) @skip)

(base_list (identifier) @inherit)
(base_list (generic_name) @inherit.member)
(base_list (qualified_name) @inherit.member)

(namespace_declaration name: (_) @skip.scope)
(class_declaration name: (identifier) @skip)
(interface_declaration name: (identifier) @skip)
(enum_declaration name: (identifier) @skip)
(struct_declaration name: (identifier) @skip)
(record_declaration name: (identifier) @skip)
(delegate_declaration name: (identifier) @skip)
(method_declaration name: (identifier) @skip)
(local_function_statement name: (identifier) @skip)
(constructor_declaration name: (identifier) @skip)
(destructor_declaration name: (identifier) @skip)
(property_declaration name: (identifier) @skip)
(event_declaration name: (identifier) @skip)
(enum_member_declaration name: (identifier) @skip)
(type_parameter name: (identifier) @skip)
(parameter name: (identifier) @skip)
(parameter_list name: (identifier) @skip)
(variable_declarator name: (identifier) @skip)
(catch_declaration name: (identifier) @skip)
(declaration_expression name: (identifier) @skip)
(argument name: (identifier) @skip)
(labeled_statement (identifier) @skip)
(foreach_statement left: (_) @store)
(assignment_expression left: (_) @store)
"""

_CSHARP_FILE_NS = r"""
(file_scoped_namespace_declaration name: (_) @skip.scope)
"""

CSHARP = RefSpec(
    query=(_CSHARP, _CSHARP_FILE_NS),
    members={"member_access_expression": "name", "member_binding_expression": "name",
             "qualified_name": "name", "generic_name": FIRST_CHILD},
    store_containers=frozenset({"parenthesized_expression", "tuple_expression", "argument",
                                "tuple_pattern"}),
    qualified_parents=frozenset({"member_access_expression", "qualified_name"}),
    member_wrappers=frozenset({"generic_name"}),
)  # fmt: skip


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
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# Kotlin
# --------------------------------------------------------------------------------------------

_KOTLIN = r"""
(identifier) @reference
(navigation_expression) @attribute.member
(call_expression . (identifier) @call)
(call_expression . (navigation_expression) @call.member)
(user_type (identifier) @type)
(type_arguments) @type.scope

(annotation (user_type (identifier) @decorator . (type_arguments)? .))
(annotation (constructor_invocation (user_type (identifier) @decorator . (type_arguments)? .)))
(delegation_specifier (user_type (identifier) @inherit . (type_arguments)? .))
(delegation_specifier
  (constructor_invocation (user_type (identifier) @inherit . (type_arguments)? .)))

(import) @import.scope
(import (qualified_identifier) (identifier) @skip)
(package_header) @skip.scope

(class_declaration name: (identifier) @skip)
(object_declaration name: (identifier) @skip)
(function_declaration name: (identifier) @skip)
(type_alias type: (identifier) @skip)
(type_parameter . (identifier) @skip)
(class_parameter . (identifier) @skip)
(parameter . (identifier) @skip)
(variable_declaration . (identifier) @skip)
(enum_entry . (identifier) @skip)
(value_argument . (identifier) @skip . "=")
(assignment left: (_) @store)
"""

KOTLIN = RefSpec(
    query=(_KOTLIN,),
    members={"navigation_expression": LAST_CHILD},
    store_containers=frozenset({"parenthesized_expression"}),
    qualified_parents=frozenset({"navigation_expression", "user_type", "qualified_identifier"}),
)


REF_SPECS: dict[str, RefSpec] = {
    "python": PYTHON,
    "javascript": JAVASCRIPT,
    "typescript": TYPESCRIPT,
    "tsx": TSX,
    "go": GO,
    "java": JAVA,
    "rust": RUST,
    "c": C,
    "cpp": CPP,
    "c_sharp": CSHARP,
    "ruby": RUBY,
    "php": PHP,
    "kotlin": KOTLIN,
}
