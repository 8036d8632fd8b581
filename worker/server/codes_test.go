package server_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
	store "arena/sql"
	"arena/sql/hrana"
	"arena/worker/server"
)

// coreCodes parses package core and returns every Code* string constant
// (name -> value): the wire codes the service declares.
func coreCodes(t *testing.T) map[string]string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), "../../core", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range pkgs["core"].Files {
		for name, value := range stringConsts(f) {
			if strings.HasPrefix(name, "Code") {
				out[name] = value
			}
		}
	}
	return out
}

// stringConsts returns a file's string constants declared with a literal.
func stringConsts(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					out[name.Name] = v
				}
			}
		}
	}
	return out
}

// TestEveryCoreCodeHasAStatus walks every wire code core declares and
// requires a status for it in the one table (StatusOf); only internal
// may be a 500.
func TestEveryCoreCodeHasAStatus(t *testing.T) {
	codes := coreCodes(t)
	require.Greater(t, len(codes), 40, "the parse found core's codes")
	seen := map[string]string{}
	for name, code := range codes {
		if other, dup := seen[code]; dup {
			t.Errorf("%s and %s both declare %q: one home per code", name, other, code)
		}
		seen[code] = name
		status := server.StatusOf(code)
		if code == "internal" {
			assert.Equal(t, http.StatusInternalServerError, status)
			continue
		}
		assert.True(t, status >= 400 && status < 500 || status == http.StatusBadGateway || status == http.StatusServiceUnavailable,
			"%s (%q) has no status in the table (got %d)", name, code, status)
	}
	// Spot checks of the spec's statuses (section 7).
	for code, want := range map[string]int{
		"missing_ticket": 401, "match_not_found": 404, "not_participant": 403, "already_resolved": 409,
		"not_live": 409, "already_submitted": 409, "unsupported_protocol": 422, "invalid_result": 422,
		"invalid_resultHash": 422, "hash_mismatch": 422, "result_not_for_match": 422, "invalid_winner": 422,
		"opponent_undecided": 409, "past_ready_phase": 409, "window_not_open": 409, "window_closed": 409,
		"tournament_not_found": 404, "player_not_found": 404, "invalid_steam_id": 400,
		"database_unavailable": 503,
	} {
		assert.Equal(t, want, server.StatusOf(code), code)
	}
}

// TestCodesAreDeclaredInCore fails when a package outside core declares
// a wire code of its own (a Code*/code* string constant): codes live in
// core, beside the rule, with a status in the one table.
func TestCodesAreDeclaredInCore(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"../../sql", "../../worker", "../../client", "../../views"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				return err
			}
			for name := range stringConsts(f) {
				if strings.HasPrefix(name, "Code") || strings.HasPrefix(name, "code") {
					t.Errorf("%s declares the code constant %s: declare it in core", path, name)
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
}

// TestErrorCodeOfADatabaseThatDidNotAnswer: a database call that got no
// answer (a deadline, a refused connection, a 5xx; locally or remotely)
// is database_unavailable, 503 with Retry-After; a statement the database
// refused and any other failure stay internal, and a domain error keeps
// its code.
func TestErrorCodeOfADatabaseThatDidNotAnswer(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"RemoteDeadline", fmt.Errorf("store: unable to read: %w", fmt.Errorf("%w: %w", hrana.ErrUnavailable, context.DeadlineExceeded)), core.CodeDatabaseUnavailable},
		{"Remote5xx", fmt.Errorf("arena x database: %w", &hrana.HTTPError{Status: http.StatusBadGateway}), core.CodeDatabaseUnavailable},
		{"LocalDeadline", fmt.Errorf("%w: %w", store.ErrUnavailable, context.DeadlineExceeded), core.CodeDatabaseUnavailable},
		{"Remote4xx", &hrana.HTTPError{Status: http.StatusBadRequest}, core.CodeInternal},
		{"Constraint", &hrana.BatchError{Statement: 1, Err: &hrana.Error{Message: "UNIQUE constraint failed: matches.id"}}, core.CodeInternal},
		{"Bug", errors.New("store: 2 columns read into 3 values"), core.CodeInternal},
		{"BareDeadline", context.DeadlineExceeded, core.CodeInternal},
		{"Domain", core.Errorf(core.CodeMatchNotFound, "no match 7"), core.CodeMatchNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code := server.ErrorCode(c.err)
			assert.Equal(t, c.want, code)
			h := http.Header{}
			server.SetRetryAfter(h, code)
			assert.Equal(t, code == core.CodeDatabaseUnavailable, h.Get("Retry-After") != "")
		})
	}
	assert.Equal(t, http.StatusServiceUnavailable, server.StatusOf(core.CodeDatabaseUnavailable))
}
