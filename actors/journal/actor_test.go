package journal

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func serve(t *testing.T, spec Spec) *Actor {
	t.Helper()
	spec.Log = zerolog.Nop()
	a := New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return a
}

// readN reads a world's entries until it has n of them.
func readN(t *testing.T, a *Actor, world string, since Since, n int) []Entry {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, err := a.Read(context.Background(), world, since, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A client's commands are written in the order answered, each with its
// method, target, answer and the client; Page.navigate with its URL and
// nothing else of any parameter; the files are private.
func TestJournalKeepsCommandsInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	a := serve(t, Spec{Dir: dir})
	tap := a.Tap("shop", Client{ID: 7, Command: "npx chrome-devtools-mcp"})
	tap.attached("S1", "T1")
	tap.request(1, []byte("Page.navigate"), []byte("S1"), []byte(`{"id":1,"method":"Page.navigate","sessionId":"S1","params":{"url":"http://a.test/","referrer":"SECRET-REFERRER"}}`))
	tap.answer(1, false, []byte(`{"id":1,"result":{}}`))
	tap.request(2, []byte("Runtime.evaluate"), []byte("S1"), []byte(`{"id":2,"method":"Runtime.evaluate","sessionId":"S1","params":{"expression":"SECRET-EXPR"}}`))
	tap.answer(2, true, []byte(`{"id":2,"error":{"code":-32000,"message":"Cannot find context"}}`))
	tap.request(3, []byte("Target.closeTarget"), nil, []byte(`{"id":3,"method":"Target.closeTarget","params":{"targetId":"T2"}}`))
	tap.Close() // 3 never answered

	got := readN(t, a, "shop", Since{}, 3)
	if len(got) != 3 {
		t.Fatalf("got %d entries, want 3: %+v", len(got), got)
	}
	want := []struct{ method, target, url, answer, err string }{
		{"Page.navigate", "T1", "http://a.test/", AnswerOK, ""},
		{"Runtime.evaluate", "T1", "", AnswerError, "Cannot find context"},
		{"Target.closeTarget", "T2", "", "", "no answer: the client's connection ended first"},
	}
	for i, w := range want {
		e := got[i]
		if e.Seq != uint64(i+1) || e.Kind != KindCommand || e.Method != w.method || e.Target != w.target || e.URL != w.url || e.Answer != w.answer || e.Error != w.err ||
			e.Client == nil || e.Client.ID != 7 || e.Client.Command != "npx chrome-devtools-mcp" || e.World != "shop" {
			t.Errorf("entry %d = %+v, want %+v", i, e, w)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "shop.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "SECRET") {
		t.Errorf("the journal holds a parameter:\n%s", b)
	}
	if runtime.GOOS != "windows" {
		for path, mode := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "shop.jsonl"): 0o600} {
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != mode {
				t.Errorf("%s: %v %v, want mode %04o", path, info, err, mode)
			}
		}
	}
	// Since a sequence number, since a time.
	if after := readN(t, a, "shop", Since{Seq: 2}, 1); len(after) != 1 || after[0].Seq != 3 {
		t.Errorf("since 2: %+v", after)
	}
	if after, _ := a.Read(context.Background(), "shop", Since{Time: time.Now().Add(time.Hour)}, false); len(after) != 0 {
		t.Errorf("since an hour ahead: %+v", after)
	}
}

// The cap holds however much is written: the oldest entries go, the newest
// stay, the sequence goes on.
func TestJournalCapHolds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	const limit = 16 << 10
	a := serve(t, Spec{Dir: dir, Cap: limit})
	tap := a.Tap("full", Client{ID: 1})
	const n = 2000
	for i := range n {
		tap.request(int64(i), []byte("Input.dispatchMouseEvent"), nil, nil)
		tap.answer(int64(i), false, nil)
		if i%200 == 0 {
			readN(t, a, "full", Since{Seq: uint64(i)}, 1) // let the actor keep up: nothing dropped
		}
	}
	got := readN(t, a, "full", Since{Seq: n - 1}, 1)
	if len(got) != 1 || got[0].Seq != n {
		t.Fatalf("the last entry: %+v, want seq %d", got, n)
	}
	var total int64
	for _, p := range []string{"full.jsonl", "full.jsonl.1"} {
		info, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total > limit {
		t.Errorf("the journal takes %d bytes, over its cap %d", total, limit)
	}
	all, _ := a.Read(context.Background(), "full", Since{}, false)
	if len(all) == 0 || all[0].Seq == 1 || all[len(all)-1].Seq != n {
		t.Fatalf("kept %d entries from %d", len(all), all[0].Seq)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq != all[i-1].Seq+1 {
			t.Fatalf("a gap after %d: %d", all[i-1].Seq, all[i].Seq)
		}
	}
	// A new actor on the same files goes on from the last seq.
	b := serve(t, Spec{Dir: dir, Cap: limit})
	b.Record(Entry{World: "full", Kind: KindTakeover, Note: "held"})
	if got := readN(t, b, "full", Since{Seq: n}, 1); len(got) != 1 || got[0].Seq != n+1 {
		t.Errorf("after a restart: %+v, want seq %d", got, n+1)
	}
}

// A waiting read is answered by the world's next entry.
func TestJournalReadWaits(t *testing.T) {
	a := serve(t, Spec{Dir: filepath.Join(t.TempDir(), "journal")})
	got := make(chan []Entry, 1)
	go func() {
		e, _ := a.Read(context.Background(), "w", Since{}, true)
		got <- e
	}()
	time.Sleep(50 * time.Millisecond)
	a.Record(Entry{World: "other", Kind: KindTakeover})
	a.Record(Entry{World: "w", Kind: KindHost, Host: "b.test:443", Denied: 1})
	select {
	case e := <-got:
		if len(e) != 1 || e[0].Host != "b.test:443" {
			t.Errorf("got %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting read was not answered")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := a.Read(ctx, "none", Since{}, true); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a wait with nothing coming: %v", err)
	}
}

func TestParseSince(t *testing.T) {
	if s, err := ParseSince("42"); err != nil || s.Seq != 42 {
		t.Errorf("42: %+v %v", s, err)
	}
	if s, err := ParseSince("2026-11-27T11:00:00Z"); err != nil || !s.Time.Equal(time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("time: %+v %v", s, err)
	}
	for _, bad := range []string{"-1", "yesterday", "2026-11-27"} {
		if _, err := ParseSince(bad); !errors.Is(err, ErrBadSince) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := New(Spec{}).Read(context.Background(), "../x", Since{}, false); !errors.Is(err, ErrBadWorld) {
		t.Errorf("../x: %v", err)
	}
}

// A journal that falls behind drops entries rather than make anyone wait,
// and says how many it dropped.
func TestJournalCountsWhatItDrops(t *testing.T) {
	a := serve(t, Spec{Dir: filepath.Join(t.TempDir(), "journal"), Buffer: 4})
	kept := 0
	for range 10 {
		if a.Record(Entry{World: "busy", Kind: KindCommand, Method: "Page.reload"}) {
			kept++
		}
	}
	got := readN(t, a, "busy", Since{}, kept+1)
	var dropped int64
	for _, e := range got {
		dropped += e.Dropped
	}
	if kept == 10 || dropped != int64(10-kept) || len(got) != kept+1 {
		t.Errorf("kept %d of 10, the journal says %d dropped: %+v", kept, dropped, got)
	}
}

// A line is what encoding/json writes of the entry.
func TestEntryLineIsJSON(t *testing.T) {
	for _, e := range []Entry{
		{Time: time.Date(2026, 11, 27, 11, 0, 0, 5, time.UTC), Seq: 3, World: "w", Kind: KindCommand, Method: "Page.navigate", URL: "http://a.test/?q=<\"x\">&é\x01"},
		{Time: time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC), Seq: 9, World: "w", Client: &Client{ID: 4, Command: "npx chrome-devtools-mcp"}, Kind: KindHost, Host: "b.test:443", Reached: 2, Denied: 7, Dropped: 1, Note: "n", Answer: "ok", Error: "e", Target: "T"},
		{World: "w", Client: &Client{ID: 1}, Kind: KindDropped, Dropped: 12},
	} {
		want, err := json.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendEntry(nil, &e); string(got) != string(want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	}
}
