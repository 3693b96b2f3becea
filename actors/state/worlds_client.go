package state

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
// to a coordinator's endpoint (WorldsPath).

// Errors of the world requests.
var (
	// ErrNoWorldRequests: the endpoint does not know the world requests (a
	// coordinator older than them): its worlds have no ports.
	ErrNoWorldRequests = errors.New("the coordinator does not answer the world requests (older than world ports)")
	// ErrTokenNeeded: the endpoint asks for its token (serve --listen),
	// where worlds have their path alone.
	ErrTokenNeeded = errors.New("the coordinator's endpoint needs its token (serve --listen): its worlds have no ports, only their path /context/NAME")
	// ErrWorldRefused: the coordinator refused the request (a bad name, an
	// unknown world, an instance without worlds); the error says why.
	ErrWorldRefused = errors.New("refused")
	// ErrNoStorage: the coordinator is older than worlds that keep their
	// storage: it cannot seed, export or forget one.
	ErrNoStorage = errors.New("the coordinator does not keep worlds' storage (older than seeds, export and forget)")
)

// worldsClient asks a coordinator on loopback: a world is made in
// milliseconds, nothing is launched.
var worldsClient = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
}

// OpenWorld asks the coordinator at endpoint (http://127.0.0.1:PORT) to
// make the world called name, or find it open, and answers its endpoints.
func OpenWorld(ctx context.Context, endpoint, name string) (WorldStatus, error) {
	var ws WorldStatus
	_, err := worldRequest(ctx, http.MethodPut, endpoint+WorldsPath+"/"+name, nil, &ws)
	return ws, err
}

// OpenSeededWorld is OpenWorld with a seed, applied whole or not at all:
// a refused seed makes nothing and changes nothing (ErrWorldRefused, the
// coordinator's reason).
func OpenSeededWorld(ctx context.Context, endpoint, name string, seed WorldSeed) (WorldStatus, error) {
	if seed.Empty() {
		return OpenWorld(ctx, endpoint, name)
	}
	body, err := json.Marshal(seed)
	if err != nil {
		return WorldStatus{}, err
	}
	var ws WorldStatus
	if _, err := worldRequest(ctx, http.MethodPut, endpoint+WorldsPath+"/"+name, body, &ws); err != nil {
		return ws, err
	}
	if ws.Seeded == nil {
		// An older coordinator made the world and ignored the seed.
		return ws, ErrNoStorage
	}
	return ws, nil
}

// ListWorlds asks the coordinator at endpoint for its open worlds.
func ListWorlds(ctx context.Context, endpoint string) ([]WorldStatus, error) {
	list := []WorldStatus{}
	_, err := worldRequest(ctx, http.MethodGet, endpoint+WorldsPath, nil, &list)
	return list, err
}

// CloseWorld asks the coordinator at endpoint to close the world called
// name, and answers what it had.
func CloseWorld(ctx context.Context, endpoint, name string) (WorldStatus, error) {
	var ws WorldStatus
	_, err := worldRequest(ctx, http.MethodDelete, endpoint+WorldsPath+"/"+name, nil, &ws)
	return ws, err
}

// ForgetWorld asks the coordinator at endpoint to close the world called
// name if it is open and delete its profile, and answers what it had.
func ForgetWorld(ctx context.Context, endpoint, name string) (WorldStatus, error) {
	var ws WorldStatus
	body, err := worldRequest(ctx, http.MethodDelete, endpoint+WorldsPath+"/"+name+"?forget=1", nil, &ws)
	if err == nil && !bytes.Contains(body, []byte(`"kept"`)) {
		// An older coordinator closed the world and ignored forget.
		return ws, ErrNoStorage
	}
	return ws, err
}

// ExportWorld asks the coordinator at endpoint for the storage state of
// the world called name (open or kept): Playwright's JSON, as sent.
func ExportWorld(ctx context.Context, endpoint, name string) ([]byte, error) {
	var raw json.RawMessage
	_, err := worldRequest(ctx, http.MethodGet, endpoint+"/context/"+name+StorageStatePath, nil, &raw)
	if errors.Is(err, ErrNoWorldRequests) {
		err = ErrNoStorage // the path went on to the browser
	}
	return raw, err
}

// worldRequest sends method url (with body, JSON, when not nil) and reads
// the answer's JSON into into; it answers the body as read.
func worldRequest(ctx context.Context, method, url string, body []byte, into any) ([]byte, error) {
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
	resp, err := worldsClient.Do(req)
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
		resp.StatusCode == http.StatusMethodNotAllowed && !strings.Contains(string(got), WorldsPath):
		// The path went on to the browser: no world requests there.
		return got, ErrNoWorldRequests
	}
	why := strings.TrimSpace(strings.TrimPrefix(string(got), "cdpvisor: "))
	if resp.StatusCode == http.StatusConflict && strings.Contains(why, ErrPolicyKept.Error()) {
		return got, fmt.Errorf("%w (%s): %w", ErrWorldRefused, resp.Status, refusal{why, ErrPolicyKept})
	}
	return got, fmt.Errorf("%w (%s): %s", ErrWorldRefused, resp.Status, why)
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
