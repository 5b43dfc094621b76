"""Conditional compilation blanked for a second parse: lines and offsets kept, branches kept or left out."""

from codesift.parse.conditional import all_branches, first_branch, has_conditionals

SOURCE = b"""\
int a;
#if X && !Y
int b;
#  if Z
int c;
#  elif V
int d;
#  endif
#elseif W
int e;
#else
int f;
#endif
#region Keep
"""


def test_every_branch_kept_with_the_directives_blanked():
    out = all_branches(SOURCE)
    assert len(out) == len(SOURCE) and out.count(b"\n") == SOURCE.count(b"\n")
    kept = [line.strip() for line in out.split(b"\n") if line.strip()]
    assert kept == [b"int a;", b"int b;", b"int c;", b"int d;", b"int e;", b"int f;", b"#region Keep"]


def test_first_branch_leaves_out_each_elif_elseif_and_else():
    out = first_branch(SOURCE)
    assert len(out) == len(SOURCE)
    kept = [line.strip() for line in out.split(b"\n") if line.strip()]
    assert kept == [b"int a;", b"int b;", b"int c;", b"#region Keep"]


def test_unbalanced_directives_and_sources_without_any():
    assert all_branches(b"#endif\nint a;\n#else\n") == b"#endif\nint a;\n#else\n"
    assert not has_conditionals(b"#region X\nint a;\n")
    assert has_conditionals(b"  #  if DEBUG\n")
