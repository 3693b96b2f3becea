package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func passing(world string) bool { return strings.HasPrefix(world, "agent-") }

// journalFiles lists the files in dir, sorted.
func journalFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Forget deletes both of a world's files, what was recorded for it just
// before included, and nothing of another world; the world's next entry
// starts a journal again from seq 1.
func TestJournalForgetDeletesTheWorldsFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	a := serve(t, Spec{Dir: dir, Cap: 4 << 10})
	for i := range 100 {
		a.Record(Entry{World: "shop", Kind: KindTakeover, Note: fmt.Sprint("held ", i)})
	}
	a.Record(Entry{World: "bank", Kind: KindTakeover})
	readN(t, a, "shop", Since{Seq: 99}, 1)
	if got := journalFiles(t, dir); !slices.Equal(got, []string{"bank.jsonl", "shop.jsonl", "shop.jsonl.1"}) {
		t.Fatalf("before: %v", got)
	}
	a.Record(Entry{World: "shop", Kind: KindTakeover, Note: "recorded just before the forget"})
	if forgot, err := a.Forget(context.Background(), "shop"); err != nil || !forgot {
		t.Fatalf("forget: %v, %v; want it forgotten", forgot, err)
	}
	if got := journalFiles(t, dir); !slices.Equal(got, []string{"bank.jsonl"}) {
		t.Errorf("after the forget: %v, want bank's alone", got)
	}
	if got, err := a.Read(context.Background(), "shop", Since{}, false); err != nil || len(got) != 0 {
		t.Errorf("a forgotten journal reads %d entries, %v", len(got), err)
	}
	a.Record(Entry{World: "shop", Kind: KindTakeover})
	if got := readN(t, a, "shop", Since{}, 1); len(got) != 1 || got[0].Seq != 1 {
		t.Errorf("the next journal of the name: %+v, want seq 1", got)
	}
	if forgot, err := a.Forget(context.Background(), "none"); err != nil || forgot {
		t.Errorf("forget of a world with no journal: %v, %v; want nothing forgotten", forgot, err)
	}
	if _, err := a.Forget(context.Background(), "../x"); err == nil {
		t.Error("forgot a name that is not a world's")
	}
}

// A passing world's journal stays while the coordinator runs, the newest
// DefaultPassingClosed of the closed ones; none is left once it stops, and
// the named worlds' journals stay.
func TestPassingJournalsGoWithTheCoordinator(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	a := New(Spec{Dir: dir, Passing: passing, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.Serve(ctx) }()
	defer func() { cancel(); <-done }()

	name := func(i int) string { return fmt.Sprintf("agent-%08d", i) }
	const n = DefaultPassingClosed + 3
	for i := range n {
		a.Record(Entry{World: name(i), Kind: KindTakeover})
	}
	a.Record(Entry{World: "shop", Kind: KindTakeover})
	a.Record(Entry{World: "agent-open", Kind: KindTakeover}) // never closed
	readN(t, a, "agent-open", Since{}, 1)
	for i := range n {
		a.Closed(name(i))
	}
	a.Closed("shop") // not passing: stays
	deadline := time.Now().Add(5 * time.Second)
	for len(journalFiles(t, dir)) != DefaultPassingClosed+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := journalFiles(t, dir)
	for i := range n {
		kept := slices.Contains(got, name(i)+".jsonl")
		if want := i >= n-DefaultPassingClosed; kept != want {
			t.Errorf("%s kept: %v, want %v (files: %v)", name(i), kept, want, got)
		}
	}
	for _, f := range []string{"shop.jsonl", "agent-open.jsonl"} {
		if !slices.Contains(got, f) {
			t.Errorf("%s was deleted while its world was open or named: %v", f, got)
		}
	}

	cancel()
	<-done
	if got := journalFiles(t, dir); !slices.Equal(got, []string{"shop.jsonl"}) {
		t.Errorf("left after the stop: %v, want the named world's alone", got)
	}
}

// A passing world's journal that a killed coordinator left is deleted by
// the next once no one wrote it for StalePassing; a recent one, or a named
// world's however old, stays.
func TestStalePassingJournalsAreDeleted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-StalePassing - time.Hour)
	for f, at := range map[string]time.Time{
		"agent-old.jsonl": old, "agent-old.jsonl.1": old,
		"agent-new.jsonl": time.Now(), "agent-new.jsonl.1": old, // its newest file decides
		"shop.jsonl": old,
	} {
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, []byte(`{"seq":1,"kind":"takeover"}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	a := serve(t, Spec{Dir: dir, Passing: passing})
	readN(t, a, "shop", Since{}, 1) // served
	if got := journalFiles(t, dir); !slices.Equal(got, []string{"agent-new.jsonl", "agent-new.jsonl.1", "shop.jsonl"}) {
		t.Errorf("left: %v", got)
	}
}
