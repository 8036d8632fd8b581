package store

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A query of queries/*.sql names its parameters (:match, :at) and its
// callers pass them by name (sql.Named). bind turns the names into what
// every driver the store uses binds the same way: numbered parameters
// (?1, ?2, numbered as SQLite numbers names, in order of first use) and
// the values in that order. modernc.org/sqlite binds a named parameter by
// name only, and tursodb's libSQL server ignores Hrana's named arguments,
// so neither is handed a name. A call that passes a name its query does
// not have, misses one it has, passes one twice or mixes names with
// positional arguments is refused before anything runs.

// params is a query's text with its names numbered, and the names, ?1's
// first; names is empty for a query without named parameters.
type params struct {
	text  string
	names []string
	mixed bool // the query also has positional parameters (?)
}

// paramsOf caches queryParams by query text.
var paramsOf sync.Map

// queryParams numbers query's named parameters (:name), skipping quoted
// strings and identifiers.
func queryParams(query string) *params {
	if p, ok := paramsOf.Load(query); ok {
		return p.(*params)
	}
	p := &params{text: query}
	var out strings.Builder
	for i := 0; i < len(query); {
		switch c := query[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(query) && (query[j] != c || j+1 < len(query) && query[j+1] == c) {
				if query[j] == c {
					j++
				}
				j++
			}
			out.WriteString(query[i:min(j+1, len(query))])
			i = j + 1
		case c == '?':
			p.mixed = true
			out.WriteByte(c)
			i++
		case c == ':' && i+1 < len(query) && isNameStart(query[i+1]):
			j := i + 1
			for j < len(query) && (isNameStart(query[j]) || query[j] >= '0' && query[j] <= '9') {
				j++
			}
			name := query[i+1 : j]
			n := 0
			for k, have := range p.names {
				if have == name {
					n = k + 1
				}
			}
			if n == 0 {
				p.names = append(p.names, name)
				n = len(p.names)
			}
			out.WriteString("?" + strconv.Itoa(n))
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	if len(p.names) > 0 {
		p.text = out.String()
	}
	p2, _ := paramsOf.LoadOrStore(query, p)
	return p2.(*params)
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// bind returns query and args as the drivers get them: a query without
// named parameters as it is, one with them numbered, with args (all
// sql.Named) in their order.
func bind(query string, args []any) (string, []any, error) {
	p := queryParams(query)
	if len(p.names) == 0 {
		for _, a := range args {
			if na, ok := a.(sql.NamedArg); ok {
				return "", nil, fmt.Errorf("store: argument %q for a query without named parameters: %s", na.Name, firstLine(query))
			}
		}
		return query, args, nil
	}
	if p.mixed {
		return "", nil, fmt.Errorf("store: a query mixes named and positional parameters: %s", firstLine(query))
	}
	out := make([]any, len(p.names))
	set := make([]bool, len(p.names))
	for _, a := range args {
		na, ok := a.(sql.NamedArg)
		if !ok {
			return "", nil, fmt.Errorf("store: a positional argument for a query with named parameters: %s", firstLine(query))
		}
		i := -1
		for k, name := range p.names {
			if name == na.Name {
				i = k
			}
		}
		switch {
		case i < 0:
			return "", nil, fmt.Errorf("store: argument %q names no parameter of the query: %s", na.Name, firstLine(query))
		case set[i]:
			return "", nil, fmt.Errorf("store: argument %q passed twice: %s", na.Name, firstLine(query))
		}
		out[i], set[i] = na.Value, true
	}
	for i, ok := range set {
		if !ok {
			return "", nil, fmt.Errorf("store: no argument for parameter :%s: %s", p.names[i], firstLine(query))
		}
	}
	return p.text, out, nil
}

// bindStmts binds every statement of a batch.
func bindStmts(stmts []Stmt) ([]Stmt, error) {
	out := make([]Stmt, len(stmts))
	for i, s := range stmts {
		text, args, err := bind(s.SQL, s.Args)
		if err != nil {
			return nil, err
		}
		out[i] = Stmt{SQL: text, Args: args}
	}
	return out, nil
}

// firstLine is a query's first line, to name it in an error.
func firstLine(query string) string {
	line, _, _ := strings.Cut(query, "\n")
	return line
}
