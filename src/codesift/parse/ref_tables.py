"""Per-language tables for :mod:`codesift.parse.references`.

Each table is one tree-sitter query whose capture names say what an identifier node is at that
spot (see the module docstring of ``references.py`` for the capture vocabulary), plus the node
types the assignment-target walker needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RefSpec:
    """How references look in one grammar."""

    query: str
    # Walking an ``@store`` target: identifier node types that get bound (skipped) ...
    store_names: frozenset[str] = frozenset({"identifier"})
    # ... node types whose named children are walked (destructuring patterns) ...
    store_containers: frozenset[str] = frozenset()
    # ... and member-access node types -> the field holding the member written.
    store_members: Mapping[str, str] = field(default_factory=dict)
    # Node types holding a flat dotted path: a component's qualifier is the text before it.
    dotted: frozenset[str] = frozenset()


# --------------------------------------------------------------------------------------------
# Python
# --------------------------------------------------------------------------------------------

_PYTHON = r"""
(identifier) @reference

(attribute object: (_) @qualifier attribute: (identifier) @attribute)
(call function: (identifier) @call)
(call function: (attribute object: (_) @qualifier attribute: (identifier) @call))

(decorator (identifier) @decorator)
(decorator (attribute object: (_) @qualifier attribute: (identifier) @decorator))
(decorator (call function: (identifier) @decorator))
(decorator (call function: (attribute object: (_) @qualifier attribute: (identifier) @decorator)))

(class_definition superclasses: (argument_list (identifier) @inherit))
(class_definition superclasses: (argument_list
  (attribute object: (_) @qualifier attribute: (identifier) @inherit)))
(class_definition superclasses: (argument_list (subscript value: (identifier) @inherit)))
(class_definition superclasses: (argument_list
  (subscript value: (attribute object: (_) @qualifier attribute: (identifier) @inherit))))

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

(case_pattern . (dotted_name . (identifier) @skip .) .)
(keyword_pattern . (identifier) @skip)
(keyword_pattern (dotted_name . (identifier) @skip .) .)
(splat_pattern (identifier) @skip)
(as_pattern (case_pattern) . (identifier) @skip)

(assignment left: (_) @store)
(augmented_assignment left: (_) @store)
(for_statement left: (_) @store)
(for_in_clause left: (_) @store)
(as_pattern_target) @store
"""

PYTHON = RefSpec(
    query=_PYTHON,
    store_containers=frozenset(
        {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "tuple", "list",
         "parenthesized_expression", "as_pattern_target", "expression_list"}
    ),  # fmt: skip
    store_members={"attribute": "attribute"},
    dotted=frozenset({"dotted_name"}),
)


REF_SPECS: dict[str, RefSpec] = {
    "python": PYTHON,
}
