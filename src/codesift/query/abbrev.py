"""Programmers' abbreviations: a query saying "arguments" also looks for ``args``, and ``ctx`` for "context".

People describe code in words; code spells the same things short (``argv``, ``stdin``, ``cfg``). The keyword
retriever matches terms exactly, so a query that names a concept in full misses the function that only
abbreviates it. This is general vocabulary of code, the same for every repository and language: each line
holds a full form and the short forms it is commonly written as, looked up both ways round (a several-word
form only from the words to the short form).
"""

from __future__ import annotations

from functools import lru_cache

from codesift.text.tokens import tokenize

# full forms (comma-separated; a form may be several words) | the short forms they are written as.
_TABLE = """
argument | arg args argv argc
parameter | param params
option | opt opts
command | cmd cmds
configuration, configure | config cfg conf
directory | dir dirs
environment | env
error | err errs
message | msg msgs
context | ctx
request | req
response | resp res
reference | ref refs
string | str
integer | int
number | num
length | len
value | val vals
variable | var vars
function | func fn
initialize, initialise, initialization | init
implementation, implement | impl
iterator, iterate | iter
index | idx
maximum | max
minimum | min
previous | prev
temporary | tmp temp
buffer | buf
source | src
destination | dst dest
information | info
authentication, authenticate, authorization | auth
database | db
separator | sep
position | pos
repository | repo
specification | spec
attribute | attr attrs
element | elem
expression | expr
literal | lit
declaration | decl
definition | def defn
document, documentation | doc docs
generate, generator | gen
allocate, allocation | alloc
synchronize, synchronous | sync
asynchronous | async
character | char chr
boolean | bool
address | addr
application | app
calculate | calc
callback | cb
column | col cols
count | cnt
current | cur curr
delete | del
description | desc
dictionary | dict
execute, execution | exec
extension | ext
format | fmt
frequency | freq
identifier | id ident
image | img
library | lib
manager | mgr
memory | mem
object | obj
operation, operator | op
package | pkg
pointer | ptr
process | proc
property, properties | prop props
receive | recv
sequence | seq
statistics | stats
standard | std
statement | stmt
template | tmpl tpl
utility, utilities | util utils
transaction | txn
connection | conn
coordinate | coord
hexadecimal | hex
millisecond, milliseconds | ms
standard input | stdin
standard output | stdout
standard error | stderr
command line | cli cmdline
regular expression | regex regexp
abstract syntax tree | ast
file descriptor | fd
key value | kv
"""


@lru_cache(maxsize=1)
def _table() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Stemmed term sequence → the terms it also goes by (both directions)."""
    out: dict[tuple[str, ...], list[str]] = {}
    for line in _TABLE.strip().splitlines():
        full, _, short = line.partition("|")
        shorts = [t for word in short.split() for t in tokenize(word, keep_stop_words=True)]
        fulls = [tuple(tokenize(form, keep_stop_words=True)) for form in full.split(",")]
        for f in fulls:
            out.setdefault(f, []).extend(s for s in shorts if (s,) != f)
            if len(f) == 1:  # not from ``stdin`` back to "standard input": loose words would be noise
                for s in shorts:
                    out.setdefault((s,), []).append(f[0])
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items() if v}


def abbreviations(query: str) -> list[str]:
    """Terms the query's words (or word pairs/triples) are also written as, not already in the query."""
    terms = tokenize(query, keep_stop_words=True)
    table = _table()
    found: dict[str, None] = {}
    for i in range(len(terms)):
        for n in (3, 2, 1):
            for t in table.get(tuple(terms[i:i + n]), ()):
                found[t] = None
    have = set(terms)
    return [t for t in found if t not in have]
