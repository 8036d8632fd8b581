package store

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed queries/*.sql
var queryFiles embed.FS

// queries maps a query's name (its "-- name: X" line in queries/*.sql) to
// its text.
var queries = loadQueries(queryFiles)

func loadQueries(fsys fs.FS) map[string]string {
	out := map[string]string{}
	files, err := fs.Glob(fsys, "queries/*.sql")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			panic(err)
		}
		var name string
		var body strings.Builder
		flush := func() {
			if name != "" {
				if _, dup := out[name]; dup {
					panic(fmt.Sprintf("store: query %q defined twice", name))
				}
				out[name] = strings.TrimSpace(body.String())
			}
			body.Reset()
		}
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- name:"); ok {
				flush()
				name = strings.TrimSpace(n)
				continue
			}
			if name != "" && !strings.HasPrefix(strings.TrimSpace(line), "--") {
				body.WriteString(line)
				body.WriteByte('\n')
			}
		}
		flush()
	}
	return out
}

// q returns the named query; an unknown name is a programming error.
func q(name string) string {
	s, ok := queries[name]
	if !ok {
		panic("store: unknown query " + name)
	}
	return s
}
