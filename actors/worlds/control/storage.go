package control

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's storage over HTTP, for its owner's scripts: seeded when made
// (PUT worldapi.Path/NAME with a worldapi.Seed), exported and imported at
// /context/NAME/storage-state (Playwright's JSON), forgotten with
// DELETE worldapi.Path/NAME?forget=1. Owner-only as every request of the
// endpoint; a world's own port does not answer them.

// SeedWorld makes the world called name if it is not open and gives it
// the seed, whole or not at all (worlds.Actor.Seed), and answers its
// endpoints with what the seed gave. A refused seed makes nothing.
func (c *Control) SeedWorld(ctx context.Context, name string, s worlds.Seed) (worldapi.Status, error) {
	if err := c.ready(name); err != nil {
		return worldapi.Status{}, err
	}
	if len(s.FromUserBrowser) > 0 && c.spec.Worlds.UsersBrowser() && s.Browser.Generation == 0 {
		// The user's browser is read now: connected first, as a client's
		// first request would.
		ep, err := c.spec.Browser.EnsureRunning(ctx)
		if err != nil {
			return worldapi.Status{}, err
		}
		s.Browser = ep
	}
	got, err := c.spec.Worlds.Seed(ctx, name, s)
	if err != nil {
		return worldapi.Status{}, err
	}
	ws, err := c.openStatus(ctx, name)
	if err != nil {
		return worldapi.Status{}, err
	}
	ws.Created = got.Made
	ws.Seeded = &worldapi.Seeded{Cookies: got.Cookies, Origins: got.Origins, Notes: got.Notes}
	return ws, nil
}

// ForgetWorld closes the world called name if it is open and deletes its
// profile (worlds.Actor.Forget); once it returns, its port refuses
// connections.
func (c *Control) ForgetWorld(ctx context.Context, name string) error {
	return c.end(ctx, name, (*worlds.Actor).Forget, true)
}

// ExportWorld is the storage state of the world called name, open or
// kept (worlds.Actor.Export).
func (c *Control) ExportWorld(ctx context.Context, name string) (storagestate.State, error) {
	if err := c.ready(name); err != nil {
		return storagestate.State{}, err
	}
	return c.spec.Worlds.Export(ctx, name)
}

// serveStorageState answers /context/NAME/storage-state: GET exports the
// world's storage state, PUT imports one (the body) into it, made if it
// is not open.
func (c *Control) serveStorageState(w http.ResponseWriter, r *http.Request, name string) {
	if c.spec.Worlds == nil {
		http.Error(w, "cdpvisor: "+ErrNoWorlds.Error(), http.StatusConflict)
		return
	}
	switch r.Method {
	case http.MethodGet:
		st, err := c.ExportWorld(r.Context(), name)
		if err != nil {
			c.answerWorlds(w, nil, err)
			return
		}
		cookies, origins := st.Counts()
		c.spec.Log.Debug().Str("world", name).Int("cookies", cookies).Int("origins", origins).Msg("a world's storage state was exported")
		writeStorageState(w, st)
	case http.MethodPut:
		st, err := readStorageState(w, r)
		var ws worldapi.Status
		if err == nil {
			ws, err = c.SeedWorld(r.Context(), name, worlds.Seed{State: &st})
		}
		if err == nil {
			c.spec.Log.Debug().Str("world", name).Bool("created", ws.Created).Int("cookies", ws.Seeded.Cookies).
				Int("origins", ws.Seeded.Origins).Msg("a storage state was imported into a world")
		}
		c.answerWorlds(w, ws, err)
	default:
		w.Header().Set("Allow", "GET, PUT")
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: GET exports the world's storage state, PUT imports one", r.Method, r.URL.Path), http.StatusMethodNotAllowed)
	}
}

// writeStorageState answers a storage state as Playwright writes its
// file (two-space indent).
func writeStorageState(w http.ResponseWriter, st storagestate.State) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store") // sign-ins
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(st)
}
