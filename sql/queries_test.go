package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryNamesExist reads the package's sources and checks that every
// query named by a string literal (q("name"), or a literal a table of
// query names holds) is defined in queries/*.sql, so a typo fails here
// instead of panicking at run time; and that every defined query is named
// somewhere, so none is dead.
func TestQueryNamesExist(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	queries := loadQueries(queryFiles)
	fset := token.NewFileSet()
	used := map[string]bool{}
	literals := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "q" && len(n.Args) == 1 {
					if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						name, _ := strconv.Unquote(lit.Value)
						used[name] = true
						if _, ok := queries[name]; !ok {
							t.Errorf("%s: q(%q): no such query in queries/*.sql", fset.Position(lit.Pos()), name)
						}
					}
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					s, _ := strconv.Unquote(n.Value)
					literals[s] = true
				}
			}
			return true
		})
	}
	if len(used) == 0 {
		t.Fatal("found no q(...) call: the test reads the wrong files")
	}
	for name := range queries {
		if !used[name] && !literals[name] {
			t.Errorf("query %q is defined but never named", name)
		}
	}
}

// TestQueriesFoundOneAtATime: q finds every query, on first use, with the
// same text as parsing every file at once gives (which also refuses a
// name defined twice).
func TestQueriesFoundOneAtATime(t *testing.T) {
	all := loadQueries(queryFiles)
	require.Greater(t, len(all), 100)
	for name, text := range all {
		assert.Equal(t, text, q(name), name)
	}
	assert.Panics(t, func() { q("no_such_query") })
}

func TestFindQuery(t *testing.T) {
	fsys := fstest.MapFS{"queries/a.sql": {Data: []byte("-- header\n\n-- name: one\nSELECT 1\n-- a comment\nFROM t\n\n-- name: one_more\n  SELECT 2\n")}}
	for name, want := range map[string]string{"one": "SELECT 1\nFROM t", "one_more": "SELECT 2"} {
		got, ok := findQuery(fsys, name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	_, ok := findQuery(fsys, "on")
	assert.False(t, ok, "a prefix of a name is no name")
	assert.Panics(t, func() {
		loadQueries(fstest.MapFS{"queries/a.sql": {Data: []byte("-- name: x\nSELECT 1\n-- name: x\nSELECT 2\n")}})
	})
}
