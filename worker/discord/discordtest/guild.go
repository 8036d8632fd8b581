package discordtest

import (
	"encoding/json"
	"html/template"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"arena/core"
)

// discordStamp is a Discord timestamp marker, <t:unix:style>, which
// Discord shows in each reader's own zone; the page shows it in UTC.
var discordStamp = regexp.MustCompile(`<t:(\d+):([a-zA-Z])>`)

// showStamps writes the markers of s as Discord would, in UTC.
func showStamps(s string, now time.Time) string {
	return discordStamp.ReplaceAllStringFunc(s, func(m string) string {
		parts := discordStamp.FindStringSubmatch(m)
		unix, _ := strconv.ParseInt(parts[1], 10, 64)
		at := time.Unix(unix, 0).UTC()
		if parts[2] == "R" {
			d := at.Sub(now).Round(time.Minute)
			if d < 0 {
				return (-d).String() + " ago"
			}
			return "in " + d.String()
		}
		return at.Format("Mon 2 Jan 2006 15:04 UTC")
	})
}

// The mock guild (dev mode): a page standing in for a Discord server
// with the arena's application, where whoever runs the demo picks a
// member and runs /arena commands; each is sent to the arena as Discord
// sends it (signed) and its answer shown. The member picked is also the
// one the twin's consent page signs in as, so "Link Discord" on the
// arena's account page links them.

// ServeGuild makes the page post to endpoint, the arena's
// /discord/interactions.
func (t *Twin) ServeGuild(endpoint string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.guild = endpoint
}

var guildPage = template.Must(template.New("guild").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mock Discord guild</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;background:#313338;color:#dbdee1}
label{display:block;margin-top:.75rem}select,input,button{font:inherit;padding:.3rem .5rem}button{margin-top:1rem;background:#5865f2;color:#fff;border:0;border-radius:4px;padding:.5rem 1rem}
.answer{background:#2b2d31;border-left:4px solid #5865f2;padding:.75rem 1rem;white-space:pre-wrap;margin-top:1.5rem}.muted{color:#949ba4}code{background:#1e1f22;padding:0 .25rem}</style></head>
<body><h1>Mock Discord guild</h1>
<p class="muted">A twin of Discord for Arena's demo: application <code>{{.App}}</code>, interactions sent, signed, to <code>{{.Endpoint}}</code>. The member you pick here is also who Discord's consent page signs in as when you press <em>Link Discord</em> on the arena's account page.</p>
<form method="post" action="/guild">
<label for="member">Member</label><select id="member" name="member">{{range .Members}}<option value="{{.ID}}"{{if eq .ID $.Current}} selected{{end}}>{{.GlobalName}} (@{{.Username}})</option>{{end}}</select>
<label for="command">Command</label><select id="command" name="command">{{range .Commands}}<option{{if eq . $.Command}} selected{{end}}>{{.}}</option>{{end}}</select>
<label for="tournament">tournament <span class="muted">(bracket, standings; optional for checkin)</span></label><input id="tournament" name="tournament" value="{{.Tournament}}" placeholder="winter-cup">
<button type="submit">Send /arena {{.Command}}</button></form>
{{if .Answer}}<div class="answer" role="status"><strong>Arena</strong>{{if .Ephemeral}} <span class="muted">(only you can see this)</span>{{end}}
{{.Answer}}</div>{{end}}
</body></html>`))

type guildView struct {
	App, Endpoint, Current, Command, Tournament, Answer string
	Ephemeral                                           bool
	Members                                             []core.DiscordUser
	Commands                                            []string
}

func (t *Twin) view() guildView {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := guildView{App: t.ApplicationID, Endpoint: t.guild, Current: t.current, Command: "next",
		Commands: []string{"next", "checkin", "bracket", "standings"}}
	for _, id := range t.order {
		v.Members = append(v.Members, t.members[id])
	}
	return v
}

func (t *Twin) guildPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = guildPage.Execute(w, t.view())
}

// guildCommand runs one command as the member picked.
func (t *Twin) guildCommand(w http.ResponseWriter, r *http.Request) {
	t.mu.Lock()
	member, ok := t.members[r.PostFormValue("member")]
	if ok {
		t.current = member.ID
	}
	endpoint := t.guild
	t.mu.Unlock()
	v := t.view()
	v.Command, v.Tournament = r.PostFormValue("command"), r.PostFormValue("tournament")
	switch {
	case !ok:
		v.Answer = "Pick a member."
	case endpoint == "":
		v.Answer = "The twin has no arena to send to."
	default:
		got, err := t.Send(endpoint, "", t.Command(member, v.Command, v.Tournament), false)
		var resp struct {
			Data struct {
				Content string `json:"content"`
				Flags   int    `json:"flags"`
			} `json:"data"`
		}
		switch {
		case err != nil:
			v.Answer = "The arena did not answer: " + err.Error()
		case got.Status != http.StatusOK || json.Unmarshal(got.Body, &resp) != nil:
			v.Answer = "The arena answered " + http.StatusText(got.Status) + ": " + string(got.Body)
		default:
			v.Answer, v.Ephemeral = showStamps(resp.Data.Content, time.Now()), resp.Data.Flags&64 != 0
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = guildPage.Execute(w, v)
}
