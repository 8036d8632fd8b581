package core

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arena/i18n"
)

// problemFormats are the formats core writes people's input problems
// with (Problems.invalid and add, the tournament rules' add, checkName's
// empty text), read from core's source.
func problemFormats(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	consts := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
		ast.Inspect(af, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok {
				for i, name := range v.Names {
					if i < len(v.Values) {
						if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
			return true
		})
	}
	var out []string
	for _, af := range parsed {
		ast.Inspect(af, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			idx := -1 // the format's argument
			switch fn := c.Fun.(type) {
			case *ast.SelectorExpr: // p.invalid(field, format, ...), p.add(code, field, format, ...)
				switch fn.Sel.Name {
				case "invalid":
					idx = 1
				case "add":
					idx = 2
				}
			case *ast.Ident: // the rules' add(field, format, ...), checkName(p, field, name, empty)
				switch fn.Name {
				case "add":
					idx = 1
				case "checkName":
					idx = 3
				}
			}
			if idx < 0 || len(c.Args) <= idx {
				return true
			}
			switch a := c.Args[idx].(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(a.Value); err == nil && a.Kind == token.STRING {
					out = append(out, s)
				}
			case *ast.Ident:
				if s, ok := consts[a.Name]; ok {
					out = append(out, s)
				}
			}
			return true
		})
	}
	return out
}

var printfVerb = regexp.MustCompile(`%[dsvq]`)

// TestProblemsHaveCatalogTexts: every problem core writes for a person's
// input has its text in the catalog (problem.<locale>.json: TestCatalogs
// holds the other locales to it), so the site shows it in the viewer's
// language; the JSON API keeps Message.
func TestProblemsHaveCatalogTexts(t *testing.T) {
	formats := problemFormats(t)
	if len(formats) < 40 {
		t.Fatalf("only %d formats found: the reader lost its way", len(formats))
	}
	en := i18n.For(i18n.DefaultLocale)
	for _, f := range formats {
		i := 0
		want := printfVerb.ReplaceAllStringFunc(f, func(string) string { s := fmt.Sprintf("{{.A%d}}", i); i++; return s })
		args := []any{}
		for j := range i {
			args = append(args, fmt.Sprintf("A%d", j), fmt.Sprintf("{{.A%d}}", j))
		}
		if got := en.T(ProblemID(f), args...); got != want {
			t.Errorf("%s (%q): the catalog says %q, want %q", ProblemID(f), f, got, want)
		}
	}
	var p Problems
	p.invalid("x", rangeProblem, 1, 9)
	if got := p[0].Text(i18n.For("de")); got == p[0].Message || !strings.Contains(got, "1") || !strings.Contains(got, "9") {
		t.Errorf("de: %q (English %q)", got, p[0].Message)
	}
	if got := (&Error{Message: "as it is"}).Text(i18n.For("de")); got != "as it is" {
		t.Errorf("an error without a format: %q", got)
	}
}
