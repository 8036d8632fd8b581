package core_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/core"
)

// memLog is an EventLogStore in memory.
type memLog struct {
	reads  int // ReadLog's calls
	events []core.LogEvent
	seed   []byte
	tree   map[int64]core.TreeHash
}

func (m *memLog) TreeHashes(_ context.Context, indexes []int64) ([]core.TreeHash, error) {
	var out []core.TreeHash
	for _, x := range indexes {
		if h, ok := m.tree[x]; ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// lastSealed is the last sealed event's seq and hash.
func (m *memLog) lastSealed() (int64, string) {
	seq, hash := int64(0), core.GenesisHash
	for _, e := range m.events {
		if e.Hash != "" {
			seq, hash = e.Seq, e.Hash
		}
	}
	return seq, hash
}

func (m *memLog) ReadLog(ctx context.Context, after int64, limit, unsealed int) (core.LogView, error) {
	m.reads++
	v := core.LogView{End: int64(len(m.events))}
	if seq, _ := m.lastSealed(); seq > 0 {
		head := m.events[seq-1]
		v.Head = &head
	}
	for _, e := range m.events {
		if e.Hash == "" && len(v.Unsealed) < unsealed {
			v.Unsealed = append(v.Unsealed, e)
		}
	}
	v.Events, _ = m.Events(ctx, after, limit)
	return v, nil
}

func (m *memLog) SealEvents(_ context.Context, events []core.LogEvent, tree []core.TreeHash) error {
	if m.tree == nil {
		m.tree = map[int64]core.TreeHash{}
	}
	for _, h := range tree {
		if _, ok := m.tree[h.Index]; !ok {
			m.tree[h.Index] = h
		}
	}
	for _, sealed := range events {
		if e := &m.events[sealed.Seq-1]; e.Hash == "" {
			e.PrevHash, e.Hash = sealed.PrevHash, sealed.Hash
		}
	}
	return nil
}

func (m *memLog) Events(_ context.Context, after int64, limit int) ([]core.LogEvent, error) {
	var out []core.LogEvent
	for _, e := range m.events {
		if e.Seq > after && e.Hash != "" && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

func (m *memLog) LogSeq(context.Context) (int64, error) { return int64(len(m.events)), nil }

func (m *memLog) LogSigningKey(_ context.Context, fresh []byte) ([]byte, error) {
	if m.seed == nil {
		m.seed = fresh
	}
	return m.seed, nil
}

func (m *memLog) add(typ, data string) {
	slug := "cup"
	m.events = append(m.events, core.LogEvent{Seq: int64(len(m.events) + 1), At: "2026-11-01T12:00:00.000Z",
		Type: typ, Tournament: &slug, Data: json.RawMessage(data)})
}

func TestEventLogSealAndVerify(t *testing.T) {
	ctx := context.Background()
	st := &memLog{}
	for range 5 {
		st.add(core.EventLogRegistrationAdded, `{"platformId":"76561198000000001"}`)
	}
	page, err := core.ReadEventLog(ctx, st, 0, 2)
	require.NoError(t, err)
	require.Len(t, page.Events, 2)
	require.NotNil(t, page.Next)
	assert.Equal(t, int64(2), *page.Next)
	assert.Equal(t, core.GenesisHash, page.Events[0].PrevHash)
	st.add(core.EventLogTournamentStatus, `{"from": "registration_open", "to": "registration_closed"}`)
	page, err = core.ReadEventLog(ctx, st, 2, 100)
	require.NoError(t, err)
	assert.Nil(t, page.Next)
	require.NoError(t, core.VerifyChain(2, st.events[1].Hash, page.Events))
	all, err := core.ReadEventLog(ctx, st, 0, 100)
	require.NoError(t, err)
	require.NoError(t, core.VerifyChain(0, core.GenesisHash, all.Events))

	// Whitespace in the stored data does not change the hash (RFC 8785).
	h, err := core.EventHash(all.Events[5])
	require.NoError(t, err)
	compact := all.Events[5]
	compact.Data = json.RawMessage(`{"to":"registration_closed","from":"registration_open"}`)
	h2, err := core.EventHash(compact)
	require.NoError(t, err)
	assert.Equal(t, h, h2)

	tampered := append([]core.LogEvent(nil), all.Events...)
	tampered[3].Data = json.RawMessage(`{"platformId":"76561198000000002"}`)
	assert.ErrorContains(t, core.VerifyChain(0, core.GenesisHash, tampered), "event 4's hash")
	assert.ErrorContains(t, core.VerifyChain(0, core.GenesisHash, all.Events[1:]), "seq 2 follows 0")

	key, err := core.EventLogKey(ctx, st, strings.NewReader(strings.Repeat("k", 32)))
	require.NoError(t, err)
	again, err := core.EventLogKey(ctx, st, strings.NewReader(strings.Repeat("x", 32)))
	require.NoError(t, err)
	assert.Equal(t, key, again, "the first key stands")
	head, err := core.ReadEventLogHead(ctx, st, "alpha", key)
	require.NoError(t, err)
	assert.Equal(t, int64(6), head.Seq)
	pub := key.Public().(ed25519.PublicKey)
	require.NoError(t, core.VerifyHead(pub, "alpha", head))
	assert.Error(t, core.VerifyHead(pub, "beta", head), "signed for its arena only")
	head.Seq = 5
	assert.Error(t, core.VerifyHead(pub, "alpha", head))
}

// TestReadEventLogAnswersWhatItSealed: a read that seals the log's last
// events answers with them from its one read of the log: the page a
// fresh read gives, wherever it starts and however long.
func TestReadEventLogAnswersWhatItSealed(t *testing.T) {
	ctx := context.Background()
	for _, after := range []int64{0, 2, 4, 5, 7} {
		for _, limit := range []int{1, 2, 10} {
			st := &memLog{}
			for range 4 {
				st.add(core.EventLogMatchLive, `{}`)
			}
			require.NoError(t, core.SealLog(ctx, st))
			for range 3 {
				st.add(core.EventLogMatchLive, `{}`)
			}
			st.reads = 0
			page, err := core.ReadEventLog(ctx, st, after, limit)
			require.NoError(t, err)
			assert.Equal(t, 1, st.reads, "after %d, limit %d: one read of the log", after, limit)
			again, err := core.ReadEventLog(ctx, st, after, limit)
			require.NoError(t, err)
			assert.Equal(t, again, page, "after %d, limit %d", after, limit)
		}
	}
	st := &memLog{}
	st.add(core.EventLogMatchLive, `{}`)
	events, last, more, err := core.LiveEvents(ctx, st, 0, core.LiveFilter{})
	require.NoError(t, err)
	assert.Equal(t, 1, st.reads, "a live page that seals reads the log once")
	assert.Len(t, events, 1)
	assert.Equal(t, int64(1), last)
	assert.False(t, more)
	require.NoError(t, core.VerifyChain(0, core.GenesisHash, events))
}

// racedLog is a memLog beside another sealer that, whenever this one
// reads the log, seals the next event itself between the read of the
// log's head and the read of its unsealed events.
type racedLog struct{ *memLog }

func (r racedLog) ReadLog(ctx context.Context, after int64, limit, unsealed int) (core.LogView, error) {
	before, _ := r.memLog.ReadLog(ctx, after, limit, unsealed)
	seq, prev := r.lastSealed()
	if int(seq) < len(r.events) {
		e := &r.events[seq]
		e.PrevHash = prev
		e.Hash, _ = core.EventHash(*e)
	}
	v, err := r.memLog.ReadLog(ctx, after, limit, unsealed)
	v.Head = before.Head
	return v, err
}

// TestSealLogOvertaken: a sealer overtaken by another on every start
// still finishes (each start is from further on), and the chain is one.
func TestSealLogOvertaken(t *testing.T) {
	m := &memLog{}
	for range 60 {
		m.add(core.EventLogMatchLive, `{}`)
	}
	require.NoError(t, core.SealLog(context.Background(), racedLog{m}))
	require.NoError(t, core.VerifyChain(0, core.GenesisHash, m.events))
}
