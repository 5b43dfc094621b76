"""Ruby definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
require "json"

# Helpers for the API.
module Api
  VERSION = "1.0"

  # Handles user requests.
  class UsersController < ApplicationController
    before_action :authenticate

    # Show one user.
    # Renders JSON.
    def show(id, format: :json)
      render json: User.find(id)
    end

    def self.routes
      [:show]
    end

    class << self
      def cache; @cache ||= {}; end
    end
  end
end

def helper = 42

get "/health" do
  "ok"
end
"""


def test_ruby_definitions():
    chunks = extract_chunks(SOURCE, "ruby", "app/controllers/users_controller.rb")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Api": ("module_def", 4, 25, None),
        "Api.UsersController": ("class", 8, 24, "Api"),
        "Api.UsersController.show": ("method", 13, 15, "Api.UsersController"),
        "Api.UsersController.routes": ("method", 17, 19, "Api.UsersController"),
        "Api.UsersController.cache": ("method", 22, 22, "Api.UsersController"),
        "helper": ("function", 27, 27, None),
        "GET /health": ("function", 29, 31, None),
    }
    assert defs["Api"].docstring == "Helpers for the API."
    ctrl = defs["Api.UsersController"]
    assert ctrl.signature == "class UsersController < ApplicationController"
    assert ctrl.docstring == "Handles user requests."
    show = defs["Api.UsersController.show"]
    assert show.signature == "def show(id, format: :json)"
    assert show.docstring == "Show one user.\nRenders JSON."
    assert show.text == "    def show(id, format: :json)\n      render json: User.find(id)\n    end"
    assert defs["Api.UsersController.routes"].signature == "def self.routes"
    assert defs["GET /health"].route == "GET /health"
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1)]


SCOPES = """\
module Jekyll
  class Commands::Serve < Command
    class << self
      def process?(opts)
        true
      end
    end

    def self.launch!(url); end

    def start; end
  end
end
"""


def test_ruby_compact_class_names_and_singleton_methods():
    defs = {c.qualified_name: c for c in extract_chunks(SCOPES, "ruby", "lib/jekyll/serve.rb") if c.kind != "module"}
    got = {q: (c.kind, c.parent) for q, c in defs.items()}
    assert got == {
        "Jekyll": ("module_def", None),
        # `class Commands::Serve` inside `module Jekyll` is Jekyll::Commands::Serve
        "Jekyll.Commands.Serve": ("class", "Jekyll.Commands"),
        # `class << self` opens no definition: its methods are the class's
        "Jekyll.Commands.Serve.process?": ("method", "Jekyll.Commands.Serve"),
        "Jekyll.Commands.Serve.launch!": ("method", "Jekyll.Commands.Serve"),
        "Jekyll.Commands.Serve.start": ("method", "Jekyll.Commands.Serve"),
    }
    assert defs["Jekyll.Commands.Serve"].name == "Serve"
