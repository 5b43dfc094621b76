"""Conditional compilation blanked for a second parse: lines and offsets kept, branches kept or left out."""

from codesift.parse.conditional import all_branches, first_branch, has_conditionals

SOURCE = b"""\
int a;
#if defined(X) && \\
    defined(Y)
int b;
#  ifdef Z
int c;
#  else
int d;
#  endif
#elif W
int e;
#else
int f;
#endif
#define KEEP 1
"""


def test_every_branch_kept_with_directives_and_their_continuations_blanked():
    out = all_branches(SOURCE)
    assert len(out) == len(SOURCE) and out.count(b"\n") == SOURCE.count(b"\n")
    kept = [line.strip() for line in out.split(b"\n") if line.strip()]
    assert kept == [b"int a;", b"int b;", b"int c;", b"int d;", b"int e;", b"int f;", b"#define KEEP 1"]


def test_first_branch_leaves_out_each_elif_and_else():
    out = first_branch(SOURCE)
    assert len(out) == len(SOURCE)
    kept = [line.strip() for line in out.split(b"\n") if line.strip()]
    assert kept == [b"int a;", b"int b;", b"int c;", b"#define KEEP 1"]


def test_unbalanced_directives_and_sources_without_any():
    assert all_branches(b"#endif\nint a;\n#else\n") == b"#endif\nint a;\n#else\n"
    assert not has_conditionals(b"#define X 1\nint a;\n")
    assert has_conditionals(b"  #  ifndef GUARD\n")
