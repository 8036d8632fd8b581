package store

import (
	"database/sql"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
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
	queries := loadQueries(queryFiles)
	fset, files := packageSources(t)
	used := map[string]bool{}
	literals := map[string]bool{}
	for _, file := range files {
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

// packageSources parses the package's sources, tests left out.
func packageSources(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	return fset, files
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

// TestQueryArgumentsNamed reads the package's sources and checks that
// every statement built from a query by name (q("name") followed by its
// arguments, or a Stmt's SQL and Args) passes, as sql.Named, exactly the
// names its query's text has: a misspelt, missing or extra name fails
// here even when no test runs the statement. Statements whose query is
// put together from parts, or whose arguments are built elsewhere, are
// checked by bind as they run.
func TestQueryArgumentsNamed(t *testing.T) {
	fset, files := packageSources(t)
	checked := 0
	check := func(at token.Pos, name string, args []ast.Expr) {
		var passed []string
		for _, a := range args {
			call, ok := a.(*ast.CallExpr)
			sel, _ := func() (*ast.SelectorExpr, bool) {
				if !ok {
					return nil, false
				}
				s, ok := call.Fun.(*ast.SelectorExpr)
				return s, ok
			}()
			if sel == nil || sel.Sel.Name != "Named" || len(call.Args) != 2 {
				return // built elsewhere: bind checks it
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				return
			}
			n, _ := strconv.Unquote(lit.Value)
			passed = append(passed, n)
		}
		checked++
		want := queryParams(q(name)).names
		assert.ElementsMatch(t, want, passed, "%s: q(%q) passes %v, its query names %v", fset.Position(at), name, passed, want)
	}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				for i, a := range n.Args {
					if name, ok := queryNamed(a); ok && !n.Ellipsis.IsValid() {
						check(a.Pos(), name, n.Args[i+1:])
					}
				}
			case *ast.CompositeLit:
				var name string
				var args []ast.Expr
				found := false
				for _, el := range n.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					switch key, _ := kv.Key.(*ast.Ident); {
					case key == nil:
					case key.Name == "SQL":
						name, found = queryNamed(kv.Value)
					case key.Name == "Args":
						list, ok := kv.Value.(*ast.CompositeLit)
						if !ok {
							return true // built elsewhere: bind checks it
						}
						args = list.Elts
					}
				}
				if found {
					check(n.Pos(), name, args)
				}
			}
			return true
		})
	}
	require.Greater(t, checked, 200, "found too few statements: the test reads the wrong files")
}

// queryNamed reports the name of a q("name") call.
func queryNamed(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "q" {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	name, _ := strconv.Unquote(lit.Value)
	return name, true
}

func TestBind(t *testing.T) {
	query := "UPDATE m SET a = :at, note = ':not_a_name', b = \"col:x\" WHERE id = :match AND c = :at"
	text, args, err := bind(query, []any{sql.Named("match", 7), sql.Named("at", "now")})
	require.NoError(t, err)
	assert.Equal(t, "UPDATE m SET a = ?1, note = ':not_a_name', b = \"col:x\" WHERE id = ?2 AND c = ?1", text,
		"numbered in order of first use, quoted text untouched")
	assert.Equal(t, []any{"now", 7}, args, "values in the numbers' order, whatever the call's")
	for name, args := range map[string][]any{
		"Typo":           {sql.Named("macth", 7), sql.Named("at", "now")},
		"Missing":        {sql.Named("match", 7)},
		"Extra":          {sql.Named("match", 7), sql.Named("at", "now"), sql.Named("by", "x")},
		"Twice":          {sql.Named("match", 7), sql.Named("at", "now"), sql.Named("at", "then")},
		"Positional":     {7, "now"},
		"SomePositional": {sql.Named("match", 7), "now"},
	} {
		_, _, err := bind(query, args)
		assert.Error(t, err, name)
	}
	_, _, err = bind("SELECT 1 WHERE x = ?", []any{sql.Named("x", 1)})
	assert.Error(t, err, "a name for a query without names")
	_, _, err = bind("SELECT :a, ?", []any{sql.Named("a", 1)})
	assert.Error(t, err, "names and positional parameters mixed")
	text, args, err = bind("SELECT ? WHERE x = ?", []any{1, 2})
	require.NoError(t, err)
	assert.Equal(t, "SELECT ? WHERE x = ?", text, "a query without names goes as it is")
	assert.Equal(t, []any{1, 2}, args)
}

// TestEveryQueryBinds: every query's names bind (each is numbered, none
// is mixed with positional parameters).
func TestEveryQueryBinds(t *testing.T) {
	for name, text := range loadQueries(queryFiles) {
		p := queryParams(text)
		assert.False(t, p.mixed && len(p.names) > 0, "%s mixes named and positional parameters", name)
		assert.False(t, p.mixed, "%s has a positional parameter", name)
	}
}

// TestQueryStatusesAreCore: a status a query compares with is spelled as
// a literal ('scheduled'), and core defines the words: every literal a
// status column is compared with is the value of one of core's status
// constants (those of a type named …Status, and the recording states),
// so a misspelt or unknown status fails here.
func TestQueryStatusesAreCore(t *testing.T) {
	words := coreStatusWords(t)
	require.Contains(t, words, "awaiting_result", "the test reads core's constants")
	compared := regexp.MustCompile(`(?i)\bstatus\s*(?:=|<>|!=|\bIN\b|\bNOT IN\b)\s*\(?((?:\s*'[^']*'\s*,?)+)`)
	literal := regexp.MustCompile(`'([^']*)'`)
	seen := 0
	for name, text := range loadQueries(queryFiles) {
		for _, m := range compared.FindAllStringSubmatch(text, -1) {
			for _, l := range literal.FindAllStringSubmatch(m[1], -1) {
				seen++
				if !words[l[1]] {
					t.Errorf("query %s compares a status with %q, which no core status constant holds", name, l[1])
				}
			}
		}
	}
	require.Greater(t, seen, 50, "the test finds the queries' status literals")
}

// coreStatusWords are the values of core's status constants: the typed
// ones (MatchStatus, TournamentStatus, ...) and the recording states.
func coreStatusWords(t *testing.T) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "../core", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	words := map[string]bool{}
	for _, pkg := range pkgs {
		for _, file := range pkg.Files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok || gen.Tok != token.CONST {
					continue
				}
				for _, spec := range gen.Specs {
					vs := spec.(*ast.ValueSpec)
					typ, _ := vs.Type.(*ast.Ident)
					status := typ != nil && strings.HasSuffix(typ.Name, "Status")
					for i, name := range vs.Names {
						if !status && !strings.HasPrefix(name.Name, "Recording") || i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							words[s] = true
						}
					}
				}
			}
		}
	}
	return words
}
