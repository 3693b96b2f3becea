//go:build !windows

package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// A world whose journal nothing was written to for a while has its file
// closed, and its next entry goes on with the next number: a coordinator
// that saw worlds come and go holds no descriptor for each.
func TestJournalClosesTheFilesOfIdleWorlds(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("needs /proc")
	}
	dir := filepath.Join(t.TempDir(), "journal")
	a := serve(t, Spec{Dir: dir, IdleClose: 200 * time.Millisecond})
	for i := range 20 {
		a.Record(Entry{World: fmt.Sprintf("fresh-%d", i), Kind: KindTakeover})
	}
	readN(t, a, "fresh-19", Since{}, 1)
	open := func() (n int) {
		fds, _ := os.ReadDir("/proc/self/fd")
		for _, fd := range fds {
			if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir) {
				n++
			}
		}
		return n
	}
	if n := open(); n == 0 {
		t.Fatal("no journal file open right after its entries: the check below would be blind")
	}
	deadline := time.Now().Add(5 * time.Second)
	for open() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := open(); n > 0 {
		t.Fatalf("%d journal files still open after the worlds were idle", n)
	}
	a.Record(Entry{World: "fresh-3", Kind: KindTakeover})
	if got := readN(t, a, "fresh-3", Since{}, 2); len(got) != 2 || got[1].Seq != 2 {
		t.Fatalf("fresh-3 after its file was closed: %+v, want entries 1 and 2", got)
	}
}
