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


MACROS = """\
#define LUA_API extern
#define luaL_checkint(L,n)\t((int)luaL_checkinteger(L, (n)))

static int helper (lua_State *L) {
  return 0;
}

LUA_API lua_CFunction lua_atpanic (lua_State *L, lua_CFunction panicf) {
  return panicf;
}

LUALIB_API lua_State *(luaL_newstate) (void) {
  return NULL;
}

BOOL is_ready(void) {
  return 1;
}
"""


def test_c_function_like_macros_static_helpers_and_export_macros():
    defs = {c.name: c for c in extract_chunks(MACROS, "c", "lauxlib.c") if c.kind != "module"}
    assert set(defs) == {"luaL_checkint", "helper", "lua_atpanic", "luaL_newstate", "is_ready"}
    assert (defs["luaL_checkint"].kind, defs["luaL_checkint"].start_line) == ("function", 2)
    assert defs["luaL_checkint"].signature == "#define luaL_checkint(L,n)"
    assert defs["helper"].signature == "static int helper (lua_State *L)"
    # the export macro is not the return type's name, nor the return type the function's
    assert defs["lua_atpanic"].signature == "LUA_API lua_CFunction lua_atpanic (lua_State *L, lua_CFunction panicf)"
    assert defs["lua_atpanic"].text.startswith("LUA_API lua_CFunction lua_atpanic")
    assert defs["luaL_newstate"].start_line == 12
    assert defs["is_ready"].signature == "BOOL is_ready(void)"  # an all-caps return type stays
