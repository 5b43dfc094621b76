"""Go definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
package server

import (
	"fmt"
	"net/http"
)

// MaxConns limits open connections.
const MaxConns = 10

// Server serves HTTP.
// It is safe for concurrent use.
type Server struct {
	Addr string
}

type Handler interface {
	Serve(w http.ResponseWriter, r *http.Request)
}

type (
	ID   int
	Pair[K comparable, V any] struct{ k K }
)

// NewServer builds a Server.
func NewServer(addr string) *Server {
	return &Server{Addr: addr}
}

// Handle routes one request.
func (s *Server) Handle(w http.ResponseWriter, r *http.Request) error {
	log := func(msg string) { fmt.Println(msg) }
	log(r.URL.Path)
	return nil
}

func (p Pair[K, V]) Key() K { return p.k }
"""


def test_go_definitions():
    chunks = extract_chunks(SOURCE, "go", "server/server.go")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Server": ("struct", 13, 15, None),
        "Handler": ("interface", 17, 19, None),
        "ID": ("type", 22, 22, None),
        "Pair": ("struct", 23, 23, None),
        "NewServer": ("function", 27, 29, None),
        "Server.Handle": ("method", 32, 36, "Server"),
        "Pair.Key": ("method", 38, 38, "Pair"),
    }
    assert defs["Server"].signature == "type Server struct"
    assert defs["Server"].docstring == "Server serves HTTP.\nIt is safe for concurrent use."
    assert defs["NewServer"].signature == "func NewServer(addr string) *Server"
    assert defs["NewServer"].docstring == "NewServer builds a Server."
    handle = defs["Server.Handle"]
    assert handle.name == "Handle"
    assert handle.signature == (
        "func (s *Server) Handle(w http.ResponseWriter, r *http.Request) error"
    )
    assert handle.docstring == "Handle routes one request."
    assert handle.text.startswith("func (s *Server) Handle(")
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    # `type (` opens a group; its lone `)` is punctuation and dropped
    assert modules == [(1, 1), (3, 6), (8, 9), (21, 21)]


def test_package_level_function_variables():
    src = """\
package cli

// OsExiter exits the process; tests replace it.
var OsExiter = func(code int) {
	os.Exit(code)
}

var (
	Version = "1.0"
	logf    = func(format string, a ...any) { fmt.Printf(format, a...) }
)

var x, y = func() {}, 2

func run() {
	var inner = func() {}
	inner()
}
"""
    chunks = extract_chunks(src, "go", "cli.go")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    assert {q: (c.kind, c.start_line, c.end_line) for q, c in defs.items()} == {
        "OsExiter": ("function", 4, 6),
        "logf": ("function", 10, 10),
        "run": ("function", 15, 18),  # a function variable inside a function stays part of it
    }
    assert defs["OsExiter"].signature == "var OsExiter = func(code int)"
    assert defs["OsExiter"].docstring == "OsExiter exits the process; tests replace it."
    # several names or a non-function value: not one function
    assert not any(c.qualified_name in ("x", "y", "Version") for c in chunks)
