package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/rs/zerolog"
)

// DiscoverOptions says where and what `wrap` looks for.
type DiscoverOptions struct {
	StateFile string        // an explicit state file: only this one is considered
	StateDir  string        // otherwise every coordinator-*.json in here
	Instance  string        // only coordinators that have this instance, and its endpoint
	PPID      int           // prefer the coordinator started by this parent (ours)
	Timeout   time.Duration // poll until this much time has passed
	Log       zerolog.Logger
}

// Target is the endpoint wrap hands to its child.
type Target struct {
	Path     string // the state file it was found through
	State    File
	Instance string // the instance id when --instance chose one
	Port     int
	Endpoint string
	WS       string
	// Protocol is what the endpoint serves: CDP, or WebDriver BiDi (a
	// Firefox instance, whose WS is its BiDi socket).
	Protocol launch.Protocol
}

// scanReport is what one pass over the state files saw, for the failure message.
type scanReport struct {
	searched string   // what was searched, for humans
	stale    []string // files whose pid is gone
	skipped  []string // files that were invalid, not answering, or another user's
	known    []string // the instances of live coordinators that lack the one asked for
}

// healthClient asks /cdpvisor/health: short timeout, never through a proxy.
var healthClient = &http.Client{
	Timeout:   time.Second,
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
}

// Discover polls the state files with backoff (100 ms doubling,
// capped at 1 s) until a live coordinator turns up or the timeout passes.
// It always makes at least one pass.
func Discover(ctx context.Context, o DiscoverOptions) (Target, error) {
	start := time.Now()
	deadline := start.Add(o.Timeout)
	delay := 100 * time.Millisecond
	if o.StateFile != "" {
		if err := checkStateFileDir(o.StateFile); err != nil {
			return Target{}, err
		}
	}
	first := true
	for {
		pctx, cancel := context.WithDeadline(ctx, maxTime(deadline, time.Now().Add(healthClient.Timeout)))
		t, rep, ok := scanCoordinators(pctx, o)
		cancel()
		if ok {
			return t, nil
		}
		if len(rep.known) > 0 {
			// Coordinators run, and none has it: waiting would not help.
			return Target{}, remedy.With(fmt.Errorf("unknown instance %q: the running coordinators have %s", o.Instance, strings.Join(rep.known, ", ")),
				remedy.Fix{Do: remedy.ChooseAnother, Setting: remedy.Instance, Text: "(one of them)"},
				remedy.Fix{Do: remedy.LeaveOut, Setting: remedy.Instance, Text: "for the default one"})
		}
		if first {
			first = false
			ev := o.Log.Info().Str("searching", rep.searched).Str("timeout", o.Timeout.String())
			with := ""
			if o.Instance != "" {
				ev, with = ev.Str("instance", o.Instance), ", with instance "+o.Instance
			}
			ev.Msgf("no running coordinator yet; waiting for one (up to %s, in %s%s)", o.Timeout, rep.searched, with)
		}
		remaining := time.Until(deadline)
		if remaining <= 0 || ctx.Err() != nil {
			return Target{}, notFoundError(o, rep, time.Since(start))
		}
		timer := time.NewTimer(min(delay, remaining))
		select {
		case <-ctx.Done():
			timer.Stop()
			return Target{}, notFoundError(o, rep, time.Since(start))
		case <-timer.C:
		}
		delay = min(2*delay, time.Second)
	}
}

// checkStateFileDir fails at once for an explicit state file whose
// directory does not exist: no coordinator will write there in time.
func checkStateFileDir(file string) error {
	dir := filepath.Dir(file)
	info, err := os.Stat(dir)
	hint := fmt.Sprintf("coordinators write their state files in their --state-dir (by default %s): "+
		"'cdpvisor status [--state-dir DIR]' lists them, or leave --state out to use the running one", DefaultDir())
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("state file %s: no such directory: %s; %s", file, dir, hint)
	case err != nil:
		return fmt.Errorf("state file %s: its directory: %w; %s", file, err, hint)
	case !info.IsDir():
		return fmt.Errorf("state file %s: %s is not a directory; %s", file, dir, hint)
	}
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// notFoundError says what was searched and how to get a coordinator.
func notFoundError(o DiscoverOptions, rep scanReport, waited time.Duration) error {
	what := ""
	if o.Instance != "" {
		what = fmt.Sprintf(" with instance %s", o.Instance)
	}
	msg := fmt.Sprintf("%s found in %s after %s", what, rep.searched, waited.Round(100*time.Millisecond))
	if len(rep.stale) > 0 {
		msg += fmt.Sprintf(" (skipped %d stale state file(s) of exited coordinators: %s)", len(rep.stale), strings.Join(rep.stale, ", "))
	}
	if len(rep.skipped) > 0 {
		msg += fmt.Sprintf(" (also skipped: %s)", strings.Join(rep.skipped, "; "))
	}
	msg += "; start one with 'cdpvisor mcp' (as an MCP server of your AI host) or 'cdpvisor serve', " +
		"or use 'cdpvisor wrap --standalone -- …' to run one just for this command"
	return fmt.Errorf("%w%s", ErrNoCoordinator, msg)
}

// ErrNoCoordinator: Discover found no live coordinator (with the instance
// asked for) in time.
var ErrNoCoordinator = errors.New("no running cdpvisor coordinator")

// candidate is one state file being checked.
type candidate struct {
	target Target
	live   bool
	why    string // why it was skipped
	stale  bool
	lacks  bool // it has not the instance asked for
}

// scanCoordinators makes one pass: it reads the state files, checks each
// coordinator's pid and health concurrently, and picks the best live one.
func scanCoordinators(ctx context.Context, o DiscoverOptions) (Target, scanReport, bool) {
	var rep scanReport
	var paths []string
	foreign := func(p string) {
		o.Log.Debug().Str("path", p).Msg("ignoring a state file another user owns")
		rep.skipped = append(rep.skipped, filepath.Base(p)+": another user's")
	}
	if o.StateFile != "" {
		rep.searched = o.StateFile
		paths = []string{o.StateFile}
	} else {
		rep.searched = o.StateDir
		paths = stateFiles(o.StateDir, foreign)
	}
	var cands []*candidate
	for _, p := range paths {
		if o.StateFile != "" && statErr(p) == nil && !Mine(p) {
			foreign(p)
			continue
		}
		s, err := Read(p)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				o.Log.Debug().Err(err).Str("path", p).Msg("skipping an unreadable state file")
				rep.skipped = append(rep.skipped, filepath.Base(p)+": invalid")
			}
			continue
		}
		t := Target{Path: p, State: s, Port: s.Port, Endpoint: s.Endpoint, WS: s.WS, Protocol: ProtocolOf(s.Protocol, s.WS)}
		c := &candidate{target: t}
		if o.Instance != "" {
			if inst, ok := findInstance(s, o.Instance); ok {
				c.target.Instance, c.target.Port, c.target.Endpoint, c.target.WS = inst.ID, inst.Port, inst.Endpoint, inst.WS
				c.target.Protocol = ProtocolOf(inst.Protocol, inst.WS)
			} else {
				o.Log.Debug().Str("path", p).Str("instance", o.Instance).Msg("coordinator lacks the instance")
				c.lacks = true // still checked: if it lives, its instances are named in the error
			}
		}
		cands = append(cands, c)
	}
	var wg sync.WaitGroup
	for _, c := range cands {
		wg.Go(func() { checkCandidate(ctx, c) })
	}
	wg.Wait()
	var live []Target
	for _, c := range cands {
		switch {
		case c.live && c.lacks:
			for _, inst := range c.target.State.Instances {
				rep.known = append(rep.known, fmt.Sprintf("%s (port %d)", inst.ID, inst.Port))
			}
		case c.live:
			live = append(live, c.target)
		case c.stale:
			o.Log.Debug().Str("path", c.target.Path).Int("pid", c.target.State.PID).Msg("skipping a stale state file: its pid is gone")
			rep.stale = append(rep.stale, filepath.Base(c.target.Path))
		default:
			o.Log.Debug().Str("path", c.target.Path).Str("reason", c.why).Msg("skipping a coordinator that does not answer")
			rep.skipped = append(rep.skipped, filepath.Base(c.target.Path)+": "+c.why)
		}
	}
	if len(live) == 0 {
		return Target{}, rep, false
	}
	return pickCoordinator(live, o.PPID), rep, true
}

// pickCoordinator prefers the one started by our own parent (the same AI
// host), then the most recently started.
func pickCoordinator(live []Target, ppid int) Target {
	sibling := func(t Target) bool { return ppid > 1 && t.State.PPID == ppid }
	sort.SliceStable(live, func(i, j int) bool {
		a, b := live[i], live[j]
		if sibling(a) != sibling(b) {
			return sibling(a)
		}
		if !a.State.StartedAt.Equal(b.State.StartedAt) {
			return a.State.StartedAt.After(b.State.StartedAt)
		}
		return a.State.PID > b.State.PID
	})
	return live[0]
}

func findInstance(s File, id string) (Instance, bool) {
	for _, inst := range s.Instances {
		if inst.ID == id && inst.Port > 0 && inst.Port <= 65535 {
			if inst.Endpoint == "" {
				inst.Endpoint = fmt.Sprintf("http://127.0.0.1:%d", inst.Port)
			}
			if !strings.HasPrefix(inst.WS, "ws://") {
				inst.WS = fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", inst.Port)
			}
			return inst, true
		}
	}
	return Instance{}, false
}

// checkCandidate decides whether a coordinator is live: its pid exists and
// its health path answers with that pid (a reused port answers otherwise).
// It never asks /json/version, which would launch a browser.
func checkCandidate(ctx context.Context, c *candidate) {
	t := c.target
	if !proc.PidAlive(t.State.PID) {
		c.stale = true
		return
	}
	h, err := fetchHealth(ctx, t.Port)
	switch {
	case err != nil:
		c.why = err.Error()
	case h.PID != t.State.PID:
		c.why = fmt.Sprintf("port %d is served by pid %d, not %d", t.Port, h.PID, t.State.PID)
	case t.Instance != "" && h.Instance != t.Instance:
		c.why = fmt.Sprintf("port %d serves instance %q, not %s", t.Port, h.Instance, t.Instance)
	default:
		c.live = true
	}
}

func fetchHealth(ctx context.Context, port int) (Health, error) {
	url := fmt.Sprintf("http://127.0.0.1:%d%s", port, HealthPath)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Health{}, err
	}
	resp, err := healthClient.Do(req)
	if err != nil {
		return Health{}, fmt.Errorf("port %d does not answer", port)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return Health{}, fmt.Errorf("port %d: reading the health answer: %w", port, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Health{}, fmt.Errorf("port %d answers %s on %s (not a cdpvisor coordinator)", port, resp.Status, HealthPath)
	}
	var h Health
	if err := json.Unmarshal(body, &h); err != nil {
		return Health{}, fmt.Errorf("port %d: health answer is not JSON: %w", port, err)
	}
	return h, nil
}
