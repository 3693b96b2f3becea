package worldapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// The world requests of another process (wrap --isolate, cdpvisor world)
// to a coordinator's endpoint (Path).

// Errors of the world requests.
var (
	// ErrNoRequests: the endpoint does not know the world requests (a
	// coordinator older than them): its worlds have no ports.
	ErrNoRequests = errors.New("the coordinator does not answer the world requests (older than world ports)")
	// ErrTokenNeeded: the endpoint asks for its token (serve --listen),
	// where worlds have their path alone.
	ErrTokenNeeded = errors.New("the coordinator's endpoint needs its token (serve --listen): its worlds have no ports, only their path /context/NAME")
	// ErrRefused: the coordinator refused the request (a bad name, an
	// unknown world, an instance without worlds); the error says why.
	ErrRefused = errors.New("refused")
	// ErrNoStorage: the coordinator is older than worlds that keep their
	// storage: it cannot seed, export or forget one.
	ErrNoStorage = errors.New("the coordinator does not keep worlds' storage (older than seeds, export and forget)")
	// ErrFull: the instance has as many worlds open as it allows (serve
	// --max-worlds); a world must close first. The coordinator answers it
	// 429 with Retry-After, its text (and fixes) in the answer's.
	ErrFull = errors.New("the instance has as many worlds open as it allows")
)

// client asks a coordinator on loopback: a world is made in
// milliseconds, nothing is launched.
var client = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
}

// Open asks the coordinator at endpoint (http://127.0.0.1:PORT) to
// make the world called name, or find it open, and answers its endpoints.
func Open(ctx context.Context, endpoint, name string) (Status, error) {
	var ws Status
	_, err := request(ctx, http.MethodPut, endpoint+Path+"/"+name, nil, &ws)
	return ws, err
}

// OpenSeeded is Open with a seed, applied whole or not at all:
// a refused seed makes nothing and changes nothing (ErrRefused, the
// coordinator's reason).
func OpenSeeded(ctx context.Context, endpoint, name string, seed Seed) (Status, error) {
	if seed.Empty() {
		return Open(ctx, endpoint, name)
	}
	body, err := json.Marshal(seed)
	if err != nil {
		return Status{}, err
	}
	var ws Status
	if _, err := request(ctx, http.MethodPut, endpoint+Path+"/"+name, body, &ws); err != nil {
		return ws, err
	}
	if ws.Seeded == nil {
		// An older coordinator made the world and ignored the seed.
		return ws, ErrNoStorage
	}
	return ws, nil
}

// List asks the coordinator at endpoint for its open worlds.
func List(ctx context.Context, endpoint string) ([]Status, error) {
	list := []Status{}
	_, err := request(ctx, http.MethodGet, endpoint+Path, nil, &list)
	return list, err
}

// Close asks the coordinator at endpoint to close the world called
// name, and answers what it had.
func Close(ctx context.Context, endpoint, name string) (Status, error) {
	var ws Status
	_, err := request(ctx, http.MethodDelete, endpoint+Path+"/"+name, nil, &ws)
	return ws, err
}

// Forget asks the coordinator at endpoint to close the world called
// name if it is open and delete its profile, and answers what it had.
func Forget(ctx context.Context, endpoint, name string) (Status, error) {
	var ws Status
	body, err := request(ctx, http.MethodDelete, endpoint+Path+"/"+name+"?forget=1", nil, &ws)
	if err == nil && !bytes.Contains(body, []byte(`"kept"`)) {
		// An older coordinator closed the world and ignored forget.
		return ws, ErrNoStorage
	}
	return ws, err
}

// Export asks the coordinator at endpoint for the storage state of
// the world called name (open or kept): Playwright's JSON, as sent.
func Export(ctx context.Context, endpoint, name string) ([]byte, error) {
	var raw json.RawMessage
	_, err := request(ctx, http.MethodGet, endpoint+PathPrefix+name+StorageStatePath, nil, &raw)
	if errors.Is(err, ErrNoRequests) {
		err = ErrNoStorage // the path went on to the browser
	}
	return raw, err
}

// request sends method url (with body, JSON, when not nil) and reads
// the answer's JSON into into; it answers the body as read.
func request(ctx context.Context, method, url string, body []byte, into any) ([]byte, error) {
	var sent io.Reader
	if body != nil {
		sent = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, sent)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, storagestate.MaxSize+1<<16)) // an export is a storage state
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, url, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if err := json.Unmarshal(got, into); err != nil {
			return got, fmt.Errorf("%s %s: the answer is not the JSON asked for: %w", method, url, err)
		}
		return got, nil
	case resp.StatusCode == http.StatusUnauthorized:
		return got, ErrTokenNeeded
	case resp.StatusCode == http.StatusNotFound && !strings.HasPrefix(string(got), "cdpvisor: "),
		resp.StatusCode == http.StatusMethodNotAllowed && !strings.Contains(string(got), Path):
		// The path went on to the browser: no world requests there.
		return got, ErrNoRequests
	}
	why := strings.TrimSpace(strings.TrimPrefix(string(got), "cdpvisor: "))
	if resp.StatusCode == http.StatusConflict && strings.Contains(why, ErrPolicyKept.Error()) {
		return got, fmt.Errorf("%w (%s): %w", ErrRefused, resp.Status, refusal{why, ErrPolicyKept})
	}
	if resp.StatusCode == http.StatusTooManyRequests && strings.Contains(why, ErrFull.Error()) {
		return got, fmt.Errorf("%w (%s): %w", ErrRefused, resp.Status, refusal{why, ErrFull})
	}
	return got, fmt.Errorf("%w (%s): %s", ErrRefused, resp.Status, why)
}

// refusal is a coordinator's refusal known by its kind: its text the
// coordinator's, and it is its kind (errors.Is), so the edge words its
// fix (a kept policy: replace).
type refusal struct {
	text string
	kind error
}

func (r refusal) Error() string { return r.text }
func (r refusal) Unwrap() error { return r.kind }
