import pytest

from codesift.text.recursion import TERMS, recursion_terms
from codesift.store.keyword import KeywordDoc, KeywordIndex

CALLS_ITSELF = [
    ("function", "python", "walk", "def walk(node):\n    for c in node.children:\n        walk(c)\n"),
    ("method", "python", "walk", "def walk(self, n):\n    return self.walk(n.next)\n"),
    ("method", "go", "gen", "func (c *Command) gen(w io.Writer) {\n\tc.gen(w)\n}"),
    ("method", "go", "gen", "// gen is a function that writes.\nfunc (c *Command) gen(w io.Writer) {\n\tc.gen(w)\n}"),
    ("method", "rust", "parse", "fn parse(&mut self) -> R {\n    Self::parse(self)\n}"),
    ("method", "typescript", "visit", "visit(n: Node): void {\n  n.kids.forEach((k) => this.visit(k));\n}"),
    ("method", "java", "depth", "int depth(Node n) {\n  return n == null ? 0 : 1 + depth(n.parent);\n}"),
    ("function", "c", "fact", "int fact(int n) { return n <= 1 ? 1 : n * fact (n - 1); }"),
    ("function", "typescript", "run",
     "const run = () => {\n  // the first call of run()\n  if (retry) {\n    run()\n  }\n}"),
    ("method", "java", "depth",
     "@Override\npublic int depth(Node n) {\n  return n == null ? 0 : 1 + depth(n.parent);\n}"),
    ("method", "php", "walk", "function walk($n) {\n  return $this->walk($n->next);\n}"),
]

NOT_ITSELF = [
    ("method", "go", "Close", "func (w *Wrapper) Close() error {\n\treturn w.inner.Close()\n}"),  # delegates
    ("method", "python", "__init__", "def __init__(self):\n    super().__init__()\n"),
    ("method", "python", "open", "def open(self):\n    return open(self.path)\n"),  # the builtin
    ("method", "rust", "parse", "fn parse(&mut self) -> R {\n    T::parse(self)\n}"),
    ("function", "javascript", "walk", "function walk(t) {\n  // walk(t.left) later\n  return 1\n}"),
    ("method", "java", "get", "static T get(String name) {\n  return get(name, new T[0]);\n}"),  # an overload
    ("method", "java", "depth", "// depth(n) counts parents\nint depth(Node n) {\n  return 0;\n}"),  # a comment
    ("function", "typescript", "str",
     "export function str(a: A): S;\nexport function str(a?: A): S {\n  return make(a);\n}"),
    ("class", "python", "Node", "class Node:\n    def copy(self):\n        return Node(self.v)\n"),
    ("function", "python", "walk", "def walk(t):\n    return 1\n"),
]


@pytest.mark.parametrize("kind, language, name, text", CALLS_ITSELF)
def test_a_definition_calling_itself_is_recursive(kind, language, name, text):
    assert recursion_terms(kind, name, text, language=language) == TERMS


@pytest.mark.parametrize("kind, language, name, text", NOT_ITSELF)
def test_namesakes_overloads_and_comments_are_not(kind, language, name, text):
    assert recursion_terms(kind, name, text, language=language) == ""


def test_a_call_in_the_docstring_is_an_example():
    text = 'def walk(t):\n    """Walk it.\n\n    >>> walk(tree)\n    """\n    return 1\n'
    assert recursion_terms("function", "walk", text, "Walk it.\n\n>>> walk(tree)", "python") == ""
    assert recursion_terms("function", "walk", text + "    walk(t)\n", "Walk it.\n\n>>> walk(tree)", "python") == TERMS


def test_keyword_search_finds_the_recursive_definition(tmp_path):
    index = KeywordIndex(tmp_path / "kw")
    for cid, name, text in [
        (1, "visit", "func visit(n *Node) { show(n); for _, c := range n.kids { visit(c) } }"),
        (2, "visitAll", "func visitAll(ns []*Node) { for _, n := range ns { show(n) } }"),
    ]:
        index.add(KeywordDoc(cid, 1, "tree.go", "go", "function", name, name, "", "", "", text))
    for cid in range(3, 12):  # other code, so that a rare term weighs what it does in a real index
        index.add(KeywordDoc(cid, 2, "util.go", "go", "function", f"f{cid}", f"f{cid}", "", "", "",
                             f"func f{cid}(x int) int {{ return x + {cid} }}"))
    index.commit()
    assert index.search("show the nodes recursively", 10)[0][0] == 1
