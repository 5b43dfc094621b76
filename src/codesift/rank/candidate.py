"""One search candidate as it moves through the ranking stages."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Candidate:
    """A chunk with its retrieval ranks, its running score and a record of every adjustment."""

    chunk_id: int
    path: str
    name: str
    qualified_name: str
    kind: str
    language: str
    start_line: int
    end_line: int
    text: str
    mtime: float = 0.0
    decorators: tuple[str, ...] = ()
    doc: str = ""  # its docstring or doc comment
    keyword_rank: int | None = None
    vector_rank: int | None = None
    score: float = 0.0
    merged_names: list[str] = field(default_factory=list)
    also_defined: list[str] = field(default_factory=list)  # the name's other definitions ("path:line kind name")
    named: bool = False  # the query names it (an identifier query's definition, its namesakes' pick): labelled HIGH
    nested: int = 0  # definitions inside it, counted for long functions only (diversity.enclosing_first)
    explain: dict[str, float] = field(default_factory=dict)

    @property
    def span(self) -> int:
        return self.end_line - self.start_line + 1
