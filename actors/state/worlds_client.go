package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
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
	err := worldRequest(ctx, http.MethodPut, endpoint+WorldsPath+"/"+name, &ws)
	return ws, err
}

// ListWorlds asks the coordinator at endpoint for its open worlds.
func ListWorlds(ctx context.Context, endpoint string) ([]WorldStatus, error) {
	list := []WorldStatus{}
	err := worldRequest(ctx, http.MethodGet, endpoint+WorldsPath, &list)
	return list, err
}

// CloseWorld asks the coordinator at endpoint to close the world called
// name, and answers what it had.
func CloseWorld(ctx context.Context, endpoint, name string) (WorldStatus, error) {
	var ws WorldStatus
	err := worldRequest(ctx, http.MethodDelete, endpoint+WorldsPath+"/"+name, &ws)
	return ws, err
}

func worldRequest(ctx context.Context, method, url string, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	resp, err := worldsClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, url, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if err := json.Unmarshal(body, into); err != nil {
			return fmt.Errorf("%s %s: the answer is not a world's JSON: %w", method, url, err)
		}
		return nil
	case resp.StatusCode == http.StatusUnauthorized:
		return ErrTokenNeeded
	case resp.StatusCode == http.StatusNotFound && !strings.HasPrefix(string(body), "cdpvisor: "),
		resp.StatusCode == http.StatusMethodNotAllowed && !strings.Contains(string(body), WorldsPath):
		// The path went on to the browser: no world requests there.
		return ErrNoWorldRequests
	}
	why := strings.TrimSpace(strings.TrimPrefix(string(body), "cdpvisor: "))
	return fmt.Errorf("%w (%s): %s", ErrWorldRefused, resp.Status, why)
}
