"""Identifier queries in each language's own syntax resolve to the definition, in find_symbol and search:
``Class::method`` (C++, PHP), ``Ns\\Class::method`` (PHP), ``Module#method`` and ``Module::Class`` (Ruby),
``Namespace.Class.Method`` (C#), ``Type.method`` (a Kotlin extension), ``ns::function`` (C++), and operators by
their symbol (``Vec::operator==``, ``operator<<``)."""

from __future__ import annotations

import pytest

from conftest import write_repo

FILES = {
    "include/spdlog/details/file_helper-inl.h": """
        namespace spdlog {
        namespace details {
        SPDLOG_INLINE void file_helper::open(const filename_t &fname, bool truncate) {
            close();
        }
        SPDLOG_INLINE void file_helper::close() {}
        namespace os {
        SPDLOG_INLINE bool create_dir(const filename_t &path) { return true; }
        }
        }
        }
    """,
    "src/Polly.Core/Retry/RetryHelper.cs": """
        namespace Polly.Retry;

        internal static class RetryHelper
        {
            public static bool IsValidDelay(TimeSpan delay) => delay >= TimeSpan.Zero;
        }
    """,
    "src/Polly.Core/Other/RetryHelper.cs": """
        namespace Polly.Other;

        internal static class RetryHelper
        {
            public static bool IsValidDelay(TimeSpan delay) => false;
        }
    """,
    "src/geo/vec.cpp": """
        namespace geo {
        struct Vec {
            double x, y;
            Vec operator+(const Vec& o) const { return Vec{x + o.x, y + o.y}; }
            Vec operator-(const Vec& o) const { return Vec{x - o.x, y - o.y}; }
            bool operator==(const Vec& o) const { return x == o.x && y == o.y; }
            double& operator[](int i) { return i ? y : x; }
        };
        std::ostream& operator<<(std::ostream& out, const Vec& v) { return out << v.x; }
        struct Less { bool operator()(const Vec& a, const Vec& b) const { return a.x < b.x; } };
        }
    """,
    "src/Json/JToken.cs": """
        namespace Json.Linq;

        public abstract class JToken
        {
            public static bool operator ==(JToken a, JToken b) => Equals(a, b);
            public static JToken operator +(JToken a, JToken b) => a.Add(b);
        }
    """,
    "coil/util/buffers.kt": """
        package coil3.util

        fun Buffer.readUtf8Line(): String = readUtf8()
    """,
    "src/Monolog/Handler/StreamHandler.php": """
        <?php
        namespace Monolog\\Handler;

        class StreamHandler extends AbstractProcessingHandler
        {
            protected function streamWrite($stream, LogRecord $record): void
            {
                fwrite($stream, (string) $record->formatted);
            }
        }
    """,
    "lib/jekyll/entry_filter.rb": """
        module Jekyll
          class EntryFilter
            def filter(entries)
              entries
            end
          end
          module Commands
            class Serve
              def self.launch_browser(url); end
            end
          end
        end
    """,
}


@pytest.fixture
def native_index(tmp_path, monkeypatch):
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    with Index(write_repo(tmp_path / "repo", FILES)) as idx:
        idx.update(embed=False)
        yield idx


ASKED = [
    ("file_helper::open", "include/spdlog/details/file_helper-inl.h", "file_helper.open"),
    ("spdlog::details::file_helper::open", "include/spdlog/details/file_helper-inl.h", "file_helper.open"),
    ("os::create_dir", "include/spdlog/details/file_helper-inl.h", "create_dir"),
    ("Polly.Retry.RetryHelper.IsValidDelay", "src/Polly.Core/Retry/RetryHelper.cs", "RetryHelper.IsValidDelay"),
    ("Other.RetryHelper.IsValidDelay", "src/Polly.Core/Other/RetryHelper.cs", "RetryHelper.IsValidDelay"),
    ("Buffer.readUtf8Line", "coil/util/buffers.kt", "Buffer.readUtf8Line"),
    ("StreamHandler::streamWrite", "src/Monolog/Handler/StreamHandler.php", "StreamHandler.streamWrite"),
    ("Monolog\\Handler\\StreamHandler::streamWrite", "src/Monolog/Handler/StreamHandler.php",
     "StreamHandler.streamWrite"),
    ("\\Monolog\\Handler\\StreamHandler", "src/Monolog/Handler/StreamHandler.php", "StreamHandler"),
    ("EntryFilter#filter", "lib/jekyll/entry_filter.rb", "Jekyll.EntryFilter.filter"),
    ("Jekyll::Commands::Serve", "lib/jekyll/entry_filter.rb", "Jekyll.Commands.Serve"),
    ("Serve.launch_browser", "lib/jekyll/entry_filter.rb", "Jekyll.Commands.Serve.launch_browser"),
    # an operator by its symbol: the name is more than its word `operator`
    ("operator-", "src/geo/vec.cpp", "Vec.operator-"),
    ("Vec::operator==", "src/geo/vec.cpp", "Vec.operator=="),
    ("geo::Vec::operator[]", "src/geo/vec.cpp", "Vec.operator[]"),
    ("operator<<", "src/geo/vec.cpp", "operator<<"),
    ("Less::operator()", "src/geo/vec.cpp", "Less.operator()"),
    ("JToken.operator+", "src/Json/JToken.cs", "JToken.operator+"),
]


@pytest.mark.parametrize(("query", "path", "qualified"), ASKED)
def test_find_symbol_resolves_each_languages_syntax(native_index, query, path, qualified):
    found = native_index.find_symbol(query, exact=True)
    assert [(f["path"], f["qualified_name"]) for f in found] == [(path, qualified)]


@pytest.mark.parametrize(("query", "path", "qualified"), ASKED)
def test_search_ranks_the_definition_first(native_index, query, path, qualified):
    top = native_index.search(query, limit=1).results[0]
    assert (top.path, top.qualified_name) == (path, qualified)


def test_a_namespace_the_file_does_not_declare_finds_nothing(native_index):
    assert native_index.find_symbol("Polly.Nowhere.RetryHelper.IsValidDelay", exact=True) == []
