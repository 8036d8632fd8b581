package server

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"arena/app"
	"arena/core"
	store "arena/sql"
)

// ScheduledReport summarizes one run of the scheduled jobs.
type ScheduledReport struct {
	RanAt  time.Time      `json:"ranAt"`
	Arenas int            `json:"arenas"`
	Failed []string       `json:"failed"` // slugs whose jobs failed
	Jobs   map[string]int `json:"jobs"`   // job name -> arenas it changed something in
	// Changed lists the slugs of arenas some job changed (what a front
	// cache must forget).
	Changed []string `json:"changed"`
}

// How one run shares its time between arenas: in two phases, every
// arena's decisions (the jobs that only read and write its database)
// first, then every arena's calls out (streams, alerts, webhooks,
// domains, objects), so no receiver holds any arena's decisions. In each
// phase scheduledArenasAtOnce arenas run at once, each in its own
// budget, so an arena whose work is slow (a webhook receiver that does not
// answer, a database that stalls) does not hold another's; sending has
// its own budget too (core.WebhookSendBudget). On the edge an
// invocation's I/O goes out one call at a time (docs/edge.md), so there
// the budgets are what bound a slow arena.
const (
	scheduledArenasAtOnce = 4
	scheduledArenaBudget  = 45 * time.Second // a phase's, per arena
)

// scheduledJob is one timer-driven rule run for each arena, on a session
// at the run's instant. It must be idempotent: running it twice, or
// concurrently, changes nothing more.
type scheduledJob struct {
	name string
	run  func(ctx context.Context, t *app.Session) (changed bool, err error)
	// callsOut marks a job that calls another service: it runs in the
	// second phase, after every arena's decisions.
	callsOut bool
}

// counted is a job whose rule answers how many things it changed.
func counted(rule func(*app.Session, context.Context) (int, error)) func(context.Context, *app.Session) (bool, error) {
	return func(ctx context.Context, t *app.Session) (bool, error) {
		n, err := rule(t, ctx)
		return n > 0, err
	}
}

// scheduledJobs are the jobs every run executes, in order.
func (s *Server) scheduledJobs() []scheduledJob {
	// Reports first: a report whose grace ran out before a contradicting
	// client submission's goes to the admin instead of being overridden.
	return []scheduledJob{
		{name: "report_grace", run: counted((*app.Session).RunReportGrace)},
		{name: "grace_period", run: counted((*app.Session).RunGracePeriod)},
		{name: "window_close", run: counted((*app.Session).RunWindowClose)},
		{name: "title_clocks", run: counted((*app.Session).RunTitleClocks)},
		{name: "forfeit_disqualified", run: counted((*app.Session).ForfeitDisqualified)},
		// Last: completes what a decision's second step left undone.
		{name: "settle_tournaments", run: counted((*app.Session).SettleTournaments)},
		{name: "rating_periods", run: counted((*app.Session).RunRatingPeriods)},
		// After the jobs above appended their events; reads of the log
		// seal what is left.
		{name: "seal_event_log", run: func(ctx context.Context, t *app.Session) (bool, error) {
			return false, t.SealLog(ctx)
		}},
		{name: "sweep_rate_counters", run: func(ctx context.Context, t *app.Session) (bool, error) {
			return false, t.SweepRateCounters(ctx, t.Deps.Now.Truncate(RateWindow).Unix())
		}},
		// Streams, then the alerts they and the decisions above made.
		{name: "stream_live", run: func(ctx context.Context, t *app.Session) (bool, error) {
			return t.PollLive(ctx, s.streams)
		}, callsOut: true},
		{name: "alerts", run: counted((*app.Session).RunAlerts), callsOut: true},
		{name: "pushes", run: func(ctx context.Context, t *app.Session) (bool, error) {
			n, err := t.DeliverPushes(ctx, pushSealer{subscriber: pushSubscriber(t.Arena)}, s.webhooks)
			return n > 0, err
		}, callsOut: true},
		{name: "webhooks", run: func(ctx context.Context, t *app.Session) (bool, error) {
			n, err := t.DeliverWebhooks(ctx, s.webhooks)
			return n > 0, err
		}, callsOut: true},
		{name: "webhook_subscriptions", run: func(ctx context.Context, t *app.Session) (bool, error) {
			n, err := t.RunSubscriptions(ctx, s.webhooks, s.wall)
			return n > 0, err
		}, callsOut: true},
		{name: "custom_domains", run: s.refreshDomains, callsOut: true},
		// Last: object storage failing stops no job above. Removing
		// objects changes nothing a page shows.
		{name: "object_removals", run: func(ctx context.Context, t *app.Session) (bool, error) {
			if s.cfg.Objects == nil {
				return false, nil
			}
			_, err := t.RemoveDueObjects(ctx, s.cfg.Objects)
			return false, err
		}, callsOut: true},
	}
}

// RunScheduled runs every scheduled job once for every arena: the one
// entry point behind the Workers cron trigger, the native ticker and
// POST /__dev/tick. It first drops arena creations unfinished for longer
// than core.ArenaCreationTimeout. Arena databases behind the latest
// schema are migrated first. One arena failing does not stop the others.
func (s *Server) RunScheduled(ctx context.Context) (ScheduledReport, error) {
	now := s.now()
	report := ScheduledReport{RanAt: now.UTC(), Failed: []string{}, Jobs: map[string]int{}, Changed: []string{}}
	var arenas []core.Arena
	err := s.withDirectory(ctx, func() (err error) {
		arenas, err = s.dir.Arenas(ctx)
		return err
	})
	if err != nil {
		return report, fmt.Errorf("scheduled jobs: %w", err)
	}
	// Creations cut off by a failure the cleanup itself missed, or by a
	// crash (on the edge there is no start to clean them).
	dropped, err := s.dropUnfinishedArenas(ctx, now.Add(-core.ArenaCreationTimeout))
	if err != nil {
		s.log.ErrorContext(ctx, "scheduled jobs: unfinished arenas", slog.String("error", err.Error()))
	}
	if dropped > 0 {
		report.Jobs["unfinished_arenas"] = dropped
	}
	report.Arenas = len(arenas)
	failed, changed := map[string]bool{}, map[string]bool{}
	for _, callsOut := range []bool{false, true} {
		var jobs []scheduledJob
		for _, job := range s.scheduledJobs() {
			if job.callsOut == callsOut {
				jobs = append(jobs, job)
			}
		}
		var (
			mu    sync.Mutex
			wg    sync.WaitGroup
			slots = make(chan struct{}, scheduledArenasAtOnce)
			skip  = maps.Clone(failed) // its decisions failed: nothing of it is sent
		)
		for i := range arenas {
			a := &arenas[i]
			if skip[a.Slug] {
				continue
			}
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-slots; wg.Done() }()
				actx, cancel := context.WithTimeout(ctx, scheduledArenaBudget)
				defer cancel()
				did, ok := s.runArenaJobs(actx, a, jobs, now)
				mu.Lock()
				defer mu.Unlock()
				for _, job := range did {
					report.Jobs[job]++
				}
				changed[a.Slug] = changed[a.Slug] || len(did) > 0
				failed[a.Slug] = failed[a.Slug] || !ok
			}()
		}
		wg.Wait()
	}
	for slug := range changed {
		if changed[slug] {
			report.Changed = append(report.Changed, slug)
		}
	}
	for slug := range failed {
		if failed[slug] {
			report.Failed = append(report.Failed, slug)
		}
	}
	slices.Sort(report.Changed)
	slices.Sort(report.Failed)
	s.log.InfoContext(ctx, "scheduled jobs ran", slog.Int("arenas", report.Arenas), slog.Int("failed", len(report.Failed)))
	return report, nil
}

// runArenaJobs runs the jobs for one arena, stopping at the first
// failure (logged); it returns the jobs that changed something and
// whether all of them ran. An arena database that does not answer costs
// one deadline (store.FailFast).
func (s *Server) runArenaJobs(ctx context.Context, a *core.Arena, jobs []scheduledJob, now time.Time) (changed []string, ok bool) {
	ctx = store.FailFast(ctx)
	st, release, err := s.arenaDB(ctx, a)
	if err != nil {
		s.log.ErrorContext(ctx, "scheduled jobs: arena database", slog.String("arena", a.Slug), slog.String("error", err.Error()))
		return nil, false
	}
	defer release()
	t := app.NewSession(ctx, a, st, now, s.rand, s.log.With(slog.String("arena", a.Slug)), nil)
	for _, job := range jobs {
		did, err := job.run(ctx, t)
		if err != nil {
			s.log.ErrorContext(ctx, "scheduled job failed", slog.String("job", job.name), slog.String("arena", a.Slug), slog.String("error", err.Error()))
			return changed, false
		}
		if did {
			changed = append(changed, job.name)
		}
	}
	return changed, true
}
