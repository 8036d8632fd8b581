package webpushtest

import (
	"encoding/json"
	"html/template"
	"maps"
	"net/http"
	"slices"
	"time"
)

// The demo phones (dev mode): the twin's page lists each device and the
// pushes it took, decrypted as the phone would, newest first, so the
// demo shows Web Push without a browser's own push service.

var phonesPage = template.Must(template.New("phones").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="10"><title>Demo phones</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}
.phone{border:2px solid #333;border-radius:1.5rem;padding:1rem 1.25rem;margin:1.5rem 0}
.push{background:#f2f2f7;border-radius:.75rem;padding:.5rem .75rem;margin:.5rem 0}.muted{color:#666;font-size:.9em}</style></head>
<body><h1>Demo phones</h1>
<p class="muted">A twin of a Web Push service for Arena's demo (RFC 8030): each phone below subscribed to the demo arena, and shows what it was pushed, decrypted as the phone would (RFC 8291). The page refreshes every 10 seconds.</p>
{{range .}}<section class="phone"><h2>{{.Name}}</h2>
{{range .Pushes}}<div class="push"><strong>{{.Title}}</strong> <span class="muted">{{.At}}</span><br>{{.Body}}<br><span class="muted">opens {{.URL}}</span></div>
{{else}}<p class="muted">Nothing pushed yet.</p>{{end}}</section>
{{else}}<p>No phone subscribed.</p>{{end}}
</body></html>`))

type phoneView struct {
	Name   string
	Pushes []pushView
}

type pushView struct {
	Title, Body, URL, At string
}

func (p *Service) phones(w http.ResponseWriter, r *http.Request) {
	devices := p.Devices()
	byDevice := map[string][]pushView{}
	for _, m := range p.Messages() {
		d := devices[m.Device]
		if d == nil || m.Status != http.StatusCreated {
			continue
		}
		plain, err := d.Open(m.Body)
		if err != nil {
			continue
		}
		var v struct{ Title, Body, URL string }
		if json.Unmarshal(plain, &v) != nil {
			continue
		}
		byDevice[m.Device] = append([]pushView{{Title: v.Title, Body: v.Body, URL: v.URL, At: m.At.Format(time.TimeOnly + " UTC")}}, byDevice[m.Device]...)
	}
	var out []phoneView
	for _, name := range slices.Sorted(maps.Keys(devices)) {
		out = append(out, phoneView{Name: name, Pushes: byDevice[name]})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = phonesPage.Execute(w, out)
}
