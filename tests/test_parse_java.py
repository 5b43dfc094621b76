"""Java definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
package com.example.api;

import org.springframework.web.bind.annotation.*;

/**
 * REST endpoints for users.
 */
@RestController
@RequestMapping("/api")
public class UserController extends BaseController {
    private final UserService service;

    // Builds the controller.
    public UserController(UserService service) {
        this.service = service;
    }

    /** Fetch one user. */
    @GetMapping("/users/{id}")
    public User getUser(@PathVariable long id) {
        return service.find(id);
    }

    @RequestMapping(value = "/users", method = RequestMethod.POST)
    @ResponseStatus(HttpStatus.CREATED)
    public User create(@RequestBody User user) {
        return service.save(user);
    }

    static class Page {
        int size() { return 0; }
    }

    interface Listener {
        void onUser(User user);
    }

    enum Status { ACTIVE, BLOCKED }
}
"""


def test_java_definitions():
    chunks = extract_chunks(SOURCE, "java", "src/main/java/UserController.java")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "UserController": ("class", 10, 39, None),
        "UserController.UserController": ("method", 14, 16, "UserController"),
        "UserController.getUser": ("method", 20, 22, "UserController"),
        "UserController.create": ("method", 26, 28, "UserController"),
        "UserController.Page": ("class", 30, 32, "UserController"),
        "UserController.Page.size": ("method", 31, 31, "UserController.Page"),
        "UserController.Listener": ("interface", 34, 36, "UserController"),
        "UserController.Listener.onUser": ("method", 35, 35, "UserController.Listener"),
        "UserController.Status": ("enum", 38, 38, "UserController"),
    }
    cls = defs["UserController"]
    assert cls.decorators == ["@RestController", '@RequestMapping("/api")']
    assert cls.signature == "public class UserController extends BaseController"
    assert cls.docstring == "REST endpoints for users."
    assert cls.route is None
    get_user = defs["UserController.getUser"]
    assert get_user.signature == "public User getUser(@PathVariable long id)"
    assert get_user.docstring == "Fetch one user."
    assert get_user.decorators == ['@GetMapping("/users/{id}")']
    assert get_user.text.lstrip().startswith("@GetMapping")
    assert defs["UserController.UserController"].docstring == "Builds the controller."
    assert defs["UserController.Listener.onUser"].signature == "void onUser(User user)"


def test_spring_routes_use_class_prefix():
    chunks = extract_chunks(SOURCE, "java", "UserController.java")
    routes = {c.name: c.route for c in chunks if c.route}
    assert routes == {"getUser": "GET /api/users/{id}", "create": "POST /api/users"}


def test_an_enum_constant_with_a_body_scopes_its_methods():
    source = """\
enum State {
    Initial {
        /** Reads the first token. */
        boolean process(Token t) {
            return t != null;
        }
    },
    Done,
    InBody {
        boolean process(Token t) {
            return false;
        }
    };

    abstract boolean process(Token t);
}
"""
    chunks = extract_chunks(source, "java", "State.java")
    got = {(c.qualified_name, c.kind, c.start_line, c.end_line) for c in chunks if c.kind != "module"}
    assert got == {
        ("State", "enum", 1, 16),
        ("State.Initial", "class", 2, 7),
        ("State.Initial.process", "method", 4, 6),
        ("State.InBody", "class", 9, 13),
        ("State.InBody.process", "method", 10, 12),
        ("State.process", "method", 15, 15),
    }
    assert next(c for c in chunks if c.qualified_name == "State.Initial.process").docstring == "Reads the first token."
