"""Lua definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
local M = {}

--- Greets someone.
-- @param name string
function M.greet(name)
  return "hi " .. name
end

-- A method on a class table.
function M:render(ctx)
  self.ctx = ctx
end

local function helper(a, b)
  return a + b
end

function global_fn()
end

M.handler = function(req)
  return req
end

local cb = function() end

return M
"""


def test_lua_definitions():
    chunks = extract_chunks(SOURCE, "lua", "lua/greeter.lua")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "M.greet": ("method", 5, 7, "M"),
        "M.render": ("method", 10, 12, "M"),
        "helper": ("function", 14, 16, None),
        "global_fn": ("function", 18, 19, None),
        "M.handler": ("method", 21, 23, "M"),
        "cb": ("function", 25, 25, None),
    }
    assert defs["M.greet"].signature == "function M.greet(name)"
    assert defs["M.render"].signature == "function M:render(ctx)"
    assert defs["helper"].signature == "local function helper(a, b)"
    assert defs["global_fn"].signature == "function global_fn()"
    assert defs["M.handler"].signature == "M.handler = function(req)"
    assert defs["cb"].signature == "local cb = function()"
    assert defs["M.greet"].docstring == "Greets someone.\n@param name string"
    assert defs["M.render"].docstring == "A method on a class table."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1), (27, 27)]
