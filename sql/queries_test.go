package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
