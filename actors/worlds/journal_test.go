package worlds_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// The worlds tell the journal when a world closes and delete its journal
// when it is forgotten: a fresh agent-… world's journal goes once a newer
// closed one passes the journal's count (1 here), a named world's stays
// when it closes and goes when it is forgotten.
func TestWorldsTellTheJournal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	j := journal.New(journal.Spec{Dir: dir, Passing: worlds.IsFresh, PassingClosed: 1, Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = j.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done }) // after the instance's stop: registered first
	f := newFixtureJournaled(t, j)

	names := []string{"agent-aaaaaaaa", "agent-bbbbbbbb", "shop", "bank"}
	for _, name := range names {
		f.newPage(f.world(name)) // a command: the world's journal begins
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name+".jsonl"))
		return err == nil
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 5 s for %s", what)
			}
		}
	}
	waitFor("every world's journal", func() bool {
		return exists(names[0]) && exists(names[1]) && exists(names[2]) && exists(names[3])
	})
	for _, name := range names[:3] {
		if err := f.inst.Worlds.Close(f.context(), name); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("the older fresh world's journal to go", func() bool { return !exists("agent-aaaaaaaa") })
	if !exists("agent-bbbbbbbb") || !exists("shop") {
		t.Errorf("deleted with its world closed: the newest fresh world's journal (%v) or a named world's (%v)", exists("agent-bbbbbbbb"), exists("shop"))
	}
	if err := f.inst.Worlds.Forget(f.context(), "bank"); err != nil {
		t.Fatal(err)
	}
	if exists("bank") {
		t.Error("a forgotten world's journal is left")
	}
	// A closed world that left only its journal is forgotten, not unknown.
	if err := f.inst.Worlds.Forget(f.context(), "shop"); err != nil {
		t.Errorf("forget of a closed world with a journal: %v", err)
	}
	if exists("shop") {
		t.Error("the closed world's journal is left after its forget")
	}
	if err := f.inst.Worlds.Forget(f.context(), "shop"); !errors.Is(err, worlds.ErrUnknownWorld) {
		t.Errorf("forget of a world with nothing left: %v, want ErrUnknownWorld", err)
	}
}
