package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"time"
)

// maxIndexSize bounds the JSON index and LAST_CHANGE reads: the real ones
// are far smaller, a runaway answer must not fill memory.
const maxIndexSize = 32 << 20

// fetcher does the HTTP GETs of one install.
type fetcher struct {
	client    *http.Client
	userAgent string
	// stall ends a download that received nothing for this long: a dead
	// connection must not hang the install forever.
	stall time.Duration
}

// get sends a GET and returns a 200 response; any other status is an error
// naming the URL and the status.
func (f fetcher) get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("bad URL %q: %w", url, err)
	}
	if f.userAgent != "" {
		req.Header.Set("User-Agent", f.userAgent)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		var ue *neturl.Error // says "Get <url>:" again
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &StatusError{URL: url, Code: resp.StatusCode, Status: resp.Status}
	}
	return resp, nil
}

// StatusError is an HTTP answer other than 200.
type StatusError struct {
	URL    string
	Code   int
	Status string
}

func (e *StatusError) Error() string { return fmt.Sprintf("GET %s: HTTP %s", e.URL, e.Status) }

// small reads a whole small answer (an index, LAST_CHANGE).
func (f fetcher) small(ctx context.Context, url string) ([]byte, error) {
	resp, err := f.get(ctx, url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxIndexSize+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: reading the answer: %w", url, err)
	}
	if len(body) > maxIndexSize {
		return nil, fmt.Errorf("GET %s: answer larger than %d MB", url, maxIndexSize>>20)
	}
	return body, nil
}

// download writes url's body to dst (created, never appended to) and checks
// that it got as many bytes as the server announced.
func (f fetcher) download(ctx context.Context, url, dst string, p *progress) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	resp, err := f.get(ctx, url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	p.start(resp.ContentLength)
	watch := time.AfterFunc(f.stall, func() {
		cancel(fmt.Errorf("no data for %s", f.stall))
	})
	defer watch.Stop()
	n, err := io.Copy(out, &stallReader{r: resp.Body, watch: watch, stall: f.stall, p: p})
	p.finish()
	if resp.ContentLength >= 0 && n < resp.ContentLength && (err == nil || errors.Is(err, io.ErrUnexpectedEOF)) {
		return fmt.Errorf("download %s: truncated: got %s of %s", url, sizeText(n), sizeText(resp.ContentLength))
	}
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		return fmt.Errorf("download %s: %w after %s", url, err, sizeText(n))
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// stallReader reports progress and pushes the stall deadline back on every
// read that brings data.
type stallReader struct {
	r     io.Reader
	watch *time.Timer
	stall time.Duration
	p     *progress
}

func (s *stallReader) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if n > 0 {
		s.watch.Reset(s.stall)
		s.p.add(int64(n))
	}
	return n, err
}
