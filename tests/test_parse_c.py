"""C definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
#include <stdio.h>
#include <stdlib.h>

#define MAX_ITEMS 64

/* A singly linked list node. */
struct node {
    int value;
    struct node *next;
};

typedef struct {
    double x, y;
} point_t;

enum color { RED, GREEN };

struct node *list_push(struct node *head, int value);

/**
 * Sum all values in the list.
 */
static int
list_sum(const struct node *head)
{
    int total = 0;
    for (; head; head = head->next)
        total += head->value;
    return total;
}

int main(int argc, char **argv) {
    return list_sum(NULL);
}
"""


def test_c_definitions():
    chunks = extract_chunks(SOURCE, "c", "src/list.c")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    # the prototype on line 18 is a declaration, not a definition
    assert got == {
        "node": ("struct", 7, 10, None),
        "point_t": ("struct", 12, 14, None),
        "color": ("enum", 16, 16, None),
        "list_sum": ("function", 23, 30, None),
        "main": ("function", 32, 34, None),
    }
    assert defs["node"].docstring == "A singly linked list node."
    assert defs["node"].signature == "struct node"
    assert defs["list_sum"].signature == "static int list_sum(const struct node *head)"
    assert defs["list_sum"].docstring == "Sum all values in the list."
    assert defs["main"].signature == "int main(int argc, char **argv)"
    assert defs["main"].text == "int main(int argc, char **argv) {\n    return list_sum(NULL);\n}"
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 2), (4, 4), (18, 18)]


def test_cpp_header_named_h_falls_back_to_cpp_grammar():
    source = "namespace ui {\nclass Button {\n public:\n  void click() { pressed = true; }\n  bool pressed;\n};\n}\n"
    chunks = extract_chunks(source, "c", "include/button.h")
    defs = {c.qualified_name: (c.kind, c.start_line, c.end_line) for c in chunks if c.kind != "module"}
    assert defs == {"Button": ("class", 2, 6), "Button.click": ("method", 4, 4)}
    assert all(c.language == "c" for c in chunks)
