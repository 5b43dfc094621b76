"""JavaScript definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
const express = require('express');
const app = express();

/**
 * Format a user for the API.
 * @param {object} user
 */
function formatUser(user, opts) {
  return { id: user.id };
}

// Double a number.
const double = async (x) => x * 2;

class UserStore extends Store {
  /** Find by id. */
  find(id) {
    return this.items[id];
  }

  static create() {}

  onChange = (event) => {
    this.emit(event);
  };
}

module.exports.helper = function (a) {
  return a;
};

Store.prototype.reset = function reset() {
  this.items = {};
};

app.get('/users/:id', function (req, res) {
  res.json(formatUser(req.user));
});

router.post('/users', async (req, res) => {
  res.sendStatus(201);
});

app.delete('/users/:id', removeUser);

function removeUser(req, res) {}

const api = {
  list() {},
  load: function () {},
};

app.listen(3000);
"""


def _defs():
    chunks = extract_chunks(SOURCE, "javascript", "src/server.js")
    return {c.qualified_name: c for c in chunks if c.kind != "module"}, chunks


def test_names_kinds_lines_parents():
    defs, _ = _defs()
    expected = {
        # qualified name: (kind, start, end, parent)
        "formatUser": ("function", 8, 10, None),
        "double": ("function", 13, 13, None),
        "UserStore": ("class", 15, 26, None),
        "UserStore.find": ("method", 17, 19, "UserStore"),
        "UserStore.create": ("method", 21, 21, "UserStore"),
        "UserStore.onChange": ("method", 23, 25, "UserStore"),
        "helper": ("function", 28, 30, None),
        "Store.reset": ("method", 32, 34, "Store"),
        "GET /users/:id": ("function", 36, 38, None),
        "POST /users": ("function", 40, 42, None),
        "removeUser": ("function", 46, 46, None),
        "api.list": ("method", 49, 49, "api"),
        "api.load": ("method", 50, 50, "api"),
    }
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == expected


def test_signatures_and_comments():
    defs, _ = _defs()
    assert defs["formatUser"].signature == "function formatUser(user, opts)"
    assert defs["formatUser"].docstring == "Format a user for the API.\n@param {object} user"
    assert defs["double"].signature == "const double = async (x)"
    assert defs["double"].docstring == "Double a number."
    assert defs["UserStore"].signature == "class UserStore extends Store"
    assert defs["UserStore.find"].docstring == "Find by id."
    assert defs["UserStore.find"].signature == "find(id)"
    assert defs["helper"].signature == "module.exports.helper = function (a)"
    assert defs["UserStore.find"].text.strip().startswith("find(id) {")


def test_express_routes():
    defs, _ = _defs()
    assert defs["GET /users/:id"].route == "GET /users/:id"
    assert defs["POST /users"].route == "POST /users"
    # a named handler passed by reference gets the route too
    assert defs["removeUser"].route == "DELETE /users/:id"
    assert defs["formatUser"].route is None


def test_module_code():
    _, chunks = _defs()
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    # `const api = {` is module code; its lone `};` is punctuation and dropped
    assert modules == [(1, 2), (44, 44), (48, 48), (53, 53)]


DEFINING_CALLS = """\
/** The protocol, honouring X-Forwarded-Proto behind a trusted proxy. */
defineGetter(req, 'protocol', function protocol() {
  return this.get('X-Forwarded-Proto') || 'http';
});

Object.defineProperty(exports, 'version', { get: function () { return '1.0'; } });

app.use(function logger(req, res, next) {
  next();
});

describe('router', function () {
  it('routes', function () {});
});

emitter.on('data', (chunk) => {
  console.log(chunk);
});

function outer() {
  defineGetter(req, 'inner', function inner() { return 1; });
}
"""


def test_module_level_calls_that_define_a_named_function():
    chunks = extract_chunks(DEFINING_CALLS, "javascript", "lib/request.js")
    defs = {c.qualified_name: (c.kind, c.start_line, c.end_line) for c in chunks if c.kind != "module"}
    # define(obj, 'name', fn) is obj.name; any other call's named function expression is its name
    assert defs["req.protocol"] == ("method", 2, 4)
    assert defs["logger"] == ("function", 8, 10)
    protocol = next(c for c in chunks if c.qualified_name == "req.protocol")
    assert protocol.parent == "req"
    assert protocol.docstring == "The protocol, honouring X-Forwarded-Proto behind a trusted proxy."
    # anonymous callbacks after a bare string define nothing (test suites, event handlers), and a call
    # inside a function is part of that function
    assert not any(q.startswith(("router", "routes", "data", "inner")) for q in defs)
    assert defs["outer"] == ("function", 20, 22)
    assert "req.inner" not in defs


def test_a_jsdoc_block_one_blank_line_above_is_the_definitions_doc():
    source = """\
class Option {
  /**
   * Return the option name as an object attribute key.
   */

  attributeName() {
    return this.name;
  }

  // a plain comment, then a blank line

  isBoolean() {
    return !this.required;
  }
}

/**
 * Module exports.
 */


function farAway() {}
"""
    chunks = extract_chunks(source, "javascript")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    assert defs["Option.attributeName"].docstring == "Return the option name as an object attribute key."
    assert defs["Option.attributeName"].start_line == 6  # the range still starts at the definition
    assert defs["Option.isBoolean"].docstring == ""  # only a /** */ block is a doc across a blank line
    assert defs["farAway"].docstring == ""  # two blank lines: a section of its own
    # the attached block is no longer module code of its own
    assert not any(c.kind == "module" and "attribute key" in c.text for c in chunks)
