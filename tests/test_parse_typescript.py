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
