"""C++ definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
#include <string>

namespace geo {

// A 2D shape.
class Shape {
public:
    Shape() = default;
    virtual ~Shape() {}
    /* Area in square units. */
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
};

struct Circle : public Shape {
    double r;
    double area() const override;
};

}  // namespace geo

double geo::Circle::area() const {
    return 3.14159 * r * r;
}

template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

bool operator==(const geo::Circle& a, const geo::Circle& b) { return a.r == b.r; }
"""


def test_cpp_definitions():
    chunks = extract_chunks(SOURCE, "cpp", "src/geo.cpp")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Shape": ("class", 6, 13, None),
        "Shape.Shape": ("method", 8, 8, "Shape"),
        "Shape.~Shape": ("method", 9, 9, "Shape"),
        "Shape.name": ("method", 12, 12, "Shape"),
        "Circle": ("struct", 15, 18, None),
        # out-of-line definition: namespace dropped, class kept as parent
        "Circle.area": ("method", 22, 24, "Circle"),
        "clamp": ("function", 27, 29, None),
        "operator==": ("function", 31, 31, None),
    }
    assert defs["Shape"].docstring == "A 2D shape."
    assert defs["Shape"].signature == "class Shape"
    assert defs["Circle"].signature == "struct Circle : public Shape"
    assert defs["Circle.area"].signature == "double geo::Circle::area() const"
    assert defs["Shape.name"].signature == "std::string name() const"
    # the template line is part of the text, but the chunk starts on the function itself
    assert defs["clamp"].text.startswith("template <typename T>\nT clamp(")
    assert defs["clamp"].signature == "T clamp(T v, T lo, T hi)"
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1), (3, 3)]  # `}  // namespace geo` alone is dropped


EXPORT_MACROS = """\
namespace spdlog {
namespace details {
class SPDLOG_API file_helper {
public:
    explicit file_helper(const file_event_handlers &event_handlers);
    void open(const filename_t &fname) { reopen(); }
};

SPDLOG_INLINE file_helper::file_helper(const file_event_handlers &event_handlers)
    : event_handlers_(event_handlers) {}

SPDLOG_INLINE const char *file_helper::what() const SPDLOG_NOEXCEPT { return msg_.c_str(); }

SPDLOG_INLINE std::shared_ptr<logger> registry::get(const std::string &logger_name) {
    return nullptr;
}

template <typename Mutex>
void SPDLOG_INLINE spdlog::sinks::base_sink<Mutex>::log(const details::log_msg &msg) {}

namespace os {
SPDLOG_INLINE bool create_dir(const filename_t &path) { return true; }
}
}
}
"""


def test_cpp_export_macros_and_out_of_line_methods():
    chunks = extract_chunks(EXPORT_MACROS, "cpp", "include/spdlog/details/file_helper-inl.h")
    got = {(c.qualified_name, c.start_line): (c.kind, c.parent) for c in chunks if c.kind != "module"}
    assert got == {
        ("file_helper", 3): ("class", None),  # `class SPDLOG_API file_helper`: the macro is no class name
        ("file_helper.open", 6): ("method", "file_helper"),
        # out of line, after an export macro and with a member initializer list
        ("file_helper.file_helper", 9): ("method", "file_helper"),
        ("file_helper.what", 12): ("method", "file_helper"),
        ("registry.get", 14): ("method", "registry"),  # not `shared_ptr.get`
        ("base_sink.log", 19): ("method", "base_sink"),
        ("create_dir", 22): ("function", None),  # namespaces stay out of qualified names
    }
    what = next(c for c in chunks if c.name == "what")
    assert what.signature == "SPDLOG_INLINE const char *file_helper::what() const SPDLOG_NOEXCEPT"
    assert what.text.startswith("SPDLOG_INLINE const char")


STATEMENT_MACROS = """\
SPDLOG_INLINE thread_pool::~thread_pool() {
    SPDLOG_TRY {
        join_all();
    }
    SPDLOG_CATCH_STD
}

void SPDLOG_INLINE thread_pool::post_log(async_logger_ptr &&worker_ptr) {
    post_async_msg_(std::move(worker_ptr));
}

bool SPDLOG_INLINE thread_pool::process_next_msg_() {
    return true;
}

static BOOL is_ready(int x) { return x; }
"""


def test_cpp_statement_macros_and_a_macro_after_the_return_type():
    # ``SPDLOG_TRY {`` … ``SPDLOG_CATCH_STD`` used to break the parse of every function below it, and a macro
    # between the return type and the name hid the name.
    chunks = extract_chunks(STATEMENT_MACROS, "cpp", "include/spdlog/details/thread_pool-inl.h")
    got = {(c.qualified_name, c.start_line): (c.kind, c.parent) for c in chunks if c.kind != "module"}
    assert got == {
        ("thread_pool.~thread_pool", 1): ("method", "thread_pool"),
        ("thread_pool.post_log", 8): ("method", "thread_pool"),
        ("thread_pool.process_next_msg_", 12): ("method", "thread_pool"),
        ("is_ready", 16): ("function", None),  # ``BOOL``, without an underscore, is its return type
    }
    assert next(c for c in chunks if c.name == "post_log").text.startswith("void SPDLOG_INLINE thread_pool::")


def test_cpp_conversion_operators():
    source = """\
struct handle : base
{
    explicit operator bool() const { return fd >= 0; }
    bool operator==(const handle& o) const { return fd == o.fd; }
    int fd;
};

handle::operator int() const { return fd; }
"""
    chunks = extract_chunks(source, "cpp", "handle.cpp")
    got = {(c.kind, c.qualified_name, c.start_line) for c in chunks if c.kind != "module"}
    assert got == {
        ("struct", "handle", 1),
        ("method", "handle.operator bool", 3),
        ("method", "handle.operator==", 4),
        ("method", "handle.operator int", 8),
    }
