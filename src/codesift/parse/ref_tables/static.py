"""Reference tables of the compiled languages: Go, Java, Rust, C / C++, C# and Kotlin."""

from __future__ import annotations

from codesift.parse.ref_tables.spec import FIRST_CHILD, LAST_CHILD, RefSpec


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

_C_STORE_CONTAINERS = frozenset({"parenthesized_expression", "reference_declarator",
                                  "structured_binding_declarator"})  # fmt: skip

C = RefSpec(
    query=(_C,),
    members={"field_expression": "field"},
    qualified_parents=frozenset({"field_expression"}),
    store_containers=_C_STORE_CONTAINERS,
)
CPP = RefSpec(
    query=(_C, _CPP),
    members={"field_expression": "field", "qualified_identifier": "name",
             "template_function": "name", "template_type": "name", "template_method": "name"},
    qualified_parents=frozenset({"field_expression", "qualified_identifier"}),
    member_wrappers=frozenset({"template_function", "template_type", "template_method"}),
    store_containers=_C_STORE_CONTAINERS,
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
