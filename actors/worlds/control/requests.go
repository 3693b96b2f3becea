package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The world requests (worldapi.Path) are how the owner's other
// processes (wrap --isolate, cdpvisor world) make, find, list and close the
// instance's worlds and learn their ports: owner-only as every request of
// the endpoint (the peer check; the token beyond loopback).

// OpenWorld makes the world called name, or finds it open, and answers its
// endpoints; Created says it was made now. Nothing is launched: its
// context is made in the running browser, or in the next one.
func (c *Control) OpenWorld(ctx context.Context, name string) (worldapi.Status, error) {
	if err := c.ready(name); err != nil {
		return worldapi.Status{}, err
	}
	made, err := c.spec.Worlds.Make(ctx, name)
	if err != nil {
		return worldapi.Status{}, err
	}
	ws, err := c.openStatus(ctx, name)
	ws.Created = made
	return ws, err
}

// openStatus is the open world called name with its endpoints and what
// it keeps.
func (c *Control) openStatus(ctx context.Context, name string) (worldapi.Status, error) {
	ports, err := c.ports(ctx)
	if err != nil {
		return worldapi.Status{}, err
	}
	s := worlds.Summary{Name: name, Open: true, Kept: worlds.Kept(name)}
	if list, err := c.spec.Worlds.List(ctx); err == nil {
		for _, l := range list {
			if l.Name == name {
				s.KeptInfo, s.Policy = l.KeptInfo, l.Policy
			}
		}
	}
	return c.worldStatus(s, ports), nil
}

// WorldStatuses lists the worlds with their endpoints, clients and pages,
// by name: the open ones, and the kept ones that are not.
func (c *Control) WorldStatuses(ctx context.Context) ([]worldapi.Status, error) {
	if c.spec.Worlds == nil {
		return nil, ErrNoWorlds
	}
	list, err := c.spec.Worlds.List(ctx)
	if err != nil {
		return nil, err
	}
	ports, err := c.ports(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]worldapi.Status, 0, len(list))
	for _, s := range list {
		out = append(out, c.worldStatus(s, ports))
	}
	return out, nil
}

// CloseWorld closes the world called name (worlds.Actor.Close); once it
// returns, its port refuses connections.
func (c *Control) CloseWorld(ctx context.Context, name string) error {
	return c.end(ctx, name, (*worlds.Actor).Close, false)
}

// end ends the world called name by close (worlds.Actor.Close or Forget)
// and answers once its port is closed too.
func (c *Control) end(ctx context.Context, name string, close func(*worlds.Actor, context.Context, string) error, forgotten bool) error {
	if err := c.ready(name); err != nil {
		return err
	}
	if err := close(c.spec.Worlds, ctx, name); err != nil {
		return err
	}
	for _, h := range c.spec.Hooks {
		if h.Ended != nil {
			h.Ended(ctx, name, forgotten)
		}
	}
	_, err := c.ports(ctx) // the port closes before the answer
	return err
}

// worldStatus is a world with its endpoints and what it keeps. A closed
// kept world has its path alone: its first use makes it again.
func (c *Control) worldStatus(s worlds.Summary, ports map[string]int) worldapi.Status {
	ws := worldapi.Status{Name: s.Name, PathEndpoint: c.PathEndpoint(s.Name), Clients: s.Clients, Pages: s.Pages, Open: s.Open, Kept: s.Kept}
	ws.Policy = policyStatus(s.Policy)
	c.describe(s.Name, &ws)
	if s.KeptInfo != nil {
		saved := s.KeptInfo.Saved
		ws.SavedBytes, ws.SavedAt = s.KeptInfo.Bytes, &saved
	}
	if !s.Open && s.Kept {
		return ws
	}
	ws.Endpoint = ws.PathEndpoint
	ws.WS = strings.Replace(ws.PathEndpoint, "http://", "ws://", 1) + "/devtools/browser"
	if port := ports[s.Name]; port != 0 {
		ws.Port = port
		ws.Endpoint = fmt.Sprintf("http://127.0.0.1:%d", port)
		ws.WS = fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", port)
	}
	return ws
}

// serveWorldRequest answers the world requests: GET worldapi.Path, and PUT,
// GET or DELETE worldapi.Path/NAME.
func (c *Control) serveWorldRequest(w http.ResponseWriter, r *http.Request) {
	name, one := strings.CutPrefix(r.URL.EscapedPath(), worldapi.Path+"/")
	if !one && r.URL.Path != worldapi.Path {
		http.NotFound(w, r)
		return
	}
	if c.spec.Worlds == nil {
		http.Error(w, "cdpvisor: "+ErrNoWorlds.Error(), http.StatusConflict)
		return
	}
	if one {
		if err := worlds.CheckName(name); err != nil {
			http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	switch {
	case !one && r.Method == http.MethodGet:
		list, err := c.WorldStatuses(r.Context())
		c.answerWorlds(w, list, err)
	case one && r.Method == http.MethodPut:
		ws, err := c.openSeeded(w, r, name)
		if err == nil {
			c.spec.Log.Debug().Str("world", name).Bool("created", ws.Created).Str("endpoint", ws.Endpoint).Bool("seeded", ws.Seeded != nil).Msg("a world was asked for")
		}
		c.answerWorlds(w, ws, err)
	case one && r.Method == http.MethodGet:
		list, err := c.WorldStatuses(r.Context())
		for _, ws := range list {
			if ws.Name == name {
				c.answerWorlds(w, ws, nil)
				return
			}
		}
		if err == nil {
			err = fmt.Errorf("%w %q", worlds.ErrUnknownWorld, name)
		}
		c.answerWorlds(w, nil, err)
	case one && r.Method == http.MethodDelete:
		forget, err := forgetAsked(r)
		if err != nil {
			c.answerWorlds(w, nil, err)
			return
		}
		list, _ := c.WorldStatuses(r.Context())
		var had worldapi.Status
		for _, ws := range list {
			if ws.Name == name {
				had = ws
			}
		}
		switch {
		case forget:
			err = c.ForgetWorld(r.Context(), name)
		case had.Name != "" && !had.Open && had.Kept:
			err = fmt.Errorf("%w %q: it is not open, only kept on disk (DELETE %s/%s?forget=1 deletes its profile)", worlds.ErrUnknownWorld, name, worldapi.Path, name)
		default:
			err = c.CloseWorld(r.Context(), name)
		}
		c.answerWorlds(w, had, err)
	default:
		w.Header().Set("Allow", map[bool]string{true: "GET, PUT, DELETE", false: "GET"}[one])
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: not a world request (GET %s; PUT, GET or DELETE %s/NAME)", r.Method, r.URL.Path, worldapi.Path, worldapi.Path), http.StatusMethodNotAllowed)
	}
}

// answerWorlds writes v as JSON, or err with its status.
func (c *Control) answerWorlds(w http.ResponseWriter, v any, err error) {
	if err != nil {
		code := http.StatusInternalServerError
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			code = http.StatusRequestEntityTooLarge
		case errors.Is(err, guard.ErrUpstreamUnreachable):
			code = http.StatusBadGateway // the world's upstream proxy, named in err
		case errors.Is(err, worldapi.ErrPolicyKept):
			code = http.StatusConflict // its text says so to the client (worldapi.ErrPolicyKept)
		case errors.Is(err, worlds.ErrKeptUnreadable):
			code = http.StatusConflict // the kept file, named in err
		case refusedAsGiven(err):
			code = http.StatusBadRequest // before ErrUnknownWorld: a seed's from_world may be unknown
		case errors.Is(err, worlds.ErrUnknownWorld):
			code = http.StatusNotFound
		case errors.Is(err, worlds.ErrFull):
			// Its fixes in the answer: a client of the endpoint alone
			// learns what to do (the command line prints it as is).
			proxy.TooMany(w, "cdpvisor: "+remedy.Explain(err, c.spec.Words))
			return
		}
		http.Error(w, "cdpvisor: "+err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// openSeeded is PUT worldapi.Path/NAME: the world made or found, seeded by
// the body when it has one. The seed is read and checked whole before
// anything is made.
func (c *Control) openSeeded(w http.ResponseWriter, r *http.Request, name string) (worldapi.Status, error) {
	req, err := readSeed(w, r)
	if err != nil {
		return worldapi.Status{}, err
	}
	var seed worlds.Seed
	if !req.Seed.Empty() {
		if seed, err = SeedOf(name, req.Seed); err != nil {
			return worldapi.Status{}, err
		}
	}
	if req.Replace && req.Policy.Empty() {
		return worldapi.Status{}, ErrReplaceAlone
	}
	// The policy before the seed: the world's first context is guarded.
	guarded, err := c.GuardWorld(r.Context(), name, req.Policy, req.Replace)
	if err != nil {
		return worldapi.Status{}, err
	}
	var ws worldapi.Status
	if req.Seed.Empty() {
		ws, err = c.OpenWorld(r.Context(), name)
	} else {
		ws, err = c.SeedWorld(r.Context(), name, seed)
	}
	ws.Created = ws.Created || guarded
	if err != nil {
		return ws, err
	}
	if err := c.Asked(r.Context(), name, req); err != nil {
		return ws, err
	}
	c.describe(name, &ws)
	return ws, nil
}

// forgetAsked reads DELETE's ?forget=: 1 or true deletes the world's
// profile too.
func forgetAsked(r *http.Request) (bool, error) {
	switch v := r.URL.Query().Get("forget"); v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	default:
		return false, fmt.Errorf("%w: forget=%q: want forget=1 (close the world and delete its profile) or none", errBadQuery, v)
	}
}
