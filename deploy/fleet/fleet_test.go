//go:build fleet

// Package fleet holds the fleet test of issue 29: three `cdpvisor serve`
// replicas on loopback behind HAProxy, which picks the replica of a world by
// consistent hashing on its name (haproxy.cfg.tmpl). It is kept out of
// `task test`; run it with `task fleet` or
//
//	go test -tags fleet -count=1 -v ./deploy/fleet
//
// It needs Debian's chromium and haproxy (task fleet installs haproxy), and
// takes about a minute (docs/fleet.md has measured times).
package fleet

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

const (
	// fleetHost is the name the agents use for the fleet, as they would a
	// load balancer's DNS name: the test's dialers send it to HAProxy, and
	// every replica allows it (--allow-host).
	fleetHost = "cdpvisor.fleet.test"
	replicas  = 3
	agents    = 30
	// visitsBefore is how many connections each agent makes before the kill.
	visitsBefore = 3
	// replicaHeader is what HAProxy adds to its answers: the replica that
	// served (haproxy.cfg.tmpl).
	replicaHeader = "X-Cdpvisor-Replica"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cdpvfleetbin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "cdpvisor")
	build := exec.Command("go", "build", "-o", binary, "./cmd/cdpvisor")
	build.Dir = actortest.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build cdpvisor: %v\n%s", err, out)
		os.Exit(1)
	}
	code := actortest.LeakCheckMain(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// Issue 29: 30 agents in worlds behind HAProxy land on one replica every
// time; a replica killed takes only its agents' sessions, and they go on
// through another replica; a replica drained leaves the ring while its
// connected agents are served; nothing is left behind.
func TestFleet(t *testing.T) {
	began := time.Now()
	chromium := actortest.Chromium(t)
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		haproxy = "/usr/sbin/haproxy" // Debian's, off a user's PATH
		_, err = os.Stat(haproxy)
	}
	if err != nil {
		actortest.Missing(t, "haproxy (apt-get install haproxy; task fleet installs it)")
	}
	actortest.ClientsDir(t) // puppeteer-core, for one real client
	f := startFleet(t, chromium, haproxy)
	phase := func(name string, since time.Time) { t.Logf("TIME %-34s %6.1fs", name, time.Since(since).Seconds()) }
	phase("start (3 replicas, browsers, HAProxy)", began)

	f.checkGate(t)

	// 1. Every agent connects visitsBefore times, the agents at once; each
	// connection must find the page and the JavaScript state the agent's
	// earlier connections left in its world.
	step := time.Now()
	all := make([]*agent, agents)
	for i := range all {
		all[i] = &agent{name: fmt.Sprintf("agent-%02d", i+1)}
	}
	f.each(t, all, func(a *agent) error {
		for v := 0; v < visitsBefore; v++ {
			if err := f.visit(a, v == 0, v == visitsBefore-1); err != nil {
				return fmt.Errorf("visit %d: %w", v+1, err)
			}
		}
		return nil
	})
	phase("30 agents x 3 connections", step)
	step = time.Now()
	f.puppeteer(t, all[0])
	phase("puppeteer-core through HAProxy", step)
	f.locate(t, all, f.up())
	byReplica := f.report(t, "before the kill", all)
	if len(byReplica) < 2 {
		t.Fatalf("every agent is on one replica: %v", byReplica)
	}

	// 2. kill -9 the replica with the most agents.
	victim := f.busiest(byReplica)
	var lost, kept []*agent
	for _, a := range all {
		if a.replica == victim.name {
			lost = append(lost, a)
		} else {
			kept = append(kept, a)
		}
	}
	t.Logf("killing %s (serve pid %d, browser pid %d) with SIGKILL: %d agents on it, %d elsewhere",
		victim.name, victim.pid, victim.browserPid, len(lost), len(kept))
	step = time.Now()
	victim.kill(t)
	killed := time.Now()
	var downAfter time.Duration
	downDone := make(chan struct{})
	go func() {
		defer close(downDone)
		if f.lb.waitStatus(victim.name, "DOWN", 15*time.Second) {
			downAfter = time.Since(killed)
		}
	}()
	var mu sync.Mutex
	var closedAfter []time.Duration
	f.each(t, lost, func(a *agent) error {
		// Its session is gone with the replica: its connection is closed
		// (not left hanging), then it reconnects through HAProxy and goes
		// on in a fresh world on another replica, the same one each time.
		err := a.conn.closedWithin(10 * time.Second)
		if err != nil {
			return fmt.Errorf("its connection to the killed replica: %w", err)
		}
		mu.Lock()
		closedAfter = append(closedAfter, time.Since(killed))
		mu.Unlock()
		a.lostOn = a.replica
		for v := 0; v < visitsBefore; v++ {
			if err := f.visit(a, v == 0, v == visitsBefore-1); err != nil {
				return fmt.Errorf("reconnect %d: %w", v+1, err)
			}
		}
		return nil
	})
	f.each(t, kept, func(a *agent) error {
		// Its connection lives on; a new one lands on the same replica
		// (consistent hashing moved only the killed replica's worlds).
		if err := a.evaluate(); err != nil {
			return fmt.Errorf("its open connection after the kill: %w", err)
		}
		return f.visit(a, false, false)
	})
	<-downDone
	if downAfter == 0 {
		t.Fatalf("HAProxy did not mark %s DOWN within 15 s of its kill", victim.name)
	}
	slices.Sort(closedAfter)
	t.Logf("after the kill (once the process was reaped): the %d lost connections closed within %v (median %v); HAProxy marked %s DOWN after %v",
		len(lost), closedAfter[len(closedAfter)-1].Round(time.Millisecond), closedAfter[len(closedAfter)/2].Round(time.Millisecond),
		victim.name, downAfter.Round(time.Millisecond))
	phase("kill, reconnects", step)
	f.locate(t, all, f.up())
	var moves []string
	for _, a := range lost {
		if a.replica == victim.name || a.replica == "" {
			t.Errorf("%s: reconnected onto %q", a.name, a.replica)
		}
		moves = append(moves, fmt.Sprintf("%s %s→%s", a.name, a.lostOn, a.replica))
	}
	t.Logf("the lost agents went on in fresh worlds (3 connections each, the same replica each time): %s", strings.Join(moves, ", "))
	for _, a := range kept {
		if a.replica != a.home {
			t.Errorf("%s: was on %s, now on %s, though its replica lives", a.name, a.home, a.replica)
		}
	}
	byReplica = f.report(t, "after the kill", all)
	if t.Failed() {
		t.FailNow()
	}

	// 3. SIGTERM another replica: it drains. Its readiness fails, HAProxy
	// takes it off the ring, its connected agents are served on; their new
	// connections go to the last replica; once they leave, it exits.
	drained := f.busiest(byReplica)
	var draining []*agent
	for _, a := range all {
		if a.replica == drained.name {
			draining = append(draining, a)
		}
	}
	step = time.Now()
	t.Logf("draining %s (serve pid %d) with SIGTERM: %d agents connected", drained.name, drained.pid, len(draining))
	if err := drained.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	notReady := waitFor(5*time.Second, func() bool {
		code, body := drained.get("/health/ready", false)
		return code == http.StatusServiceUnavailable && strings.Contains(body, "draining")
	})
	if !notReady {
		t.Fatalf("%s: /health/ready is not 503 draining 5 s after SIGTERM", drained.name)
	}
	readyOffAfter := time.Since(signalled)
	if !f.lb.waitStatus(drained.name, "DOWN", 10*time.Second) {
		t.Fatalf("HAProxy did not take the draining %s off within 10 s", drained.name)
	}
	offAfter := time.Since(signalled)
	var last *replica
	for _, r := range f.up() {
		if r != drained {
			last = r
		}
	}
	f.each(t, draining, func(a *agent) error {
		if err := a.evaluate(); err != nil {
			return fmt.Errorf("its connection to the draining replica: %w", err)
		}
		// A new connection of the same agent: a fresh world on the last
		// replica, while the old one still holds its world on the draining.
		fresh := &agent{name: a.name}
		if err := f.visit(fresh, true, false); err != nil {
			return fmt.Errorf("a new connection while its replica drains: %w", err)
		}
		if fresh.lbReplica != last.name {
			return fmt.Errorf("a new connection while %s drains went to %s, want %s", drained.name, fresh.lbReplica, last.name)
		}
		return a.evaluate()
	})
	left := time.Now()
	for _, a := range draining {
		a.conn.close()
		a.conn = nil
	}
	select {
	case err := <-drained.done:
		if err != nil {
			t.Errorf("%s exited with %v after its drain, want 0", drained.name, err)
		}
		drained.done <- err
	case <-time.After(15 * time.Second):
		t.Fatalf("%s still runs 15 s after its last client left (drain timeout %v)", drained.name, drainTimeout)
	}
	t.Logf("drain: /health/ready 503 after %v, HAProxy took it off after %v; its %d agents' connections were served meanwhile and their new connections went to %s; it exited %v after the last one left",
		readyOffAfter.Round(time.Microsecond), offAfter.Round(time.Millisecond), len(draining), last.name, time.Since(left).Round(time.Millisecond))
	phase("drain", step)

	// 4. Everything ends: the connections, the last replica (SIGTERM),
	// HAProxy; then no process of the run is left, nor a temporary
	// directory or state file.
	step = time.Now()
	for _, a := range all {
		if a.conn != nil {
			a.conn.close()
		}
	}
	f.stop(t)
	phase("stop and checks", step)
	phase("TOTAL", began)
}

// Without the token HAProxy's answer is the replica's 401, with it by
// header or by query the world answers; a Host no replica allows is
// refused by the replica (403).
func (f *fleet) checkGate(t *testing.T) {
	t.Helper()
	path := "/context/gate-check/json/version"
	for _, c := range []struct {
		name, query, bearer, host string
		want                      int
	}{
		{"no token", "", "", "", http.StatusUnauthorized},
		{"a wrong token", "?token=wrong", "", "", http.StatusUnauthorized},
		{"the token by header", "", f.token, "", http.StatusOK},
		{"the token by query", "?token=" + f.token, "", "", http.StatusOK},
		{"a Host not allowed", "?token=" + f.token, "", "elsewhere.test", http.StatusForbidden},
		{"no world (the whole browser of any replica)", "", f.token, "", http.StatusOK},
	} {
		p := path
		if strings.HasPrefix(c.name, "no world") {
			p = "/json/version"
		}
		req, _ := http.NewRequest(http.MethodGet, f.base+p+c.query, nil)
		if c.bearer != "" {
			req.Header.Set("Authorization", "Bearer "+c.bearer)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := f.http.Do(req)
		if err != nil {
			t.Fatalf("%s through HAProxy: %v", c.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want || resp.Header.Get(replicaHeader) == "" {
			t.Fatalf("%s through HAProxy: %d from %q, want %d from a replica", c.name, resp.StatusCode, resp.Header.Get(replicaHeader), c.want)
		}
	}
}

// puppeteer checks that a real client goes through HAProxy into an agent's
// world, with the token in the query: puppeteer-core's connect to the
// world's websocket, a new page, an evaluation (puppeteer_connect.mjs).
// Node resolves no test name: it is given HAProxy's 127.0.0.1:PORT, a
// loopback Host that every replica answers anyway.
func (f *fleet) puppeteer(t *testing.T, a *agent) {
	t.Helper()
	world := "http://" + f.lb.addr + "/context/" + a.name
	out, err := actortest.NodeScript(t, 60*time.Second, "puppeteer_connect.mjs", world, "--token-query="+f.token)
	var res struct {
		OK         bool
		WSEndpoint string
	}
	_ = json.Unmarshal([]byte(out), &res)
	want := "ws://" + f.lb.addr + "/context/" + a.name + "/devtools/browser/"
	if err != nil || !res.OK || !strings.HasPrefix(res.WSEndpoint, want) {
		t.Fatalf("puppeteer-core through HAProxy into %s: %v, ok %v, connected to %q, want under %s", a.name, err, res.OK, strings.ReplaceAll(res.WSEndpoint, f.token, "TOKEN"), want)
	}
	t.Logf("puppeteer-core through HAProxy: connected to %s's world (%s…), made a page, evaluated 1+1", a.name, want)
}

// --- the fleet ------------------------------------------------------------

const drainTimeout = 30 * time.Second

type fleet struct {
	dir      string
	token    string
	replicas []*replica
	lb       *loadBalancer
	base     string // http://fleetHost:PORT
	http     *http.Client
	ws       *websocket.Dialer
}

type replica struct {
	name       string
	addr       string // 127.0.0.1:PORT of its --listen
	stateDir   string
	token      string
	cmd        *exec.Cmd
	done       chan error // its exit, put back once taken
	stderr     *actortest.SyncBuffer
	pid        int // the coordinator's, from its /health
	browserPid int
	killed     bool
}

func startFleet(t *testing.T, chromium, haproxy string) *fleet {
	t.Helper()
	f := &fleet{dir: t.TempDir()}
	var b [16]byte
	_, _ = rand.Read(b[:])
	f.token = hex.EncodeToString(b[:])
	tokenFile := filepath.Join(f.dir, "token")
	if err := os.WriteFile(tokenFile, []byte(f.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= replicas; i++ {
		f.replicas = append(f.replicas, startReplica(t, fmt.Sprintf("r%d", i), f.dir, tokenFile, chromium))
	}
	// Each replica launches its browser now, at once: the agents' first
	// connections then do not all wait for three launches.
	var wg sync.WaitGroup
	errs := make([]error, len(f.replicas))
	for i, r := range f.replicas {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = r.identify() }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	f.lb = startLoadBalancer(t, haproxy, f.dir, f.replicas)
	_, port, _ := net.SplitHostPort(f.lb.addr)
	f.base = "http://" + fleetHost + ":" + port
	// The agents' DNS: the fleet's name is HAProxy's address.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, _ := net.SplitHostPort(addr); host == fleetHost {
			addr = f.lb.addr
		}
		return (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, addr)
	}
	f.http = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: dial, MaxIdleConnsPerHost: agents}}
	t.Cleanup(f.http.CloseIdleConnections)
	f.ws = &websocket.Dialer{NetDialContext: dial, HandshakeTimeout: 30 * time.Second}
	for _, r := range f.replicas {
		t.Logf("replica %s: %s, serve pid %d, browser pid %d, state dir %s", r.name, r.addr, r.pid, r.browserPid, r.stateDir)
	}
	t.Logf("HAProxy pid %d on %s, reached as %s", f.lb.cmd.Process.Pid, f.lb.addr, f.base)
	return f
}

func startReplica(t *testing.T, name, dir, tokenFile, chromium string) *replica {
	t.Helper()
	r := &replica{name: name, stateDir: filepath.Join(dir, name, "state"), stderr: &actortest.SyncBuffer{}, done: make(chan error, 1)}
	token, _ := os.ReadFile(tokenFile)
	r.token = strings.TrimSpace(string(token))
	r.cmd = exec.Command(binary, "serve",
		"--listen", "127.0.0.1:0", "--token-file", tokenFile, "--allow-host", fleetHost,
		"--drain-timeout", drainTimeout.String(), "--state-dir", r.stateDir,
		"--browser", chromium, "--download-dir", filepath.Join(dir, name, "downloads"))
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, stdout)
		r.done <- r.cmd.Wait() // after stdout is read to its end
	}()
	t.Cleanup(func() {
		if !r.exited() {
			_ = r.cmd.Process.Signal(syscall.SIGTERM)
		}
		select {
		case err := <-r.done:
			r.done <- err
		case <-time.After(drainTimeout + 10*time.Second):
			_ = r.cmd.Process.Kill()
			t.Errorf("%s did not exit after SIGTERM", r.name)
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", r.name, r.stderr.String())
		}
	})
	select {
	case l, ok := <-line:
		if !ok {
			t.Fatalf("%s printed no endpoint; stderr:\n%s", name, r.stderr.String())
		}
		r.addr = strings.TrimPrefix(l, "http://")
	case <-time.After(15 * time.Second):
		t.Fatalf("%s: no endpoint line within 15 s; stderr:\n%s", name, r.stderr.String())
	}
	return r
}

// get asks the replica itself (not through HAProxy), with the token.
func (r *replica) get(path string, token bool) (int, string) {
	req, _ := http.NewRequest(http.MethodGet, "http://"+r.addr+path, nil)
	if token {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// identify launches the replica's browser and reads its /health: the
// coordinator's pid and its browser's.
func (r *replica) identify() error {
	if code, body := r.get("/json/version", true); code != http.StatusOK {
		return fmt.Errorf("%s /json/version: %d %s", r.name, code, body)
	}
	code, body := r.get("/health", true)
	var h struct {
		Pid       int
		Instances []struct{ Pid int }
	}
	if err := json.Unmarshal([]byte(body), &h); code != http.StatusOK || err != nil || len(h.Instances) == 0 {
		return fmt.Errorf("%s /health: %d %s", r.name, code, body)
	}
	if h.Pid != r.cmd.Process.Pid {
		return fmt.Errorf("%s /health names pid %d, the process started is %d", r.name, h.Pid, r.cmd.Process.Pid)
	}
	r.pid, r.browserPid = h.Pid, h.Instances[0].Pid
	return nil
}

// pages lists the ids of every page of the replica's browser, every
// world's included (the unprefixed /json/list, asked of it directly).
func (r *replica) pages() (map[string]bool, error) {
	code, body := r.get("/json/list", true)
	var list []struct{ ID, Type string }
	if err := json.Unmarshal([]byte(body), &list); code != http.StatusOK || err != nil {
		return nil, fmt.Errorf("%s /json/list: %d %s", r.name, code, body)
	}
	out := map[string]bool{}
	for _, p := range list {
		out[p.ID] = true
	}
	return out, nil
}

func (r *replica) kill(t *testing.T) {
	t.Helper()
	actortest.KillPid(t, r.cmd.Process.Pid)
	err := <-r.done
	r.done <- err
	r.killed = true
}

// exited says whether the replica's process has ended (and was reaped).
func (r *replica) exited() bool {
	select {
	case err := <-r.done:
		r.done <- err
		return true
	default:
		return false
	}
}

// up lists the replicas still running.
func (f *fleet) up() []*replica {
	var out []*replica
	for _, r := range f.replicas {
		if !r.exited() {
			out = append(out, r)
		}
	}
	return out
}

func (f *fleet) replica(name string) *replica {
	for _, r := range f.replicas {
		if r.name == name {
			return r
		}
	}
	return nil
}

// busiest is the running replica with the most agents.
func (f *fleet) busiest(byReplica map[string][]string) *replica {
	var best *replica
	for _, r := range f.up() {
		if best == nil || len(byReplica[r.name]) > len(byReplica[best.name]) {
			best = r
		}
	}
	return best
}

// locate finds each agent's page in the browsers of the replicas
// themselves: the replica whose /json/list has it is where its world is,
// and must be the one HAProxy said served it.
func (f *fleet) locate(t *testing.T, all []*agent, among []*replica) {
	t.Helper()
	lists := map[string]map[string]bool{}
	for _, r := range among {
		pages, err := r.pages()
		if err != nil {
			t.Fatal(err)
		}
		lists[r.name] = pages
	}
	for _, a := range all {
		var on []string
		for _, r := range among {
			if lists[r.name][a.page] {
				on = append(on, r.name)
			}
		}
		if len(on) != 1 {
			t.Errorf("%s: its page %s is in the browser of %v, want exactly one replica", a.name, a.page, on)
			continue
		}
		if a.home == "" {
			a.home = on[0]
		}
		a.replica = on[0]
		if a.lbReplica != on[0] {
			t.Errorf("%s: HAProxy said %s served it, its page is on %s", a.name, a.lbReplica, on[0])
		}
	}
}

// report logs how the agents spread over the replicas.
func (f *fleet) report(t *testing.T, when string, all []*agent) map[string][]string {
	byReplica := map[string][]string{}
	for _, a := range all {
		byReplica[a.replica] = append(byReplica[a.replica], a.name)
	}
	var lines []string
	for _, r := range f.replicas {
		state := "up"
		if r.killed {
			state = "killed"
		} else if !slices.Contains(f.up(), r) {
			state = "stopped"
		}
		lines = append(lines, fmt.Sprintf("  %s (%s, serve pid %d): %2d agents %v", r.name, state, r.pid, len(byReplica[r.name]), byReplica[r.name]))
	}
	t.Logf("DISTRIBUTION %s:\n%s", when, strings.Join(lines, "\n"))
	return byReplica
}

// each runs fn for every agent at once and fails the test with every
// agent's error.
func (f *fleet) each(t *testing.T, agents []*agent, fn func(*agent) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(agents))
	for i, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(a); err != nil {
				errs[i] = fmt.Errorf("%s: %w", a.name, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// stop ends the replicas still running (SIGTERM, no client left: at once)
// and HAProxy, then checks that nothing of the run is left.
func (f *fleet) stop(t *testing.T) {
	t.Helper()
	for _, r := range f.up() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, r := range f.replicas {
		select {
		case err := <-r.done:
			r.done <- err
			if err != nil && !r.killed {
				t.Errorf("%s exited with %v, want 0", r.name, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s did not exit within 20 s of SIGTERM", r.name)
		}
	}
	f.lb.stop(t)
	var pids []string
	for _, r := range f.replicas {
		pids = append(pids, strconv.Itoa(r.pid), strconv.Itoa(r.browserPid))
	}
	pids = append(pids, strconv.Itoa(f.lb.cmd.Process.Pid))
	// The watchdogs end the browsers (the killed replica's too) and then
	// themselves: every process of this run carries its marker.
	var left []int
	gone := waitFor(10*time.Second, func() bool { left = actortest.MarkedProcesses(actortest.RunMarker()); return len(left) == 0 })
	if !gone {
		for _, pid := range left {
			t.Errorf("left running: pid %d: %s", pid, actortest.Cmdline(pid))
		}
	}
	for _, r := range f.replicas {
		for _, pid := range []int{r.pid, r.browserPid} {
			if actortest.Alive(pid) {
				t.Errorf("%s: pid %d still alive", r.name, pid)
			}
		}
		states, _ := filepath.Glob(filepath.Join(r.stateDir, "coordinator-*.json"))
		if len(states) > 0 {
			t.Errorf("%s: state files left: %v", r.name, states)
		}
	}
	leftovers := actortest.LeftoverFiles(os.TempDir())
	for _, l := range leftovers {
		t.Errorf("left behind: %s", l)
	}
	if err := os.RemoveAll(f.dir); err != nil {
		t.Errorf("removing %s: %v", f.dir, err)
	}
	if _, err := os.Stat(f.dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there", f.dir)
	}
	if bytes.Contains([]byte(f.lb.stderr.String()), []byte(f.token)) {
		t.Errorf("the token is in HAProxy's log")
	}
	for _, r := range f.replicas {
		if strings.Contains(r.stderr.String(), f.token) {
			t.Errorf("the token is in %s's log", r.name)
		}
	}
	if !t.Failed() {
		t.Logf("CLEANUP: replicas, browsers (pids %s) and HAProxy ended; no process of the run left, no temporary profile or state file; %s removed",
			strings.Join(pids, " "), f.dir)
	}
}

// --- HAProxy --------------------------------------------------------------

type loadBalancer struct {
	cmd    *exec.Cmd
	addr   string
	sock   string // the stats socket
	stderr *actortest.SyncBuffer
	done   chan error
}

type lbConfig struct {
	Bind, Host, StatsSocket string
	LogStderr               bool
	Replicas                []struct{ Name, Addr string }
}

// startLoadBalancer renders haproxy.cfg.tmpl for the replicas and runs
// HAProxy in the foreground on a free loopback port, until every replica
// is UP (its /health/ready checked).
func startLoadBalancer(t *testing.T, haproxy, dir string, rs []*replica) *loadBalancer {
	t.Helper()
	tmpl := template.Must(template.ParseFiles("haproxy.cfg.tmpl"))
	for try := 1; ; try++ {
		lb := &loadBalancer{addr: fmt.Sprintf("127.0.0.1:%d", actortest.ClosedPort(t)), sock: filepath.Join(dir, "haproxy.sock"),
			stderr: &actortest.SyncBuffer{}, done: make(chan error, 1)}
		cfg := lbConfig{Bind: lb.addr, Host: fleetHost, StatsSocket: lb.sock, LogStderr: true}
		for _, r := range rs {
			cfg.Replicas = append(cfg.Replicas, struct{ Name, Addr string }{r.name, r.addr})
		}
		var text bytes.Buffer
		if err := tmpl.Execute(&text, cfg); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "haproxy.cfg")
		if err := os.WriteFile(path, text.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(haproxy, "-c", "-q", "-f", path).CombinedOutput(); err != nil {
			t.Fatalf("haproxy -c: %v\n%s\n%s", err, out, text.String())
		}
		lb.cmd = exec.Command(haproxy, "-db", "-f", path)
		lb.cmd.Stdout, lb.cmd.Stderr = lb.stderr, lb.stderr
		if err := lb.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { lb.done <- lb.cmd.Wait() }()
		up := waitFor(15*time.Second, func() bool {
			select {
			case err := <-lb.done:
				lb.done <- err
				return true
			default:
			}
			for _, r := range rs {
				if st, _ := lb.status(r.name); st != "UP" {
					return false
				}
			}
			return true
		})
		select {
		case err := <-lb.done:
			lb.done <- err
			if try < 3 && strings.Contains(lb.stderr.String(), "cannot bind") {
				continue // the free port was taken meanwhile
			}
			t.Fatalf("haproxy exited: %v\n%s", err, lb.stderr.String())
		default:
		}
		t.Cleanup(func() {
			lb.stop(t)
			if t.Failed() {
				t.Logf("HAProxy's log:\n%s", lb.stderr.String())
			}
		})
		if !up {
			t.Fatalf("HAProxy did not see every replica UP within 15 s:\n%s", lb.stderr.String())
		}
		return lb
	}
}

// status is the state HAProxy's checks give a replica in the worlds
// backend: UP, DOWN, or on the way ("UP 1/2", "DOWN 1/2").
func (lb *loadBalancer) status(server string) (string, error) {
	c, err := net.DialTimeout("unix", lb.sock, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.WriteString(c, "show stat\n"); err != nil {
		return "", err
	}
	data, err := io.ReadAll(c)
	if err != nil {
		return "", err
	}
	rd := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("# "))))
	rd.FieldsPerRecord = -1
	rows, err := rd.ReadAll()
	if err != nil || len(rows) == 0 {
		return "", fmt.Errorf("show stat: %v %q", err, data)
	}
	col := slices.Index(rows[0], "status")
	for _, row := range rows[1:] {
		if len(row) > col && row[0] == "worlds" && row[1] == server {
			return row[col], nil
		}
	}
	return "", fmt.Errorf("no server %s in show stat", server)
}

func (lb *loadBalancer) waitStatus(server, want string, within time.Duration) bool {
	return waitFor(within, func() bool { st, _ := lb.status(server); return st == want })
}

func (lb *loadBalancer) stop(t *testing.T) {
	select {
	case err := <-lb.done:
		lb.done <- err
		return
	default:
	}
	_ = lb.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-lb.done:
		lb.done <- err
	case <-time.After(10 * time.Second):
		_ = lb.cmd.Process.Kill()
		t.Errorf("HAProxy did not exit within 10 s of SIGTERM")
	}
}

// --- the agents -----------------------------------------------------------

// agent is one agent of the fleet: its world is named after it. What it
// remembers across connections is its page's id and how many times it
// evaluated there; the page itself keeps the count in its JavaScript.
type agent struct {
	name      string
	page      string
	visits    int
	lbReplica string   // HAProxy's X-Cdpvisor-Replica on its last connection
	replica   string   // where its page is, by the replicas' own /json/list
	home      string   // where it was first
	lostOn    string   // the replica killed under it
	conn      *cdpConn // its connection kept open
	session   string
}

// visit is one connection of the agent through HAProxy: the world's
// /json/version (token in the query), the websocket it names, the agent's
// page found again in the world (or, fresh, made: then the world must have
// no page), and one evaluation on it, which must count on from the last.
func (f *fleet) visit(a *agent, fresh, keep bool) error {
	resp, err := f.http.Get(f.base + "/context/" + a.name + "/json/version?token=" + f.token)
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/json/version: %d %s", resp.StatusCode, body)
	}
	jsonReplica := resp.Header.Get(replicaHeader)
	var version struct{ WebSocketDebuggerURL string }
	if err := json.Unmarshal(body, &version); err != nil {
		return err
	}
	prefix := "ws://" + strings.TrimPrefix(f.base, "http://") + "/context/" + a.name + "/devtools/browser/"
	if u := version.WebSocketDebuggerURL; !strings.HasPrefix(u, prefix) || !strings.HasSuffix(u, "?token="+f.token) {
		return fmt.Errorf("webSocketDebuggerUrl %q: want it under %s, carrying the token", u, prefix)
	}
	ws, up, err := f.ws.Dial(version.WebSocketDebuggerURL, nil)
	if err != nil {
		return fmt.Errorf("websocket: %w", err)
	}
	c := &cdpConn{ws: ws}
	if wsReplica := up.Header.Get(replicaHeader); wsReplica != jsonReplica {
		c.close()
		return fmt.Errorf("its /json/version came from %s, its websocket went to %s", jsonReplica, wsReplica)
	}
	var targets struct {
		TargetInfos []struct{ TargetID, Type string }
	}
	if err := c.call("Target.getTargets", nil, "", &targets); err != nil {
		c.close()
		return err
	}
	var pages []string
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" {
			pages = append(pages, ti.TargetID)
		}
	}
	if fresh {
		if len(pages) > 0 {
			c.close()
			return fmt.Errorf("a fresh world was wanted, the world has pages %v", pages)
		}
		var made struct{ TargetID string }
		if err := c.call("Target.createTarget", map[string]any{"url": "about:blank"}, "", &made); err != nil {
			c.close()
			return err
		}
		a.page, a.visits = made.TargetID, 0
	} else if !slices.Contains(pages, a.page) {
		c.close()
		return fmt.Errorf("through %s: its page %s is not in its world (pages %v): not the replica of its earlier connections", jsonReplica, a.page, pages)
	}
	var attached struct{ SessionID string }
	if err := c.call("Target.attachToTarget", map[string]any{"targetId": a.page, "flatten": true}, "", &attached); err != nil {
		c.close()
		return err
	}
	a.lbReplica = jsonReplica
	if err := a.evaluateOn(c, attached.SessionID); err != nil {
		c.close()
		return err
	}
	if !keep {
		c.close()
		return nil
	}
	if a.conn != nil {
		a.conn.close()
	}
	a.conn, a.session = c, attached.SessionID
	return nil
}

// evaluate counts one more visit in the page's JavaScript, on the agent's
// open connection: the answer must be the agent's count.
func (a *agent) evaluate() error { return a.evaluateOn(a.conn, a.session) }

func (a *agent) evaluateOn(c *cdpConn, session string) error {
	expr := fmt.Sprintf(`(() => { window.visits = (window.visits || 0) + 1; return (window.agent = window.agent || %q) + ":" + window.visits })()`, a.name)
	var res struct {
		Result struct{ Value any }
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, session, &res); err != nil {
		return err
	}
	want := fmt.Sprintf("%s:%d", a.name, a.visits+1)
	if res.Result.Value != want {
		return fmt.Errorf("evaluated %v, want %s", res.Result.Value, want)
	}
	a.visits++
	return nil
}

// cdpConn is a CDP client of one agent's goroutine (actortest's CDPClient
// fails its test from the calling goroutine, which must be the test's).
type cdpConn struct {
	ws   *websocket.Conn
	next int64
}

// call sends a request and waits up to 30 s for its answer, passing over
// events.
func (c *cdpConn) call(method string, params any, session string, result any) error {
	c.next++
	msg := map[string]any{"id": c.next, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := c.ws.WriteJSON(msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m struct {
			ID     int64
			Result json.RawMessage
			Error  json.RawMessage
		}
		if err := c.ws.ReadJSON(&m); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if m.ID != c.next {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(m.Result, result)
	}
}

// closedWithin waits for the connection to end (a close or EOF); it is an
// error when it is still open after d.
func (c *cdpConn) closedWithin(d time.Duration) error {
	_ = c.ws.SetReadDeadline(time.Now().Add(d))
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return fmt.Errorf("still open %v after the kill", d)
			}
			c.ws.Close()
			return nil
		}
	}
}

func (c *cdpConn) close() { _ = c.ws.Close() }

func waitFor(d time.Duration, ok func() bool) bool {
	for end := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if ok() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
