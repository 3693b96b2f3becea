package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"
)

// ownPids are the side's cdpvisor processes: those carrying the tag that
// run the cdpvisor executable (coordinators and their watchdogs).
func (st *worldsSideState) ownPids() map[int]bool {
	own := map[int]bool{}
	exes := map[string]bool{}
	for _, cv := range st.cvs {
		own[cv.pid] = true
		if e := exeOf(cv.pid); e != "" {
			exes[e] = true
		}
	}
	for _, pid := range processesWithEnv(st.tag) {
		if exes[exeOf(pid)] {
			own[pid] = true
		}
	}
	return own
}

// ownMemory sums the side's cdpvisor processes.
func (st *worldsSideState) ownMemory() (rollup, int) {
	var sum rollup
	n := 0
	for pid := range st.ownPids() {
		if r, err := readRollup(pid); err == nil {
			sum.add(r)
			n++
		}
	}
	return sum, n
}

// snapshot sums the side's browser processes now.
func (st *worldsSideState) snapshot() (memSnapshot, error) {
	table, err := procTable()
	if err != nil {
		return memSnapshot{}, err
	}
	inTree := map[int]bool{}
	for _, bp := range st.browsers {
		d := descendants(table, bp)
		if d == nil {
			return memSnapshot{}, fmt.Errorf("browser %d is gone", bp)
		}
		for _, pid := range d {
			inTree[pid] = true
		}
	}
	own := st.ownPids()
	var pids, detached []int
	for pid := range inTree {
		pids = append(pids, pid)
	}
	for _, pid := range processesWithEnv(st.tag) {
		if !inTree[pid] && !own[pid] {
			detached = append(detached, pid)
		}
	}
	sort.Ints(pids)
	sort.Ints(detached)
	snap := memSnapshot{ByKind: map[string]kindStat{}}
	mine := map[int]bool{}
	for _, pid := range append(pids, detached...) {
		r, err := readRollup(pid)
		if err != nil {
			continue // ended meanwhile
		}
		mine[pid] = true
		snap.Processes++
		snap.Total.add(r)
		if inTree[pid] {
			snap.Tree.add(r)
		} else {
			snap.Detached++
		}
		k := processKind(exeOf(pid), cmdlineOf(pid))
		ks := snap.ByKind[k]
		ks.N++
		ks.PSSkB += r.PSSkB
		ks.RSSkB += r.RSSkB
		snap.ByKind[k] = ks
	}
	if snap.Processes == 0 {
		return snap, errors.New("no browser process readable")
	}
	var read []int
	for pid := range mine {
		read = append(read, pid)
	}
	if kb, ok := uniqueFileKB(read); ok {
		snap.FileOncekB = kb
	}
	for _, pid := range pidsWithExe(exeOf(st.browsers[0])) {
		if !mine[pid] {
			snap.OtherChromium++
		}
	}
	return snap, nil
}

// roundTrip times Runtime.evaluate "1" on the first agent's first page,
// through its world and through the unprefixed endpoint, in alternating
// batches.
func (st *worldsSideState) roundTrip(ctx context.Context, rt *rtSamples) error {
	cfg := st.b.cfg
	a := st.agents[0]
	ws, err := resolveWS(ctx, st.cvs[0].endpoint)
	if err != nil {
		return err
	}
	u, err := dialCDP(ctx, ws)
	if err != nil {
		return err
	}
	defer u.Close()
	uSession, err := u.attach(ctx, a.targets[0], cfg.Timeout)
	if err != nil {
		return fmt.Errorf("unprefixed attach: %w", err)
	}
	type rtSide struct {
		name    string
		c       *cdpClient
		session string
	}
	sides := []rtSide{{"world", a.c, a.sessions[0]}, {"unprefixed", u, uSession}}
	for _, s := range sides {
		for i := 0; i < cfg.RTWarmup; i++ {
			if _, _, err := timedCall(ctx, s.c, s.session, "Runtime.evaluate", evalOne, cfg.Timeout); err != nil {
				return fmt.Errorf("warm-up %s: %w", s.name, err)
			}
		}
	}
	for _, stp := range interleave(cfg.WorldsRTCalls, cfg.RTBatch, 2) {
		s := sides[stp.Side]
		batch := make([]time.Duration, 0, stp.N)
		for i := 0; i < stp.N; i++ {
			d, _, err := timedCall(ctx, s.c, s.session, "Runtime.evaluate", evalOne, cfg.Timeout)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			batch = append(batch, d)
		}
		if stp.Side == 0 {
			rt.world = append(rt.world, batch...)
			rt.worldBatch = append(rt.worldBatch, percentile(batch, 50))
		} else {
			rt.whole = append(rt.whole, batch...)
			rt.wholeBatch = append(rt.wholeBatch, percentile(batch, 50))
		}
	}
	return nil
}
