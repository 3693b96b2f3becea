package downloads

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// harness is an actor served until the test ends, on a fake browser with a
// fake CDP peer.
type harness struct {
	t    *testing.T
	a    *Actor
	b    *fakeBrowser
	peer *peer
	dir  string
	stop func() // stops the actor and waits for it (again: nothing)
}

func newHarness(t *testing.T) *harness { return newHarnessWith(t, nil) }

// newHarnessWith is the harness on an actor whose spec configure changed.
func newHarnessWith(t *testing.T, configure func(*Spec)) *harness {
	t.Helper()
	h := &harness{t: t, b: &fakeBrowser{}, peer: newPeer(t), dir: filepath.Join(t.TempDir(), "inst_1")}
	spec := Spec{Instance: "inst_1", Dir: h.dir, Tidy: true, Browser: h.b,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)}
	if configure != nil {
		configure(&spec)
	}
	h.a = New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.a.Serve(ctx) }()
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Error("the actor did not stop within 10 s")
			}
		})
	}
	t.Cleanup(h.stop)
	return h
}

// ready launches browser generation gen and reads the actor's set-up:
// its download behaviour for the default context, then target discovery.
func (h *harness) ready(gen int) {
	h.t.Helper()
	h.b.emit(h.t, browser.Ready{Endpoint: browser.Endpoint{Instance: "inst_1", Generation: gen, WSURL: h.peer.wsURL()}})
	c := h.peer.expect("Browser.setDownloadBehavior")
	if c.Params["behavior"] != "allowAndName" || c.Params["downloadPath"] != h.dir || c.Params["eventsEnabled"] != true ||
		c.Params["browserContextId"] != nil {
		h.t.Fatalf("setDownloadBehavior %v", c.Params)
	}
	h.peer.expect("Target.setDiscoverTargets")
}

// page announces a page target in a context; the actor asks which
// contexts clients made.
func (h *harness) page(target, context string) {
	h.t.Helper()
	h.peer.event("Target.targetCreated", map[string]any{"targetInfo": map[string]any{"targetId": target, "type": "page", "browserContextId": context}})
	h.peer.expect("Target.getBrowserContexts")
}

func (h *harness) begin(frame, guid, name string) {
	h.peer.event("Browser.downloadWillBegin", map[string]any{"frameId": frame, "guid": guid, "url": "http://127.0.0.1/" + name, "suggestedFilename": name})
}

func (h *harness) progress(guid string, received, total int64, state string, filePath string) {
	p := map[string]any{"guid": guid, "receivedBytes": received, "totalBytes": total, "state": state}
	if filePath != "" {
		p["filePath"] = filePath
	}
	h.peer.event("Browser.downloadProgress", p)
}

// complete has the fake browser finish a download as Chromium does with
// allowAndName: the file is there under its guid, then the event says so.
func (h *harness) complete(guid string, content string) { h.completeIn(h.dir, guid, content) }

// completeIn is complete for a download Chromium saves in dir.
func (h *harness) completeIn(dir, guid string, content string) {
	h.t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, guid), []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
	h.progress(guid, int64(len(content)), int64(len(content)), "completed", filepath.Join(dir, guid))
}

// entry waits until the actor lists guid in state, and returns it.
func (h *harness) entry(guid, state string) Entry {
	h.t.Helper()
	return h.entryWhere(guid, func(e Entry) bool { return e.State == state })
}

// entryWhere waits until the actor lists guid as ok says, and returns it.
func (h *harness) entryWhere(guid string, ok func(Entry) bool) Entry {
	h.t.Helper()
	var last []Entry
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		list, err := h.a.List(context.Background())
		if err != nil {
			h.t.Fatal(err)
		}
		last = list
		for _, e := range list {
			if e.ID == guid && ok(e) {
				return e
			}
		}
	}
	h.t.Fatalf("download %s not as expected within 10 s; list: %+v", guid, last)
	return Entry{}
}

func (h *harness) wait(id string, timeout time.Duration) (Entry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return h.a.Wait(ctx, id)
}

// A download is saved under its guid, tracked from the events, and moved
// to its suggested name once complete.
func TestDownloadIsTrackedAndNamed(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	if _, err := os.Stat(h.dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the instance's folder was made before any download (Chromium makes it): %v", err)
	}
	h.page("T1", "D")
	h.begin("T1", "g1", "report.pdf")
	h.progress("g1", 10, 100, "inProgress", "")
	e := h.entryWhere("g1", func(e Entry) bool { return e.ReceivedBytes > 0 })
	if e.Path != filepath.Join(h.dir, "report.pdf") || e.Filename != "report.pdf" || e.URL != "http://127.0.0.1/report.pdf" ||
		e.ReceivedBytes != 10 || e.TotalBytes != 100 {
		t.Fatalf("in progress: %+v", e)
	}
	waited := make(chan Entry, 1)
	go func() {
		e, err := h.wait("g1", 10*time.Second)
		if err != nil {
			t.Error(err)
		}
		waited <- e
	}()
	h.complete("g1", "the report")
	e = <-waited
	if e.State != Completed || e.Path != filepath.Join(h.dir, "report.pdf") || e.ReceivedBytes != 10 {
		t.Fatalf("completed: %+v", e)
	}
	if b, err := os.ReadFile(e.Path); err != nil || string(b) != "the report" {
		t.Fatalf("the file: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "g1")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the guid file is still there: %v", err)
	}
	// Waiting for a finished download answers at once.
	if again, err := h.wait("g1", time.Second); err != nil || again != e {
		t.Fatalf("wait again: %+v %v", again, err)
	}
}

// Files of the same name never replace each other: the later ones are
// numbered, those in progress included.
func TestSameNameIsNumbered(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	h.page("T1", "D")
	if err := os.MkdirAll(h.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.begin("T1", "g1", "a.txt")
	h.begin("T1", "g2", "a.txt")
	if e := h.entry("g2", InProgress); e.Path != filepath.Join(h.dir, "a (2).txt") {
		t.Fatalf("second in progress: %+v", e)
	}
	h.complete("g2", "two")
	h.complete("g1", "one")
	one, two := h.entry("g1", Completed), h.entry("g2", Completed)
	for _, c := range []struct {
		e          Entry
		name, text string
	}{{one, "a (1).txt", "one"}, {two, "a (2).txt", "two"}, {Entry{Path: filepath.Join(h.dir, "a.txt")}, "a.txt", "mine"}} {
		if b, err := os.ReadFile(filepath.Join(h.dir, c.name)); err != nil || string(b) != c.text || c.e.Path != filepath.Join(h.dir, c.name) {
			t.Errorf("%s: %q %v (entry %+v)", c.name, b, err, c.e)
		}
	}
}

// Without an id, download_wait takes the oldest download in progress,
// else the next one to begin; a timeout says how the download is then.
func TestWaitWithoutID(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	h.page("T1", "D")
	_, err := h.wait("", 100*time.Millisecond)
	var nf *NotFinishedError
	if !errors.As(err, &nf) || nf.Current != nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait with no download: %v", err)
	}
	waited := make(chan Entry, 1)
	go func() {
		e, err := h.wait("", 10*time.Second)
		if err != nil {
			t.Error(err)
		}
		waited <- e
	}()
	time.Sleep(50 * time.Millisecond) // let the wait begin first (it also works if not)
	h.begin("T1", "g1", "first.bin")
	h.begin("T1", "g2", "second.bin")
	h.progress("g2", 1, 2, "inProgress", "")
	h.entry("g2", InProgress)
	// The oldest in progress is g1: a wait times out showing g1 as it is.
	_, err = h.wait("", 100*time.Millisecond)
	if !errors.As(err, &nf) || nf.Current == nil || nf.Current.ID != "g1" || nf.Current.State != InProgress {
		t.Fatalf("wait for the oldest: %v", err)
	}
	h.complete("g2", "2")
	h.entry("g2", Completed)
	select {
	case e := <-waited:
		t.Fatalf("the wait for the next download ended with %+v before it finished", e)
	default:
	}
	h.progress("g1", 0, 0, "canceled", "")
	if e := <-waited; e.ID != "g1" || e.State != Canceled || e.Path != "" {
		t.Fatalf("the next download: %+v", e)
	}
}

// A cancelled wait ends at once and leaves no waiter behind.
func TestWaitEndsWithItsContext(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { _, err := h.a.Wait(ctx, ""); ended <- err }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("wait: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not end with its context")
	}
}

// Waits end when the actor stops (its instance closed).
func TestWaitEndsWhenTheActorStops(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	ended := make(chan error, 1)
	go func() { _, err := h.wait("", time.Minute); ended <- err }()
	time.Sleep(500 * time.Millisecond) // for the wait to reach the actor: a wait sent to a stopped actor waits for its context
	h.stop()
	select {
	case err := <-ended:
		if !errors.Is(err, ErrStopped) {
			t.Fatalf("wait: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait outlived the actor")
	}
}

// An unknown id names itself and the downloads there are.
func TestWaitForAnUnknownID(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	_, err := h.wait("nope", time.Second)
	if err == nil || err.Error() != `no download "nope" in instance inst_1: it has no downloads yet` {
		t.Fatalf("no downloads: %v", err)
	}
	h.page("T1", "D")
	h.begin("T1", "g1", "a.txt")
	h.entry("g1", InProgress)
	_, err = h.wait("nope", time.Second)
	var unknown *UnknownDownloadError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "g1 (a.txt, in_progress)") {
		t.Fatalf("one download: %v", err)
	}
}

// Downloads outlive their browser: what it left unfinished is canceled
// (its partial file removed), and the list goes on with the next browser.
func TestBrowserExitCancelsWhatItLeftAndTheListStays(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	h.page("T1", "D")
	h.begin("T1", "g1", "done.txt")
	h.complete("g1", "done")
	h.begin("T1", "g2", "partial.txt")
	h.entry("g2", InProgress)
	if err := os.MkdirAll(h.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(h.dir, "g2.crdownload")
	if err := os.WriteFile(partial, []byte("par"), 0o600); err != nil {
		t.Fatal(err)
	}
	waited := make(chan Entry, 1)
	go func() { e, _ := h.wait("g2", 10*time.Second); waited <- e }()
	h.b.emit(t, browser.Exited{Instance: "inst_1", Generation: 1})
	if e := <-waited; e.State != Canceled || e.Path != "" {
		t.Fatalf("unfinished at exit: %+v", e)
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("partial file: %v", err)
	}
	h.ready(2)
	h.page("T9", "D")
	h.begin("T9", "g3", "new.txt")
	h.entry("g3", InProgress)
	list, _ := h.a.List(context.Background())
	if len(list) != 3 || list[0].ID != "g1" || list[0].State != Completed || list[1].State != Canceled {
		t.Fatalf("list after a restart: %+v", list)
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "done.txt")); err != nil || string(b) != "done" {
		t.Fatalf("the finished file: %q %v", b, err)
	}
}

// Contexts clients make get cdpvisor's behaviour, unless the client set
// its own: then the client's choice wins and its downloads are not
// tracked, until its connection closes (Chromium undoes its setting).
func TestContextsAndClientsOwnBehaviour(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	h.page("T1", "D") // the default context: nothing more to set
	// A client makes context C and sets its own behaviour there first.
	client := &clientConn{}
	watched := h.a.Watch(client)
	cmd := []byte(`{"id":7,"method":"Browser.setDownloadBehavior","params":{"behavior":"allow","browserContextId":"C","downloadPath":"/elsewhere"}}`)
	if err := watched.Write(cmd, false); err != nil || len(client.wrote) != 1 || string(client.wrote[0]) != string(cmd) {
		t.Fatalf("the command was not passed on: %v %q", err, client.wrote)
	}
	h.peer.setContexts("C", "E")
	h.page("T2", "C")
	// Another client's context E gets cdpvisor's; C is the client's.
	h.page("T3", "E")
	c := h.peer.next("Target.getBrowserContexts")
	if c.Method != "Browser.setDownloadBehavior" || c.Params["browserContextId"] != "E" || c.Params["downloadPath"] != h.dir {
		t.Fatalf("for E: %s %v", c.Method, c.Params)
	}
	// A download in C is the client's business; in E and the default context, ours.
	h.begin("T2", "gC", "c.txt")
	h.begin("T3", "gE", "e.txt")
	h.begin("T1", "gD", "d.txt")
	h.entry("gD", InProgress)
	list, _ := h.a.List(context.Background())
	if len(list) != 2 || list[0].ID != "gE" || list[1].ID != "gD" {
		t.Fatalf("list: %+v", list)
	}
	// The client goes: cdpvisor's behaviour applies to C again.
	watched.Close(1000, "")
	if c := h.peer.next(); c.Method != "Browser.setDownloadBehavior" || c.Params["browserContextId"] != "C" {
		t.Fatalf("after the client closed: %s %v", c.Method, c.Params)
	}
	// The same for the default context.
	other := h.a.Watch(&clientConn{})
	_ = other.Write([]byte(`{"id":1,"method":"Browser.setDownloadBehavior","params":{"behavior":"deny"}}`), false)
	h.begin("T1", "gX", "x.txt")
	h.begin("T3", "gE2", "e2.txt")
	h.entry("gE2", InProgress)
	if list, _ := h.a.List(context.Background()); len(list) != 3 {
		t.Fatalf("a download in the default context the client owns was tracked: %+v", list)
	}
	other.Close(1000, "")
	if c := h.peer.next(); c.Method != "Browser.setDownloadBehavior" || c.Params["browserContextId"] != nil {
		t.Fatalf("after the default context's client closed: %s %v", c.Method, c.Params)
	}
	// A client that set nothing changes nothing when it goes.
	quiet := h.a.Watch(&clientConn{})
	_ = quiet.Write([]byte(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"'setDownloadBehavior'"}}`), false)
	quiet.Close(1000, "")
}

// When its own connection to a running browser ends, the actor connects
// again and sets its behaviour again (Chromium undid it).
func TestReconnectsToARunningBrowser(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	h.peer.dropConnection()
	c := h.peer.expect("Browser.setDownloadBehavior")
	if c.Params["downloadPath"] != h.dir {
		t.Fatalf("after reconnecting: %v", c.Params)
	}
	h.peer.expect("Target.setDiscoverTargets")
}

// The instance's folder goes when the actor stops, if empty (all its
// downloads canceled).
func TestEmptyFolderIsRemoved(t *testing.T) {
	h := newHarness(t)
	h.ready(1)
	if err := os.MkdirAll(h.dir, 0o700); err != nil { // as Chromium at a download
		t.Fatal(err)
	}
	h.stop()
	if _, err := os.Stat(h.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the empty folder stays: %v", err)
	}
}
