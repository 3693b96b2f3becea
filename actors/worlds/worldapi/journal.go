package worldapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// journalClient reads a world's journal: no timeout of its own, since a
// follower's read waits for the next entry (its context bounds it).
var journalClient = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// maxJournalAnswer bounds what a read takes in: a journal's cap and more.
const maxJournalAnswer = 16 << 20

// ReadJournal asks the coordinator at endpoint for the journal of the
// world called name: its entries after since ("" all; an entry's seq or an
// RFC 3339 time), as JSON lines. With wait, a read that finds none waits
// that long for the next entry.
func ReadJournal(ctx context.Context, endpoint, name, since string, wait time.Duration) ([]byte, error) {
	q := url.Values{}
	if since != "" {
		q.Set("since", since)
	}
	if wait > 0 {
		q.Set("wait", wait.String())
	}
	u := endpoint + "/context/" + name + JournalPath
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := journalClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, maxJournalAnswer))
	if err != nil {
		return nil, fmt.Errorf("GET %s: reading the answer: %w", u, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		return got, nil
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, ErrTokenNeeded
	case !strings.HasPrefix(string(got), "cdpvisor: "):
		return nil, ErrNoRequests // the path went on to the browser: an older coordinator
	}
	why := strings.TrimSpace(strings.TrimPrefix(string(got), "cdpvisor: "))
	return nil, fmt.Errorf("%w (%s): %s", ErrRefused, resp.Status, why)
}
