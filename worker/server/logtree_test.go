package server_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"arena/core"
	"arena/worker/arenatest"
)

// getRaw sends a GET to alpha.test and returns the recorder.
func getRaw(p *protocolEnv, path string) *httptest.ResponseRecorder { return rawGet(p.testEnv, path) }

// rawGet sends a GET to alpha.test and returns the recorder, whatever
// the answer's content type.
func rawGet(p *testEnv, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", path, nil)
	req.Host = "alpha.test"
	rec := httptest.NewRecorder()
	p.Handler.ServeHTTP(rec, req)
	return rec
}

// TestLogReceipts: a decided match's receipt, the checkpoint and the
// tiles verify with golang.org/x/mod alone, on SQLite and on the libSQL
// server, within the documented database round trips; an undecided
// match has no receipt.
func TestLogReceipts(t *testing.T) {
	for _, remote := range []bool{false, true} {
		t.Run(map[bool]string{false: "SQLite", true: "LibSQL"}[remote], func(t *testing.T) {
			e := newTestEnv(t, false)
			req := map[string]any{"slug": "alpha", "name": "Alpha", "hosts": []string{"alpha.test"}, "plan": "indie",
				"appIds": []string{"480"}}
			var backend *arenatest.CountingLibSQL
			if remote {
				backend = arenatest.StartCountingLibSQL(t)
				req["databaseUrl"] = backend.URL
			}
			status, body := e.do(t, "POST", "ops.test", "/api/v1/operator/arenas", operatorToken, req)
			require.Equal(t, http.StatusCreated, status, body)
			p := &protocolEnv{testEnv: e, admin: body["adminToken"].(string)}
			runCup(t, p.testEnv, p.admin, "cup")
			matches := p.bracket(t, "duo", "demo", 4)
			live := p.goLive(t, matches[0])
			winner := matches[0]["p1PlatformId"].(string)
			res, hash := result(live, winner, "")
			for _, who := range []string{winner, matches[0]["p2PlatformId"].(string)} {
				status, out := p.game(t, "POST", matchPath(matches[0], "result"), who, submission(res, hash), "")
				require.Equal(t, 200, status, out)
			}
			meta := p.mustDo(t, "GET", "/api/v1", "", nil, 200)["log"].(map[string]any)
			assert.Equal(t, "alpha.test/log", meta["origin"])
			verifier, err := note.NewVerifier(meta["verifierKey"].(string))
			require.NoError(t, err)
			assert.Equal(t, "alpha.test/log", verifier.Name())

			id := fmt.Sprint(matches[0]["id"])
			count := func(path string) (*httptest.ResponseRecorder, int) {
				if backend != nil {
					backend.Reset()
				}
				rec := getRaw(p, path)
				if backend != nil {
					return rec, backend.Count()
				}
				return rec, 0
			}
			rec, trips := count("/api/v1/matches/" + id + "/receipt")
			require.Equal(t, 200, rec.Code, rec.Body.String())
			assert.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
			t.Logf("receipt: %d round trips", trips)
			assert.LessOrEqual(t, trips, 9, "a receipt's round trips that seals the submissions' events (worker/server/logtree.go)")
			again, trips := count("/api/v1/matches/" + id + "/receipt")
			require.Equal(t, rec.Body.String(), again.Body.String())
			t.Logf("receipt again: %d round trips", trips)
			assert.LessOrEqual(t, trips, 8, "a receipt's round trips (worker/server/logtree.go)")

			// golang.org/x/mod alone: the note, the tree, the record.
			file := rec.Body.String()
			head, cp, ok := strings.Cut(file, "\n\n")
			require.True(t, ok)
			n, err := note.Open([]byte(cp), note.VerifierList(verifier))
			require.NoError(t, err)
			lines := strings.Split(n.Text, "\n")
			require.Equal(t, "alpha.test/log", lines[0])
			size, err := strconv.ParseInt(lines[1], 10, 64)
			require.NoError(t, err)
			root, err := tlog.ParseHash(lines[2])
			require.NoError(t, err)
			hl := strings.Split(head, "\n")
			require.Equal(t, "c2sp.org/tlog-proof@v1", hl[0])
			entry, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(hl[1], "extra "))
			require.NoError(t, err)
			index, err := strconv.ParseInt(strings.TrimPrefix(hl[2], "index "), 10, 64)
			require.NoError(t, err)
			var proof tlog.RecordProof
			for _, l := range hl[3:] {
				h, err := tlog.ParseHash(l)
				require.NoError(t, err)
				proof = append(proof, h)
			}
			require.NoError(t, tlog.CheckRecord(proof, size, root, index, tlog.RecordHash(entry)))
			assert.Contains(t, string(entry), `"type":"match.confirmed"`)
			assert.Contains(t, string(entry), `"matchId":`+id+`,`)

			rec, trips = count("/log/checkpoint")
			require.Equal(t, 200, rec.Code)
			t.Logf("checkpoint: %d round trips", trips)
			assert.LessOrEqual(t, trips, 3)
			assert.Equal(t, cp, rec.Body.String(), "the receipt carries the current checkpoint")
			assert.Equal(t, "public, max-age=10", rec.Header().Get("Cache-Control"))

			rec, trips = count(fmt.Sprintf("/log/tile/0/000.p/%d", size))
			require.Equal(t, 200, rec.Code, rec.Body.String())
			t.Logf("tile: %d round trips", trips)
			assert.LessOrEqual(t, trips, 2)
			assert.Equal(t, "application/octet-stream", rec.Header().Get("Content-Type"))
			th, err := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, tileReader{p}).ReadHashes([]int64{tlog.StoredHashIndex(0, index)})
			require.NoError(t, err, "the tiles verify against the checkpoint (x/mod's TileHashReader)")
			assert.Equal(t, tlog.RecordHash(entry), th[0])
			rec = getRaw(p, fmt.Sprintf("/log/tile/entries/000.p/%d", size))
			require.Equal(t, 200, rec.Code)

			for _, path := range []string{"/log/tile/0/000", fmt.Sprintf("/log/tile/0/000.p/%d", size+1), "/log/tile/0/x000/000",
				"/log/tile/9/000", "/log/tile/0/00", "/log/tile/0/000.p/0", "/log/tile/entries/001", "/log/tile/0/000.p/256"} {
				rec = getRaw(p, path)
				assert.Equal(t, 404, rec.Code, path)
				assert.Contains(t, rec.Body.String(), `"not_found"`, path)
			}
			undecided := p.mustDo(t, "GET", "/api/v1/matches/"+fmt.Sprint(matches[1]["id"])+"/receipt", "", nil, 404)
			assert.Equal(t, core.CodeMatchNotDecided, undecided["error"])
			p.mustDo(t, "GET", "/api/v1/matches/999999/receipt", "", nil, 404)
			assert.Equal(t, "match_not_found", p.mustDo(t, "GET", "/api/v1/matches/x/receipt", "", nil, 404)["error"])
		})
	}
}

// tileReader reads the served tiles for tlog.TileHashReader (x/mod
// paths mapped to C2SP ones).
type tileReader struct{ p *protocolEnv }

func (tileReader) Height() int { return 8 }

func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, tl := range tiles {
		rec := getRaw(r.p, "/log/tile/"+core.TilePath(tl.L, tl.N, tl.W))
		if rec.Code != 200 {
			return nil, fmt.Errorf("tile %v: %d", tl, rec.Code)
		}
		out[i] = rec.Body.Bytes()
	}
	return out, nil
}

func (tileReader) SaveTiles([]tlog.Tile, [][]byte) {}
