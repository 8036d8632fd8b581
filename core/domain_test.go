package core

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memoryDomains is a DomainStore in memory; taken lists hostnames that
// are other arenas' hosts.
type memoryDomains struct {
	domains []CustomDomain
	taken   map[string]bool
}

func (m *memoryDomains) AddDomain(_ context.Context, d *CustomDomain) error {
	for _, e := range m.domains {
		if e.Hostname == d.Hostname {
			return Errorf(CodeHostTaken, "taken")
		}
	}
	if m.taken[d.Hostname] {
		return Errorf(CodeHostTaken, "taken")
	}
	m.domains = append(m.domains, *d)
	return nil
}

func (m *memoryDomains) Domains(_ context.Context, arenaID int64) ([]CustomDomain, error) {
	var out []CustomDomain
	for _, d := range m.domains {
		if d.ArenaID == arenaID {
			out = append(out, d)
		}
	}
	return out, nil
}

func (m *memoryDomains) UpdateDomain(_ context.Context, d *CustomDomain) error {
	for i := range m.domains {
		if m.domains[i].Hostname == d.Hostname && m.domains[i].ArenaID == d.ArenaID {
			m.domains[i] = *d
		}
	}
	return nil
}

func (m *memoryDomains) DeleteDomain(_ context.Context, arenaID int64, hostname string) error {
	for i, d := range m.domains {
		if d.Hostname == hostname && d.ArenaID == arenaID {
			m.domains = append(m.domains[:i], m.domains[i+1:]...)
			return nil
		}
	}
	return nil
}

// fakeHostnames is a provider whose hostnames the test moves along.
type fakeHostnames struct {
	hostnames map[string]CustomHostname // by id
	fail      error
	deleted   []string
}

func (f *fakeHostnames) Create(_ context.Context, hostname string) (CustomHostname, error) {
	if f.fail != nil {
		return CustomHostname{}, f.fail
	}
	ch := CustomHostname{ID: "id-" + hostname, Status: "pending", SSLStatus: "pending_validation",
		Verification: []DomainRecord{{Type: "TXT", Name: "_cf-custom-hostname." + hostname, Value: "v1"}}}
	f.hostnames[ch.ID] = ch
	return ch, nil
}

func (f *fakeHostnames) Get(_ context.Context, id string) (CustomHostname, error) {
	if f.fail != nil {
		return CustomHostname{}, f.fail
	}
	ch, ok := f.hostnames[id]
	if !ok {
		return CustomHostname{}, Errorf(CodeDomainNotFound, "gone")
	}
	return ch, nil
}

func (f *fakeHostnames) Delete(_ context.Context, id string) error {
	if f.fail != nil {
		return f.fail
	}
	f.deleted = append(f.deleted, id)
	delete(f.hostnames, id)
	return nil
}

func TestValidCustomDomain(t *testing.T) {
	for h, want := range map[string]bool{
		"play.example.com": true,
		"a.b":              true,
		"localhost":        false, // one label
		"10.0.0.1":         false, // an address
		"Play.example.com": false, // not normalized
		"play_example.com": false,
		"":                 false,
		"-a.example.com":   false,
	} {
		assert.Equal(t, want, ValidCustomDomain(h), h)
	}
}

func TestAddCustomDomain(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a := &Arena{ID: 1, Slug: "alpha"}

	t.Run("WithoutAProviderActiveAtOnce", func(t *testing.T) {
		st := &memoryDomains{}
		d, err := AddCustomDomain(ctx, st, nil, a, " Play.Example.com. ", now)
		require.NoError(t, err)
		assert.Equal(t, "play.example.com", d.Hostname)
		assert.True(t, d.Active())
		assert.Equal(t, []DomainRecord{}, d.Verification)
	})
	t.Run("WithAProviderPendingWithRecords", func(t *testing.T) {
		st, p := &memoryDomains{}, &fakeHostnames{hostnames: map[string]CustomHostname{}}
		d, err := AddCustomDomain(ctx, st, p, a, "play.example.com", now)
		require.NoError(t, err)
		assert.False(t, d.Active())
		assert.Equal(t, "id-play.example.com", d.ProviderID)
		assert.Len(t, d.Verification, 1)
		stored, _ := st.Domains(ctx, a.ID)
		assert.Equal(t, []CustomDomain{*d}, stored)
	})
	t.Run("ErrInvalidField", func(t *testing.T) {
		_, err := AddCustomDomain(ctx, &memoryDomains{}, nil, a, "10.0.0.1", now)
		assert.Equal(t, &Error{Code: CodeInvalidField, Field: "hostname", Message: "hostname"}, err)
	})
	t.Run("ErrHostTakenRegistersNothing", func(t *testing.T) {
		st, p := &memoryDomains{taken: map[string]bool{"beta.test": true}}, &fakeHostnames{hostnames: map[string]CustomHostname{}}
		_, err := AddCustomDomain(ctx, st, p, a, "beta.test", now)
		assert.Equal(t, CodeHostTaken, ErrorCode(err))
		assert.Empty(t, p.hostnames)
	})
	t.Run("ErrTooManyDomains", func(t *testing.T) {
		st := &memoryDomains{}
		for i := range MaxCustomDomains {
			_, err := AddCustomDomain(ctx, st, nil, a, fmt.Sprintf("d%d.example.com", i), now)
			require.NoError(t, err)
		}
		_, err := AddCustomDomain(ctx, st, nil, a, "one-more.example.com", now)
		assert.Equal(t, CodeTooManyDomains, ErrorCode(err))
	})
	t.Run("AProviderFailureGivesTheHostnameBack", func(t *testing.T) {
		st := &memoryDomains{}
		p := &fakeHostnames{hostnames: map[string]CustomHostname{}, fail: Errorf(CodeDomainProviderFailed, "down")}
		_, err := AddCustomDomain(ctx, st, p, a, "play.example.com", now)
		assert.Equal(t, CodeDomainProviderFailed, ErrorCode(err))
		stored, _ := st.Domains(ctx, a.ID)
		assert.Empty(t, stored)
	})
}

func TestRefreshCustomDomains(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a := &Arena{ID: 1}
	st, p := &memoryDomains{}, &fakeHostnames{hostnames: map[string]CustomHostname{}}
	_, err := AddCustomDomain(ctx, st, p, a, "play.example.com", now)
	require.NoError(t, err)
	_, err = AddCustomDomain(ctx, st, p, a, "watch.example.com", now)
	require.NoError(t, err)

	n, err := RefreshCustomDomains(ctx, st, p, a, now.Add(time.Minute))
	require.NoError(t, err)
	assert.Zero(t, n, "nothing changed at the provider")

	p.hostnames["id-play.example.com"] = CustomHostname{ID: "id-play.example.com", Status: "active", SSLStatus: "active"}
	n, err = RefreshCustomDomains(ctx, st, p, a, now.Add(2*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	stored, _ := st.Domains(ctx, a.ID)
	assert.True(t, stored[0].Active())
	assert.Equal(t, []DomainRecord{}, stored[0].Verification)
	assert.True(t, stored[0].UpdatedAt.Equal(now.Add(2*time.Minute)))

	p.fail = errors.New("down")
	_, err = RefreshCustomDomains(ctx, st, p, a, now.Add(3*time.Minute))
	assert.Error(t, err, "the pending one could not be asked about")
	n, err = RefreshCustomDomains(ctx, st, nil, a, now)
	assert.NoError(t, err)
	assert.Zero(t, n, "without a provider there is nothing to ask")
}

func TestRemoveCustomDomain(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a := &Arena{ID: 1}
	st, p := &memoryDomains{}, &fakeHostnames{hostnames: map[string]CustomHostname{}}
	_, err := AddCustomDomain(ctx, st, p, a, "play.example.com", now)
	require.NoError(t, err)

	assert.Equal(t, CodeDomainNotFound, ErrorCode(RemoveCustomDomain(ctx, st, p, a, "other.example.com")))
	assert.Equal(t, CodeDomainNotFound, ErrorCode(RemoveCustomDomain(ctx, st, p, &Arena{ID: 2}, "play.example.com")), "another arena's")

	p.fail = Errorf(CodeDomainProviderFailed, "down")
	assert.Equal(t, CodeDomainProviderFailed, ErrorCode(RemoveCustomDomain(ctx, st, p, a, "play.example.com")))
	stored, _ := st.Domains(ctx, a.ID)
	assert.Len(t, stored, 1, "kept while the provider still has it")

	p.fail = nil
	require.NoError(t, RemoveCustomDomain(ctx, st, p, a, "PLAY.example.com"))
	assert.Equal(t, []string{"id-play.example.com"}, p.deleted)
	stored, _ = st.Domains(ctx, a.ID)
	assert.Empty(t, stored)
}
