package worldapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// TracePath is below a world's request path (Path/NAME/trace): GET writes
// the world's recording, as a Playwright trace (a zip) or, with
// ?format=webm, a video; ?since= an RFC 3339 time keeps what came after.
const TracePath = "/trace"

// Formats of a world's recording.
const (
	FormatTrace = "trace" // a Playwright trace: npx playwright show-trace FILE
	FormatWebM  = "webm"  // a video of the pages' frames (needs ffmpeg)
)

// TraceQuery is what a trace is asked with.
type TraceQuery struct {
	Since  time.Time // zero: all that is kept
	Format string    // "" or FormatTrace, or FormatWebM
}

// ErrNotRecorded: the world has no recording (it was never recorded, or
// what was recorded was deleted with it).
var ErrNotRecorded = errors.New("the world has no recording")

// traceClient has no timeout of its own: a long recording takes a while
// (the caller's context bounds it).
var traceClient = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// TraceURL is where the coordinator at endpoint writes the recording of
// the world called name.
func TraceURL(endpoint, name string, q TraceQuery) string {
	v := url.Values{}
	if !q.Since.IsZero() {
		v.Set("since", q.Since.UTC().Format(time.RFC3339Nano))
	}
	if q.Format != "" && q.Format != FormatTrace {
		v.Set("format", q.Format)
	}
	u := endpoint + Path + "/" + name + TracePath
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	return u
}

// Trace asks the coordinator at endpoint for the recording of the world
// called name and copies it to out; it answers the bytes written.
func Trace(ctx context.Context, endpoint, name string, q TraceQuery, out io.Writer) (int64, error) {
	u := TraceURL(endpoint, name, q)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := traceClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		n, err := io.Copy(out, resp.Body)
		if err != nil {
			return n, fmt.Errorf("GET %s: reading the recording: %w", u, err)
		}
		return n, nil
	}
	got, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	why := strings.TrimSpace(strings.TrimPrefix(string(got), "cdpvisor: "))
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return 0, ErrTokenNeeded
	case !strings.HasPrefix(string(got), "cdpvisor: "):
		return 0, ErrNoRequests // the path went on to the browser: an older coordinator
	case resp.StatusCode == http.StatusNotFound && strings.Contains(why, ErrNotRecorded.Error()):
		return 0, fmt.Errorf("%w (%s): %w", ErrRefused, resp.Status, refusal{why, ErrNotRecorded})
	}
	return 0, fmt.Errorf("%w (%s): %s", ErrRefused, resp.Status, why)
}
