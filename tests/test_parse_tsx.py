"""TSX (React) definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
import React, { useState } from 'react';

type Props = { title: string };

// Shows a counter.
export function Counter({ title }: Props) {
  const [n, setN] = useState(0);
  const increment = () => setN(n + 1);
  return <button onClick={increment}>{title}: {n}</button>;
}

export const Header = React.memo(({ title }: Props) => (
  <h1 className="header">{title}</h1>
));

export default class Page extends React.Component<Props> {
  render() {
    return <div><Header title={this.props.title} /></div>;
  }
}
"""


def test_components():
    chunks = extract_chunks(SOURCE, "tsx", "src/Counter.tsx")
    got = {
        c.qualified_name: (c.kind, c.start_line, c.end_line, c.parent)
        for c in chunks
        if c.kind != "module"
    }
    assert got == {
        "Props": ("type", 3, 3, None),
        "Counter": ("function", 6, 10, None),
        "Counter.increment": ("function", 8, 8, "Counter"),
        "Header": ("function", 12, 14, None),
        "Page": ("class", 16, 20, None),
        "Page.render": ("method", 17, 19, "Page"),
    }
    by_name = {c.qualified_name: c for c in chunks}
    assert by_name["Counter"].signature == "export function Counter({ title }: Props)"
    assert by_name["Counter"].docstring == "Shows a counter."
    assert by_name["Page"].signature == "export default class Page extends React.Component<Props>"
    assert all(c.language == "tsx" for c in chunks)
