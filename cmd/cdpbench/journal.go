package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
)

// journalResult is the round trip with a world's journal on against off
// (issue 37), both on one browser so that nothing but the journal tells
// them apart: one bare Chromium, two `cdpvisor serve --attach` on it (one
// --journal=false), a world "bench" with a page in each; the Node `ws`
// client of the round trip (bench_roundtrip.mjs), sequential
// Runtime.evaluate "1" on a flattened session, the three sides (direct on
// the journal side's page, journal on, journal off) interleaved in slices.
type journalResult struct {
	Rounds int                `json:"rounds"`
	Calls  int                `json:"calls_per_side_and_round"`
	Slice  int                `json:"slice"`
	Sides  map[string]summary `json:"sides"`
	// RatioP50/RatioP90: journal on over off; Rounds: each round's p50
	// ratio, to show the spread.
	RatioP50    float64   `json:"ratio_p50"`
	RatioP90    float64   `json:"ratio_p90"`
	RoundRatios []float64 `json:"round_ratios_p50"`
	// Entries is the sequence number of the on side's last journal entry
	// after the run (what it recorded, the cap dropping the oldest), and
	// OffEntries the off side's: proof that one recorded and one did not.
	Entries    int `json:"entries"`
	OffEntries int `json:"off_entries"`
}

// targetJournalRatio is issue 37's bound on the round trip.
const targetJournalRatio = 1.05

const (
	journalSideOn  = "journal_on"
	journalSideOff = "journal_off"
	journalWorld   = "bench"
)

func (b *bench) measureJournal(ctx context.Context) (*journalResult, error) {
	clients, err := clientsDir()
	if err != nil {
		return nil, err
	}
	bare, stopBare, err := b.launchBare(ctx)
	if err != nil {
		return nil, err
	}
	defer stopBare()
	attach := []string{"CDPVISOR_ATTACH=true", "CDPVISOR_USER_DATA_DIR=" + bare.profile}
	on, stopOn, err := b.launchCdpvisor(ctx, append(attach, "CDPVISOR_JOURNAL=true")...)
	if err != nil {
		return nil, err
	}
	defer stopOn()
	off, stopOff, err := b.launchCdpvisor(ctx, append(attach, "CDPVISOR_JOURNAL=false")...)
	if err != nil {
		return nil, err
	}
	defer stopOff()
	type worldSide struct{ ws, target string }
	sides := map[string]worldSide{}
	for name, cv := range map[string]*cdpvisorProc{journalSideOn: on, journalSideOff: off} {
		world := cv.endpoint + "/context/" + journalWorld
		ws, err := resolveWS(ctx, world)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		target, err := newPageAt(ctx, world)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		sides[name] = worldSide{ws, target}
	}
	c := b.cfg
	side := func(name, ws, target string) map[string]string {
		return map[string]string{"name": name, "ws": ws, "target": target}
	}
	arg, err := json.Marshal(map[string]any{
		"sides": []map[string]string{
			side(nodeSideDirect, bare.ws, sides[journalSideOn].target),
			side(journalSideOn, sides[journalSideOn].ws, sides[journalSideOn].target),
			side(journalSideOff, sides[journalSideOff].ws, sides[journalSideOff].target),
		},
		"target": sides[journalSideOn].target,
		"rounds": c.JournalRounds, "calls": c.NodeCalls, "slice": c.NodeSlice, "warmup": c.RTWarmup,
	})
	if err != nil {
		return nil, err
	}
	progress("journal: %d rounds of %d calls per side, on one browser through two coordinators", c.JournalRounds, c.NodeCalls)
	cmd := exec.CommandContext(ctx, "node", filepath.Join(clients, "bench_roundtrip.mjs"), string(arg))
	cmd.Dir = clients
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node bench_roundtrip.mjs: %w", err)
	}
	var res struct {
		Sides map[string][]float64 `json:"sides"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("node bench_roundtrip.mjs printed no result: %w", err)
	}
	r := journalFigure(res.Sides, c.JournalRounds, c.NodeCalls, c.NodeSlice)
	if r.Entries, err = journalEntries(ctx, on.endpoint); err != nil {
		return nil, err
	}
	if r.OffEntries, err = journalEntries(ctx, off.endpoint); err != nil {
		return nil, err
	}
	if r.Entries < c.JournalRounds*c.NodeCalls {
		return nil, fmt.Errorf("the journal side's journal holds %d entries after %d calls: it did not record", r.Entries, c.JournalRounds*c.NodeCalls)
	}
	return r, nil
}

// journalFigure sums the latencies (µs, in the order made) up.
func journalFigure(latencies map[string][]float64, rounds, calls, slice int) *journalResult {
	r := &journalResult{Rounds: rounds, Calls: calls, Slice: slice, Sides: map[string]summary{}}
	for _, name := range []string{nodeSideDirect, journalSideOn, journalSideOff} {
		r.Sides[name] = summarize(usDurations(latencies[name]))
	}
	on, off := r.Sides[journalSideOn], r.Sides[journalSideOff]
	if off.P50 > 0 && off.P90 > 0 {
		r.RatioP50, r.RatioP90 = on.P50/off.P50, on.P90/off.P90
	}
	for i := range rounds {
		part := func(v []float64) []float64 { return v[min(i*calls, len(v)):min((i+1)*calls, len(v))] }
		a, b := summarize(usDurations(part(latencies[journalSideOn]))), summarize(usDurations(part(latencies[journalSideOff])))
		if b.P50 > 0 {
			r.RoundRatios = append(r.RoundRatios, a.P50/b.P50)
		}
	}
	return r
}

// newPageAt opens a page by endpoint's PUT /json/new and returns its id.
func newPageAt(ctx context.Context, endpoint string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, endpoint+"/json/new?about:blank", nil)
	if err != nil {
		return "", err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("PUT %s/json/new: %w", endpoint, err)
	}
	defer resp.Body.Close()
	var t struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil || resp.StatusCode != http.StatusOK || t.ID == "" {
		return "", fmt.Errorf("PUT %s/json/new: %s %v", endpoint, resp.Status, err)
	}
	return t.ID, nil
}

// journalEntries is the bench world's last journal entry's number; a
// coordinator without journals answers 404: none.
func journalEntries(ctx context.Context, endpoint string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/context/"+journalWorld+"/journal", nil)
	if err != nil {
		return 0, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("GET the journal: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return 0, nil
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s/context/%s/journal: %s", endpoint, journalWorld, resp.Status)
	}
	n := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e struct {
			Seq int `json:"seq"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			n = max(n, e.Seq)
		}
	}
	return n, sc.Err()
}

func journalRows(r *journalResult) []row {
	d, on, off := r.Sides[nodeSideDirect], r.Sides[journalSideOn], r.Sides[journalSideOff]
	rounds := make([]string, len(r.RoundRatios))
	for i, v := range r.RoundRatios {
		rounds[i] = fmt.Sprintf("%.3f", v)
	}
	worst := 0.0
	if len(r.RoundRatios) > 0 {
		worst = slices.Max(r.RoundRatios)
	}
	return []row{
		{fmt.Sprintf("journal on vs off: round trip p50 (µs, %d×%d calls, one browser)", r.Rounds, r.Calls),
			f1(d.P50) + " (direct); off " + f1(off.P50), f1(on.P50), fmt.Sprintf("%.3f× (rounds %v, worst %.3f)", r.RatioP50, rounds, worst),
			fmt.Sprintf("≤ %.2f×", targetJournalRatio), met(r.RatioP50 <= targetJournalRatio)},
		{"journal on vs off: round trip p90 (µs)", f1(d.P90) + " (direct); off " + f1(off.P90), f1(on.P90), fmt.Sprintf("%.3f×", r.RatioP90), notApplicable, notApplicable},
		{"journal: entries recorded on / off (last seq)", notApplicable, fmt.Sprintf("%d / %d", r.Entries, r.OffEntries), notApplicable, notApplicable, notApplicable},
	}
}
