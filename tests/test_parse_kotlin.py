"""Kotlin definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
package com.example.users

import org.springframework.web.bind.annotation.*

/** Users over HTTP. */
@RestController
@RequestMapping("/api/users")
class UserController(private val repo: UserRepository) {

    // Find one user.
    @GetMapping("/{id}")
    suspend fun find(@PathVariable id: Long): User? {
        return repo.findById(id)
    }

    @PostMapping
    fun create(@RequestBody user: User): User = repo.save(user)

    companion object {
        fun create(): UserController = UserController(InMemoryRepo())
    }
}

interface UserRepository {
    fun findById(id: Long): User?
}

data class User(val id: Long, val name: String)

enum class Role { ADMIN, GUEST }

object Registry {
    fun register(name: String) {}
}

fun String.slug(): String = lowercase().replace(' ', '-')
"""


def test_kotlin_definitions():
    chunks = extract_chunks(SOURCE, "kotlin", "src/main/kotlin/UserController.kt")
    defs = [c for c in chunks if c.kind != "module"]
    got = [(c.qualified_name, c.kind, c.start_line, c.end_line, c.parent) for c in defs]
    assert got == [
        ("UserController", "class", 8, 22, None),
        ("UserController.find", "method", 12, 14, "UserController"),
        ("UserController.create", "method", 17, 17, "UserController"),
        # companion object members belong to the class
        ("UserController.create", "method", 20, 20, "UserController"),
        ("UserRepository", "interface", 24, 26, None),
        ("UserRepository.findById", "method", 25, 25, "UserRepository"),
        ("User", "class", 28, 28, None),
        ("Role", "enum", 30, 30, None),
        ("Registry", "class", 32, 34, None),
        ("Registry.register", "method", 33, 33, "Registry"),
        # a top-level extension function is its receiver type's (`String.slug`)
        ("String.slug", "method", 36, 36, "String"),
    ]
    ctrl = defs[0]
    assert ctrl.decorators == ["@RestController", '@RequestMapping("/api/users")']
    assert ctrl.docstring == "Users over HTTP."
    assert ctrl.signature == "class UserController(private val repo: UserRepository)"
    assert ctrl.text.startswith("@RestController\n@RequestMapping")
    find = defs[1]
    assert find.signature == "suspend fun find(@PathVariable id: Long): User?"
    assert find.docstring == "Find one user."
    assert find.decorators == ['@GetMapping("/{id}")']
    assert find.route == "GET /api/users/{id}"
    assert defs[2].route == "POST /api/users"
    assert defs[2].signature == "fun create(@RequestBody user: User): User"
    assert defs[-1].signature == "fun String.slug(): String"


def test_an_enum_entry_with_a_body_scopes_its_methods():
    source = """\
enum class State {
    Initial {
        override fun process(t: Int): Boolean { return t > 0 }
    },
    Plain,
    Done {
        override fun process(t: Int): Boolean = false
    };
    abstract fun process(t: Int): Boolean
}
"""
    got = {(c.qualified_name, c.kind, c.start_line, c.end_line)
           for c in extract_chunks(source, "kotlin", "State.kt") if c.kind != "module"}
    assert got == {("State", "enum", 1, 10), ("State.Initial", "class", 2, 4),
                   ("State.Initial.process", "method", 3, 3), ("State.Done", "class", 6, 8),
                   ("State.Done.process", "method", 7, 7), ("State.process", "method", 9, 9)}


EXTENSIONS = """\
package coil3.util

internal fun <K, V> Map<K, V>.toImmutableMap(): Map<K, V> = this
fun Context?.getLifecycle(): Lifecycle? { return null }
fun ImageRequest.Builder.crossfade(enable: Boolean) = apply { }
expect fun platformName(): String
actual fun platformName(): String = "jvm"
fun plain() {}
class Painter {
    companion object {
        fun create(): Painter = Painter()
    }
    private fun ImageResult.toState() = this
}
"""


def test_kotlin_extension_functions_take_their_receiver_as_parent():
    defs = [c for c in extract_chunks(EXTENSIONS, "kotlin", "utils.kt") if c.kind != "module"]
    got = [(c.qualified_name, c.kind, c.parent) for c in defs]
    assert got == [
        ("Map.toImmutableMap", "method", "Map"),  # generic arguments dropped
        ("Context.getLifecycle", "method", "Context"),  # nullable receiver
        ("ImageRequest.Builder.crossfade", "method", "ImageRequest.Builder"),
        ("platformName", "function", None),  # expect and actual: both top-level functions
        ("platformName", "function", None),
        ("plain", "function", None),
        ("Painter", "class", None),
        ("Painter.create", "method", "Painter"),  # a companion object's member is the class's
        ("Painter.toState", "method", "Painter"),  # a member extension stays its class's
    ]
