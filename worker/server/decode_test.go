package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateTagsTypeNoList: a request's validator tags check its shape;
// a value that must be one of a list is checked against core's list (a
// custom tag such as stepstatus, or the draft's Check), never against a
// oneof= list typed again in a tag.
func TestValidateTagsTypeNoList(t *testing.T) {
	var files []string
	for _, dir := range []string{".", "../../core", "../web"} {
		found, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		files = append(files, found...)
	}
	fset := token.NewFileSet()
	tags := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			field, ok := n.(*ast.Field)
			if !ok || field.Tag == nil {
				return true
			}
			raw, err := strconv.Unquote(field.Tag.Value)
			require.NoError(t, err)
			rules, ok := reflect.StructTag(raw).Lookup("validate")
			if !ok {
				return true
			}
			tags++
			assert.NotContains(t, rules, "oneof", "%s: a list in a validate tag", fset.Position(field.Pos()))
			return true
		})
	}
	assert.NotZero(t, tags, "no validate tags found: the walk reads the wrong files")
}
