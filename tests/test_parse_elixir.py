"""Elixir definition extraction."""

from codesift.parse import extract_chunks

SOURCE = '''\
defmodule MyApp.Accounts do
  @moduledoc """
  The accounts context.
  """

  alias MyApp.Repo

  @doc """
  Gets a user by id.
  """
  @spec get_user(integer) :: User.t()
  def get_user(id) do
    Repo.get(User, id)
  end

  # Private helper.
  defp normalize(email), do: String.downcase(email)

  defmacro debug(expr) do
    quote do: IO.inspect(unquote(expr))
  end

  defmodule User do
    defstruct [:id, :email]

    def new(attrs \\\\ %{}), do: struct(__MODULE__, attrs)
  end

  defprotocol Printable do
    def print(data)
  end
end

defimpl MyApp.Accounts.Printable, for: Integer do
  def print(n), do: Integer.to_string(n)
end

defmodule Math do
  @doc "Factorial."
  def fact(0), do: 1
  def fact(n) when n > 0, do: n * fact(n - 1)

  def zero, do: 0
end
'''


def test_elixir_definitions():
    chunks = extract_chunks(SOURCE, "elixir", "lib/my_app/accounts.ex")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "MyApp.Accounts": ("module_def", 1, 32, None),
        "MyApp.Accounts.get_user": ("method", 12, 14, "MyApp.Accounts"),
        "MyApp.Accounts.normalize": ("method", 17, 17, "MyApp.Accounts"),
        "MyApp.Accounts.debug": ("method", 19, 21, "MyApp.Accounts"),
        "MyApp.Accounts.User": ("module_def", 23, 27, "MyApp.Accounts"),
        "MyApp.Accounts.User.new": ("method", 26, 26, "MyApp.Accounts.User"),
        "MyApp.Accounts.Printable": ("interface", 29, 31, "MyApp.Accounts"),
        "MyApp.Accounts.Printable.print": ("method", 30, 30, "MyApp.Accounts.Printable"),
        "MyApp.Accounts.Printable.Integer": ("impl", 34, 36, None),
        "MyApp.Accounts.Printable.Integer.print": ("method", 35, 35, "MyApp.Accounts.Printable.Integer"),
        "Math": ("module_def", 38, 44, None),
        "Math.fact": ("method", 40, 41, "Math"),
        "Math.zero": ("method", 43, 43, "Math"),
    }
    assert defs["MyApp.Accounts"].signature == "defmodule MyApp.Accounts"
    assert defs["MyApp.Accounts.get_user"].signature == "def get_user(id)"
    assert defs["MyApp.Accounts.normalize"].signature == "defp normalize(email)"
    assert defs["MyApp.Accounts.debug"].signature == "defmacro debug(expr)"
    assert defs["MyApp.Accounts.User"].signature == "defmodule User"
    assert defs["MyApp.Accounts.User.new"].signature == "def new(attrs \\\\ %{})"
    assert defs["MyApp.Accounts.Printable"].signature == "defprotocol Printable"
    assert defs["MyApp.Accounts.Printable.print"].signature == "def print(data)"
    assert defs["MyApp.Accounts.Printable.Integer"].signature == "defimpl MyApp.Accounts.Printable, for: Integer"
    assert defs["MyApp.Accounts.Printable.Integer.print"].signature == "def print(n)"
    assert defs["Math"].signature == "defmodule Math"
    assert defs["Math.fact"].signature == "def fact(0)"
    assert defs["Math.zero"].signature == "def zero"
    assert defs["MyApp.Accounts"].docstring == "The accounts context."
    assert defs["MyApp.Accounts.get_user"].docstring == "Gets a user by id."
    assert defs["MyApp.Accounts.normalize"].docstring == "Private helper."
    assert defs["Math.fact"].docstring == "Factorial."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == []


def test_elixir_attributes_and_clauses_belong_to_the_function():
    defs = {c.qualified_name: c for c in extract_chunks(SOURCE, "elixir", "lib/my_app/accounts.ex")}
    get_user = defs["MyApp.Accounts.get_user"]
    assert get_user.text.startswith('  @doc """\n  Gets a user by id.')
    assert "@spec get_user(integer)" in get_user.text
    assert get_user.start_line == 12  # the `def` line, as a decorated Python function starts at its `def`
    fact = defs["Math.fact"]
    assert "def fact(0), do: 1" in fact.text and "def fact(n) when n > 0" in fact.text
