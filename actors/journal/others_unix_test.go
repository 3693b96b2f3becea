//go:build !windows

package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A journal file another user owns is neither read nor written.
func TestJournalRefusesAnotherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
	dir := filepath.Join(t.TempDir(), "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(dir, "shop.jsonl")
	if err := os.WriteFile(theirs, []byte(`{"seq":1,"world":"shop","kind":"command","method":"planted"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	a := serve(t, Spec{Dir: dir})
	a.Record(Entry{World: "shop", Kind: KindTakeover})
	a.Record(Entry{World: "mine", Kind: KindTakeover})
	readN(t, a, "mine", Since{}, 1) // the actor has handled both
	if _, err := a.Read(context.Background(), "shop", Since{}, false); !errors.Is(err, ErrNotMine) {
		t.Errorf("read another user's journal: %v", err)
	}
	if b, _ := os.ReadFile(theirs); len(b) != len(`{"seq":1,"world":"shop","kind":"command","method":"planted"}`)+1 {
		t.Errorf("another user's journal was written: %s", b)
	}
}
