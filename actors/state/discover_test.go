package state

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/rs/zerolog"
)

// healthServer answers /cdpvisor/health like a coordinator with pid and
// instance would; it returns the port.
func healthServer(t *testing.T, pid int, instance string) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != HealthPath {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(Health{PID: pid, Instance: instance})
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

// notFoundServer is a port that answers 404 everywhere (a reused port).
func notFoundServer(t *testing.T) int {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

func writeStateFile(t *testing.T, dir, name string, s File) string {
	t.Helper()
	if s.Endpoint == "" {
		s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(s.Port)
		s.WS = "ws://127.0.0.1:" + strconv.Itoa(s.Port) + "/devtools/browser"
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func discoverIn(t *testing.T, o DiscoverOptions) (Target, error) {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 200 * time.Millisecond
	}
	o.Log = zerolog.Nop()
	return Discover(context.Background(), o)
}

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func TestDiscoverSkipsStaleAndUnhealthy(t *testing.T) {
	dir := t.TempDir()
	self := os.Getpid()
	good := healthServer(t, self, "")
	// A dead pid whose port even answers for it: still stale.
	writeStateFile(t, dir, "coordinator-1.json", File{Port: healthServer(t, 999999, ""), PID: actortest.DeadPID(t), StartedAt: epoch.Add(5 * time.Hour)})
	// Live pid, but the port is someone else's coordinator, a 404, or closed.
	writeStateFile(t, dir, "coordinator-2.json", File{Port: healthServer(t, self+1, ""), PID: self, StartedAt: epoch.Add(4 * time.Hour)})
	writeStateFile(t, dir, "coordinator-3.json", File{Port: notFoundServer(t), PID: self, StartedAt: epoch.Add(3 * time.Hour)})
	writeStateFile(t, dir, "coordinator-4.json", File{Port: actortest.ClosedPort(t), PID: self, StartedAt: epoch.Add(2 * time.Hour)})
	if err := os.WriteFile(filepath.Join(dir, "coordinator-5.json"), []byte(`{"port": 12`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Not a coordinator file at all (the pointer): never considered.
	writeStateFile(t, dir, PointerFile, File{Port: healthServer(t, self, ""), PID: self, StartedAt: epoch.Add(9 * time.Hour)})
	want := writeStateFile(t, dir, "coordinator-6.json", File{Port: good, PID: self, StartedAt: epoch})

	got, err := discoverIn(t, DiscoverOptions{StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != want || got.Port != good || got.Endpoint != "http://127.0.0.1:"+strconv.Itoa(good) {
		t.Fatalf("picked %+v, want %s on port %d", got, want, good)
	}

	os.Remove(want)
	start := time.Now()
	_, err = discoverIn(t, DiscoverOptions{StateDir: dir, Timeout: 300 * time.Millisecond})
	if err == nil {
		t.Fatal("found a coordinator among stale and unhealthy files")
	}
	if took := time.Since(start); took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("gave up after %s, want about 300ms", took)
	}
	msg := err.Error()
	for _, w := range []string{dir, "cdpvisor mcp", "cdpvisor serve", "--standalone", "1 stale", "coordinator-1.json",
		"coordinator-2.json", "coordinator-3.json", "coordinator-4.json", "coordinator-5.json: invalid"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q:\n%s", w, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "coordinator-1.json")); err != nil {
		t.Errorf("the stale state file was touched: %v", err)
	}
}

func TestDiscoverPrefersSiblingThenMostRecent(t *testing.T) {
	dir := t.TempDir()
	self := os.Getpid()
	old := writeStateFile(t, dir, "coordinator-10.json", File{Port: healthServer(t, self, ""), PID: self, PPID: 4242, StartedAt: epoch})
	recent := writeStateFile(t, dir, "coordinator-11.json", File{Port: healthServer(t, self, ""), PID: self, PPID: 4343, StartedAt: epoch.Add(time.Hour)})
	writeStateFile(t, dir, "coordinator-12.json", File{Port: healthServer(t, self, ""), PID: self, PPID: 4444, StartedAt: epoch.Add(time.Minute)})

	for _, c := range []struct {
		ppid int
		want string
	}{{4242, old}, {4343, recent}, {1, recent}, {0, recent}, {5555, recent}} {
		got, err := discoverIn(t, DiscoverOptions{StateDir: dir, PPID: c.ppid})
		if err != nil {
			t.Fatal(err)
		}
		if got.Path != c.want {
			t.Errorf("ppid %d: picked %s, want %s", c.ppid, got.Path, c.want)
		}
	}
}

func TestDiscoverByInstance(t *testing.T) {
	dir := t.TempDir()
	self := os.Getpid()
	const id = "inst_1_abcdef"
	instPort := healthServer(t, self, id)
	defPort := healthServer(t, self, "inst_0_default")
	with := writeStateFile(t, dir, "coordinator-20.json", File{Port: defPort, PID: self, StartedAt: epoch, Instances: []Instance{
		{ID: "inst_0_default", Port: defPort},
		{ID: id, Port: instPort, Endpoint: "http://127.0.0.1:" + strconv.Itoa(instPort), WS: "ws://127.0.0.1:" + strconv.Itoa(instPort) + "/devtools/browser/x"},
	}})
	// More recent, but without the instance; and one that lists it on a
	// port serving another instance.
	writeStateFile(t, dir, "coordinator-21.json", File{Port: healthServer(t, self, ""), PID: self, StartedAt: epoch.Add(time.Hour)})
	writeStateFile(t, dir, "coordinator-22.json", File{Port: defPort, PID: self, StartedAt: epoch.Add(2 * time.Hour), Instances: []Instance{
		{ID: id, Port: defPort},
	}})

	got, err := discoverIn(t, DiscoverOptions{StateDir: dir, Instance: id})
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != with || got.Instance != id || got.Port != instPort || !strings.HasSuffix(got.WS, "/devtools/browser/x") {
		t.Fatalf("picked %+v, want instance %s of %s on port %d", got, id, with, instPort)
	}
	// Coordinators run and none has it: said at once, naming what they have.
	start := time.Now()
	_, err = discoverIn(t, DiscoverOptions{StateDir: dir, Instance: "inst_9_nothere", Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), `unknown instance "inst_9_nothere"`) || !strings.Contains(err.Error(), "inst_0_default") ||
		time.Since(start) > 2*time.Second {
		t.Fatalf("unknown instance: %v after %s; want it said at once with the known ids", err, time.Since(start))
	}
}

func TestDiscoverExplicitStateFile(t *testing.T) {
	dir := t.TempDir()
	self := os.Getpid()
	older := writeStateFile(t, dir, "coordinator-30.json", File{Port: healthServer(t, self, ""), PID: self, StartedAt: epoch})
	writeStateFile(t, dir, "coordinator-31.json", File{Port: healthServer(t, self, ""), PID: self, StartedAt: epoch.Add(time.Hour)})
	got, err := discoverIn(t, DiscoverOptions{StateDir: dir, StateFile: older})
	if err != nil || got.Path != older {
		t.Fatalf("explicit state file: got %+v, %v; want %s", got, err, older)
	}
	// Only that file: a stale explicit file fails even with live ones next to it.
	stale := writeStateFile(t, dir, "other.json", File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), StartedAt: epoch})
	if _, err := discoverIn(t, DiscoverOptions{StateDir: dir, StateFile: stale}); err == nil || !strings.Contains(err.Error(), stale) {
		t.Fatalf("stale explicit file: %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := discoverIn(t, DiscoverOptions{StateDir: dir, StateFile: missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing explicit file: %v", err)
	}
}

// A coordinator that shows up while wrap polls is found.
func TestDiscoverWaitsForACoordinator(t *testing.T) {
	dir := t.TempDir()
	port := healthServer(t, os.Getpid(), "")
	go func() {
		time.Sleep(300 * time.Millisecond)
		data, _ := json.Marshal(File{Port: port, PID: os.Getpid(), StartedAt: epoch})
		_ = WriteFileAtomic(filepath.Join(dir, "coordinator-40.json"), data)
	}()
	start := time.Now()
	got, err := discoverIn(t, DiscoverOptions{StateDir: dir, Timeout: 5 * time.Second})
	if err != nil || got.Port != port {
		t.Fatalf("got %+v, %v", got, err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("found it after %s; the backoff should have caught it well within 2s", took)
	}
}
