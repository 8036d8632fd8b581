// Package views holds the website's templ components: props in, HTML out;
// they never call services. Static assets (stylesheet, the small script
// that shows times in the viewer's zone and keeps pages live, the icon) are embedded here and served by the binary and
// the worker alike, under content-hashed names (StaticPath).
package views

import (
	"embed"
	"hash/fnv"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
)

// Static is the site's static assets, served under /static/.
//
//go:embed static
var Static embed.FS

// staticHashes maps each asset's name to the hash of its bytes (16 hex
// digits of FNV-1a 64), computed once on first use.
var staticHashes = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	files, _ := fs.ReadDir(Static, "static")
	for _, f := range files {
		b, err := fs.ReadFile(Static, "static/"+f.Name())
		if err != nil {
			continue
		}
		h := fnv.New64a()
		h.Write(b)
		out[f.Name()] = strconv.FormatUint(h.Sum64(), 16)
	}
	return out
})

// StaticPath is the URL of the asset name ("app.css") under its
// content-hashed name ("/static/app.<hash>.css"): its bytes never change,
// so browsers and caches keep it for a year. An unknown name keeps its
// plain path.
func StaticPath(name string) string {
	h, ok := staticHashes()[name]
	if !ok {
		return "/static/" + name
	}
	ext := path.Ext(name)
	return "/static/" + strings.TrimSuffix(name, ext) + "." + h + ext
}

// StaticFile resolves a requested asset name: a plain name ("app.css") or
// a hashed one ("app.<hash>.css"). It returns the asset's real name and
// whether the request named its current hash (and may be kept for good).
func StaticFile(requested string) (name string, current, ok bool) {
	hashes := staticHashes()
	if _, found := hashes[requested]; found {
		return requested, false, true
	}
	ext := path.Ext(requested)
	base, hash, cut := strings.Cut(strings.TrimSuffix(requested, ext), ".")
	for cut && strings.Contains(hash, ".") { // a name with dots: the hash is the last part
		var more string
		more, hash, _ = strings.Cut(hash, ".")
		base += "." + more
	}
	if !cut {
		return "", false, false
	}
	name = base + ext
	h, found := hashes[name]
	if !found {
		return "", false, false
	}
	return name, h == hash, true
}

// StaticHash returns the asset's content hash ("" for an unknown name).
func StaticHash(name string) string { return staticHashes()[name] }
