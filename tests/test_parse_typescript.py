"""TypeScript definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
import { Injectable } from '@angular/core';

/** A user record. */
export interface User {
  id: number;
  greet(): string;
}

export type UserId = string | number;

export enum Role {
  Admin,
  Guest,
}

/**
 * Loads users over HTTP.
 */
@Injectable({ providedIn: 'root' })
export class UserService implements Loader {
  @Input() name: string;

  constructor(private http: HttpClient) {}

  // Fetch one user.
  @Memoize()
  async getUser(id: UserId): Promise<User> {
    return this.http.get(`/users/${id}`);
  }

  handle = (event: Event): void => {
    console.log(event);
  };
}

export const fetchAll = async <T>(url: string): Promise<T[]> => {
  return [];
};

export abstract class Repo<T> {
  abstract find(id: string): T;
}

@Controller('users')
export class UsersController {
  @Get(':id')
  findOne(@Param('id') id: string) {
    return id;
  }
}
"""


def _defs():
    chunks = extract_chunks(SOURCE, "typescript", "src/user.service.ts")
    return {c.qualified_name: c for c in chunks if c.kind != "module"}


def test_names_kinds_lines():
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in _defs().items()}
    assert got == {
        "User": ("interface", 4, 7, None),
        "UserId": ("type", 9, 9, None),
        "Role": ("enum", 11, 14, None),
        "UserService": ("class", 20, 34, None),
        "UserService.constructor": ("method", 23, 23, "UserService"),
        "UserService.getUser": ("method", 27, 29, "UserService"),
        "UserService.handle": ("method", 31, 33, "UserService"),
        "fetchAll": ("function", 36, 38, None),
        "Repo": ("class", 40, 42, None),
        "UsersController": ("class", 45, 50, None),
        "UsersController.findOne": ("method", 47, 49, "UsersController"),
    }


def test_decorators_signatures_docs():
    defs = _defs()
    service = defs["UserService"]
    assert service.decorators == ["@Injectable({ providedIn: 'root' })"]
    assert service.text.startswith("@Injectable")  # decorators in text, start on `export class`
    assert service.signature == "export class UserService implements Loader"
    assert service.docstring == "Loads users over HTTP."
    get_user = defs["UserService.getUser"]
    assert get_user.decorators == ["@Memoize()"]
    assert get_user.signature == "async getUser(id: UserId): Promise<User>"
    assert get_user.docstring == "Fetch one user."
    assert defs["User"].docstring == "A user record."
    assert defs["fetchAll"].signature == "export const fetchAll = async <T>(url: string): Promise<T[]>"
    assert defs["UserId"].signature == "export type UserId = string | number"


def test_nestjs_route():
    defs = _defs()
    assert defs["UsersController.findOne"].route == "GET /users/:id"
    assert defs["UsersController"].route is None


def test_const_made_by_calling_a_function_on_a_function():
    src = """\
export const handler = defineEventHandler(async (event) => {
  return { ok: true };
});

const save = debounce(function save() { write(); }, 100);

const router = createRouter();
const doubled = items.map((x) => x * 2);
"""
    chunks = extract_chunks(src, "typescript", "server/api/hello.ts")
    defs = {c.qualified_name: (c.kind, c.start_line, c.end_line) for c in chunks if c.kind != "module"}
    assert defs == {"handler": ("function", 1, 3), "save": ("function", 5, 5)}
    handler = next(c for c in chunks if c.qualified_name == "handler")
    assert handler.signature == "export const handler = defineEventHandler(async (event)"
    # a call without a function argument, or a method call on data, stays module code
    assert [(c.start_line, c.end_line) for c in chunks if c.kind == "module"] == [(7, 8)]


def test_overload_signatures_belong_to_their_implementation():
    src = (
        "/** Parse a value. */\n"
        "export function parse(a: string): number;\n"
        "export function parse(a: number): number;\n"
        "export function parse(a: any): number {\n  return 1;\n}\n\n"
        "function other(a: string): void;\n"
        "export function unrelated(): void {}\n\n"
        "class Box {\n"
        "  /** Get it. */\n"
        "  get(x: string): string;\n"
        "  get(x: number): number;\n"
        "  get(x: any): any { return x; }\n"
        "}\n"
    )
    chunks = {c.qualified_name: c for c in extract_chunks(src, "typescript", "a.ts")}
    parse = chunks["parse"]
    # the definition starts at its first declaration, and the doc above it is the implementation's doc
    assert (parse.start_line, parse.end_line) == (2, 6)
    assert parse.docstring == "Parse a value." and parse.text.startswith("export function parse(a: string)")
    assert parse.signature == "export function parse(a: any): number"
    get = chunks["Box.get"]
    assert (get.start_line, get.end_line, get.docstring) == (13, 15, "Get it.")
    # a signature of another name is not taken, nor is module code left for the overloads
    assert chunks["unrelated"].start_line == 9
    assert not any(c.kind == "module" and "parse(a: string)" in c.text for c in chunks.values())


def test_javascript_has_no_overloads_to_take():
    src = "function f(a) {}\nfunction f(a, b) { return b; }\n"
    starts = [c.start_line for c in extract_chunks(src, "javascript", "a.js") if c.name == "f"]
    assert starts == [1, 2]


def test_a_const_made_by_an_imported_modules_function_on_a_function_is_a_definition():
    src = (
        'import * as core from "./core.js";\n'
        'import _ from "lodash";\n'
        'const util = require("./util");\n'
        "/** Checks multiples. */\n"
        "export const $ZodCheckMultipleOf: core.$constructor<X> =\n"
        '  /*@__PURE__*/ core.$constructor("$ZodCheckMultipleOf", (inst, def) => {\n'
        "    inst.x = 1;\n"
        "  });\n"
        "const save = _.debounce(function save() {}, 100);\n"
        "const wrapped = util.wrap(() => 1);\n"
        "const doubled = items.map((x) => x * 2);\n"
    )
    defs = {c.qualified_name: c for c in extract_chunks(src, "typescript", "checks.ts") if c.kind == "function"}
    assert set(defs) == {"$ZodCheckMultipleOf", "save", "wrapped"}  # items is a variable: map makes data
    zod = defs["$ZodCheckMultipleOf"]
    assert (zod.start_line, zod.end_line, zod.docstring) == (5, 8, "Checks multiples.")
