package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// ErrBadSeed refuses a seed that is not one (a field of another kind, an
// origin that is not one, origins without a world to copy from), before
// anything is made.
var ErrBadSeed = errors.New("not a seed")

// seedShape says what a seed looks like, for the refusals.
const seedShape = `{"storage_state": {…Playwright's storage state…}, "from_user_browser": ["https://…"], "from_world": "NAME", "origins": ["https://…"], "allow_hosts": ["example.com"], "deny_hosts": ["*.example.com"], "proxy": "http://…", "allow_files": ["/folder"], "replace": true}, every field optional`

// maxSeedBody bounds a seed's body: a storage state and some origins.
const maxSeedBody = storagestate.MaxSize + 1<<16

// SeedOf checks a seed for the world called name whole and turns it into
// the WorldsActor's: the storage state parsed strictly, every origin in a
// browser's form. Its errors name the seed's fields (storage_state,
// from_user_browser, from_world, origins), which the HTTP body and the MCP
// tool's arguments share.
func SeedOf(name string, req worldapi.Seed) (worlds.Seed, error) {
	var s worlds.Seed
	if raw := bytes.TrimSpace(req.StorageState); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		st, err := storagestate.Parse(raw)
		if err != nil {
			return worlds.Seed{}, fmt.Errorf("storage_state: %w", err)
		}
		s.State = &st
	}
	var err error
	if s.FromUserBrowser, err = originsOf("from_user_browser", req.FromUserBrowser); err != nil {
		return worlds.Seed{}, err
	}
	if req.FromWorld != "" {
		if err := worlds.CheckName(req.FromWorld); err != nil {
			return worlds.Seed{}, fmt.Errorf("%w: from_world: %w", ErrBadSeed, err)
		}
		if req.FromWorld == name {
			return worlds.Seed{}, fmt.Errorf("%w: from_world %q is the world itself; name another world to copy from", ErrBadSeed, name)
		}
		s.FromWorld = req.FromWorld
	}
	if len(req.Origins) > 0 && req.FromWorld == "" {
		return worlds.Seed{}, fmt.Errorf("%w: origins say which of from_world's origins to copy, and no from_world is given "+
			"(from_user_browser takes its origins itself)", ErrBadSeed)
	}
	if s.Origins, err = originsOf("origins", req.Origins); err != nil {
		return worlds.Seed{}, err
	}
	return s, nil
}

// originsOf is each origin in a browser's form (scheme://host[:port]).
func originsOf(field string, in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, o := range in {
		c, err := storagestate.CanonicalOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrBadSeed, field, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// readSeed reads a world request's body: a seed, or nothing (an empty
// seed: the request only makes the world).
func readSeed(w http.ResponseWriter, r *http.Request) (worldapi.OpenRequest, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSeedBody))
	if err != nil {
		return worldapi.OpenRequest{}, fmt.Errorf("%w: the body could not be read whole (at most %d bytes): %w", ErrBadSeed, maxSeedBody, err)
	}
	var seed worldapi.OpenRequest
	if len(bytes.TrimSpace(body)) == 0 {
		return seed, nil
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(&seed); err != nil || d.More() {
		if err == nil {
			err = errors.New("more than one JSON value")
		}
		return worldapi.OpenRequest{}, fmt.Errorf("%w: %v; expected %s (a storage state alone is PUT to /context/NAME%s)",
			ErrBadSeed, err, seedShape, worldapi.StorageStatePath)
	}
	return seed, nil
}

// readStorageState reads a request's body as a storage state, strictly.
func readStorageState(w http.ResponseWriter, r *http.Request) (storagestate.State, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, storagestate.MaxSize))
	if err != nil {
		return storagestate.State{}, fmt.Errorf("%w: the body could not be read whole (at most %d bytes): %w", storagestate.ErrNotStorageState, storagestate.MaxSize, err)
	}
	return storagestate.Parse(body)
}

// errBadQuery refuses a world request's query (DELETE's forget=).
var errBadQuery = errors.New("bad query")

// refusedAsGiven says err refuses a world request as given (400): a seed,
// a name, a query; nothing was made or changed.
func refusedAsGiven(err error) bool {
	return refusedPolicy(err) || errors.Is(err, ErrBadSeed) || errors.Is(err, errBadQuery) || errors.Is(err, storagestate.ErrNotStorageState) ||
		errors.Is(err, worlds.ErrNotUsersBrowser) || errors.Is(err, worlds.ErrEphemeral) || errors.Is(err, worlds.ErrBadName)
}
