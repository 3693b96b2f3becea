package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/journal"
)

// maxJournalWait bounds a read's ?wait=: a follower asks again.
const maxJournalWait = 5 * time.Minute

// serveJournal answers GET /context/NAME/journal: the world's journal as
// JSON lines, oldest first; ?since= an entry's seq or an RFC 3339 time
// (the entries after it), ?wait= a duration to wait for the next entry
// when there is none yet (a follower's long poll). Owner-only as every
// request of the endpoint; the world need not be open.
func (c *Control) serveJournal(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: GET reads the world's journal", r.Method, r.URL.Path), http.StatusMethodNotAllowed)
		return
	}
	if c.spec.Journal == nil {
		http.Error(w, "cdpvisor: the journal is off (serve --journal=false)", http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	since, err := journal.ParseSince(q.Get("since"))
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
		return
	}
	var wait time.Duration
	if s := q.Get("wait"); s != "" {
		if wait, err = time.ParseDuration(s); err != nil || wait < 0 {
			http.Error(w, fmt.Sprintf("cdpvisor: wait=%q is not a duration (e.g. 30s)", s), http.StatusBadRequest)
			return
		}
		wait = min(wait, maxJournalWait)
	}
	ctx := r.Context()
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	entries, err := c.spec.Journal.Read(ctx, name, since, wait > 0)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		entries, err = nil, nil // nothing new within the wait
	}
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	for i := range entries {
		if enc.Encode(&entries[i]) != nil {
			return
		}
	}
}
