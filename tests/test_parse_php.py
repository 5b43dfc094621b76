"""PHP definition extraction."""

from codesift.parse import extract_chunks

SOURCE = r"""<?php
namespace App\Http\Controllers;

use App\Models\User;

/**
 * User endpoints.
 */
#[Route('/users')]
final class UserController extends Controller implements HasRoutes
{
    /** Show one user. */
    #[Route('/{id}', methods: ['GET'])]
    public function show(int $id): User
    {
        return User::find($id);
    }

    public static function make(): static { return new static(); }
}

interface HasRoutes { public function routes(): array; }

trait Loggable
{
    // Write a log line.
    protected function log(string $msg): void {}
}

enum Status: string { case Active = 'active'; }

function helper($value) { return $value; }

$format = function ($v) { return json_encode($v); };
"""


def test_php_definitions():
    chunks = extract_chunks(SOURCE, "php", "app/Http/Controllers/UserController.php")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "UserController": ("class", 10, 20, None),
        "UserController.show": ("method", 14, 17, "UserController"),
        "UserController.make": ("method", 19, 19, "UserController"),
        "HasRoutes": ("interface", 22, 22, None),
        "HasRoutes.routes": ("method", 22, 22, "HasRoutes"),
        "Loggable": ("trait", 24, 28, None),
        "Loggable.log": ("method", 27, 27, "Loggable"),
        "Status": ("enum", 30, 30, None),
        "helper": ("function", 32, 32, None),
        "format": ("function", 34, 34, None),
    }
    ctrl = defs["UserController"]
    assert ctrl.decorators == ["#[Route('/users')]"]
    assert ctrl.docstring == "User endpoints."
    assert ctrl.signature == "final class UserController extends Controller implements HasRoutes"
    show = defs["UserController.show"]
    assert show.signature == "public function show(int $id): User"
    assert show.docstring == "Show one user."
    assert show.decorators == ["#[Route('/{id}', methods: ['GET'])]"]
    assert show.route == "GET /users/{id}"
    assert defs["Loggable.log"].docstring == "Write a log line."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 2), (4, 4)]


STATIC_CALLS = """\
<?php
namespace Monolog\\Handler;

final class StreamHandler extends Base
{
    public function write(): void
    {
        self::open();
        static::reopen();
        parent::write();
        \\Monolog\\Utils::jsonEncode([]);
    }
}
"""


def test_php_static_calls_are_references_with_their_class():
    from codesift.parse.chunks import extract_chunks as chunks_and_refs

    found: list = []
    chunks_and_refs(STATIC_CALLS, "php", "src/StreamHandler.php", found)
    calls = {(r.name, r.qualifier) for r in found if r.kind == "call"}
    assert {("open", "self"), ("reopen", "static"), ("write", "parent"),
            ("jsonEncode", "\\Monolog\\Utils")} <= calls
    defs = {c.qualified_name: c.kind for c in extract_chunks(STATIC_CALLS, "php", "x.php") if c.kind != "module"}
    assert defs == {"StreamHandler": "class", "StreamHandler.write": "method"}  # the namespace is no parent
