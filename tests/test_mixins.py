"""Calls resolved through what a type mixes in: Ruby modules (``include``), PHP traits (``use``), Ruby superclasses
(``class A < B``) looked up as Ruby looks constants up, and receivers that are expressions."""

import pytest

from codesift import Index
from codesift.tools.targets import base_names
from conftest import write_repo

RUBY = {
    "lib/rack/request.rb": '''
        module Rack
          class Request
            module Env
              def get_header(name)
                @env[name]
              end
            end

            module Helpers
              def body
                get_header("rack.input")
              end
            end

            include Env
            include Helpers
          end
        end
        ''',
    "lib/rack/response.rb": '''
        module Rack
          class Response
            def get_header(key)
              headers[key]
            end

            def cache_control
              (cached || fresh).get_header("Cache-Control")
            end

            module Helpers
              def content_type
                get_header("Content-Type")
              end
            end

            include Helpers
          end
        end
        ''',
    "lib/site/document.rb": '''
        module Site
          class Document
            def get_header(key)
              data[key]
            end
          end

          class Page < Document
            def title
              get_header("title")
            end
          end
        end
        ''',
    "lib/kramdown/ext.rb": '''
        module Kramdown
          class SiteDocument < Document
            def setup
              get_header("kramdown")
            end
          end
        end
        ''',
}

PHP = {
    "src/FormattableHandlerInterface.php": '''<?php
        interface FormattableHandlerInterface
        {
            public function getFormatter(): Formatter;
        }
        ''',
    "src/FormattableHandlerTrait.php": '''<?php
        trait FormattableHandlerTrait
        {
            public function getFormatter(): Formatter
            {
                return $this->formatter;
            }
        }
        ''',
    "src/StreamHandler.php": '''<?php
        class StreamHandler implements FormattableHandlerInterface
        {
            use FormattableHandlerTrait;

            public function write(array $record): void
            {
                fwrite($this->stream, $this->getFormatter()->format($record));
            }
        }
        ''',
    "src/Lines.php": '''<?php
        trait Lines
        {
            public function line(): string
            {
                return $this->prefix() . "\\n";
            }
        }

        class Plain
        {
            use Lines;

            public function prefix(): string
            {
                return "plain";
            }
        }

        class Fancy
        {
            public function prefix(): string
            {
                return "fancy";
            }
        }
        ''',
}


def _keyword_index(tmp_path_factory, name, files):
    mp = pytest.MonkeyPatch()
    mp.setenv("CODESIFT_EMBEDDER", "none")
    idx = Index(write_repo(tmp_path_factory.mktemp(name), files))
    idx.update(embed=False)
    yield idx
    idx.close()
    mp.undo()


@pytest.fixture(scope="module")
def ruby(tmp_path_factory):
    yield from _keyword_index(tmp_path_factory, "rb", RUBY)


@pytest.fixture(scope="module")
def php(tmp_path_factory):
    yield from _keyword_index(tmp_path_factory, "php", PHP)


def _targets(idx, name):
    return {u["enclosing"]: u["target"] for u in idx.find_usages(name)["usages"]}


def test_a_ruby_module_calls_what_a_module_beside_it_in_the_including_class_defines(ruby):
    """``Helpers#body`` calls ``get_header``, which ``Env`` defines; ``Request`` includes both."""
    targets = _targets(ruby, "get_header")
    assert targets["Rack.Request.Helpers.body"] == "Rack.Request.Env.get_header"
    # the namesake module Helpers of Response runs inside Response, which defines its own get_header
    assert targets["Rack.Response.Helpers.content_type"] == "Rack.Response.get_header"
    callers = ruby.callers("Rack.Request.Env.get_header")["results"]
    assert [(r["name"], r["target"]) for r in callers if r["target"] != "unresolved"] == [
        ("Rack.Request.Helpers.body", "Rack.Request.Env.get_header")]


def test_a_ruby_superclass_is_looked_up_from_where_the_class_is_written(ruby):
    targets = _targets(ruby, "get_header")
    assert targets["Site.Page.title"] == "Site.Document.get_header"  # class Page < Document, both in Site
    # inside module Kramdown, Document is Kramdown::Document (not indexed), not Site::Document
    assert targets["Kramdown.SiteDocument.setup"] == "unresolved"


def test_a_receiver_that_is_an_expression_is_not_the_enclosing_type(ruby):
    """``(cached || fresh).get_header``: not a call on ``self`` though Response defines get_header."""
    assert _targets(ruby, "get_header")["Rack.Response.cache_control"] == "unresolved"


def test_a_php_trait_method_is_called_over_the_interface_declaration(php):
    assert _targets(php, "getFormatter")["StreamHandler.write"] == "FormattableHandlerTrait.getFormatter"


def test_a_php_trait_calls_the_method_of_the_class_that_uses_it(php):
    assert _targets(php, "prefix")["Lines.line"] == "Plain.prefix"
    callers = php.callers("Plain.prefix")["results"]
    assert [(r["name"], r["target"]) for r in callers] == [("Lines.line", "Plain.prefix")]


@pytest.mark.parametrize(("signature", "bases"), [
    ("class Page < Document", ["Document"]),
    ("class Cookie < Abstract::PersistedSecure", ["PersistedSecure"]),
    ("class Request", []),
    ("class << self", []),
    ("class A(B, m.C)", ["B", "C"]),
])
def test_base_names_read_a_ruby_superclass(signature, bases):
    assert base_names(signature) == bases
