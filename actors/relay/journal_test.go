package relay_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// A world relay with a journal forwards exactly what one without does,
// both ways, and its journal holds each command with its answer and no
// parameter but Page.navigate's URL.
func TestJournalLeavesForwardingAlone(t *testing.T) {
	requests := []string{
		`{"id":1,"method":"Page.navigate","params":{"url":"http://a.test/","referrer":"SECRET-REFERRER"},"sessionId":"S1"}`,
		`{"id":2,"method":"Runtime.evaluate","params":{"expression":"SECRET-EXPRESSION"},"sessionId":"S1"}`,
		`{"id":3,"method":"Input.dispatchMouseEvent","params":{"type":"mousePressed","x":1,"y":2},"sessionId":"S1"}`,
	}
	a := journal.New(journal.Spec{Dir: filepath.Join(t.TempDir(), "journal"), Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	defer func() { cancel(); <-served }()

	sentPlain, gotPlain := relay.Exchange(t, walled(), requests)
	sentJournal, gotJournal := relay.Exchange(t, walled(a.Tap("bench", journal.Client{ID: 1})), requests)
	if strings.Join(sentPlain, "\n") != strings.Join(sentJournal, "\n") || strings.Join(gotPlain, "\n") != strings.Join(gotJournal, "\n") {
		t.Fatalf("with the journal the relay forwarded\n%q\n%q\nwithout\n%q\n%q", sentJournal, gotJournal, sentPlain, gotPlain)
	}
	var entries []journal.Entry
	for end := time.Now().Add(5 * time.Second); len(entries) < 3 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		entries, _ = a.Read(context.Background(), "bench", journal.Since{}, false)
	}
	want := []string{"Page.navigate http://a.test/ error Cannot navigate to invalid URL", "Runtime.evaluate  ok ", "Input.dispatchMouseEvent  ok "}
	if len(entries) != len(want) {
		t.Fatalf("journal %+v", entries)
	}
	for i, e := range entries {
		if got := fmt.Sprintf("%s %s %s %s", e.Method, e.URL, e.Answer, e.Error); got != want[i] || e.Target != "session S1" || e.Client.ID != 1 {
			t.Errorf("entry %d: %q (target %q), want %q", i, got, e.Target, want[i])
		}
	}
}
