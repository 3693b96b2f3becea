package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// The world requests (state.WorldsPath) are how the owner's other
// processes (wrap --isolate, cdpvisor world) make, find, list and close the
// instance's worlds and learn their ports: owner-only as every request of
// the endpoint (the peer check; the token beyond loopback).

// ErrNoWorlds refuses the world requests of an endpoint that has no
// worlds (a Firefox instance's).
var ErrNoWorlds = errors.New("this endpoint has no worlds: a world is a browser context of a Chromium-family browser over CDP, and this instance runs Firefox over WebDriver BiDi")

// OpenWorld makes the world called name, or finds it open, and answers its
// endpoints; Created says it was made now. Nothing is launched: its
// context is made in the running browser, or in the next one.
func (p *Actor) OpenWorld(ctx context.Context, name string) (state.WorldStatus, error) {
	if p.spec.Worlds == nil {
		return state.WorldStatus{}, ErrNoWorlds
	}
	made, err := p.spec.Worlds.Make(ctx, name)
	if err != nil {
		return state.WorldStatus{}, err
	}
	ports, err := p.worldPorts(ctx)
	if err != nil {
		return state.WorldStatus{}, err
	}
	ws := p.worldStatus(worlds.Summary{Name: name}, ports)
	ws.Created = made
	return ws, nil
}

// WorldStatuses lists the open worlds with their endpoints, clients and
// pages, by name.
func (p *Actor) WorldStatuses(ctx context.Context) ([]state.WorldStatus, error) {
	if p.spec.Worlds == nil {
		return nil, ErrNoWorlds
	}
	list, err := p.spec.Worlds.List(ctx)
	if err != nil {
		return nil, err
	}
	ports, err := p.worldPorts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]state.WorldStatus, 0, len(list))
	for _, s := range list {
		out = append(out, p.worldStatus(s, ports))
	}
	return out, nil
}

// CloseWorld closes the world called name (worlds.Actor.Close); once it
// returns, its port refuses connections.
func (p *Actor) CloseWorld(ctx context.Context, name string) error {
	if p.spec.Worlds == nil {
		return ErrNoWorlds
	}
	if err := p.spec.Worlds.Close(ctx, name); err != nil {
		return err
	}
	_, err := p.worldPorts(ctx) // the port closes before the answer
	return err
}

// worldStatus is a world with its endpoints.
func (p *Actor) worldStatus(s worlds.Summary, ports map[string]int) state.WorldStatus {
	ws := state.WorldStatus{Name: s.Name, PathEndpoint: p.WorldEndpoint(s.Name), Clients: s.Clients, Pages: s.Pages}
	ws.Endpoint = ws.PathEndpoint
	ws.WS = strings.Replace(ws.PathEndpoint, "http://", "ws://", 1) + "/devtools/browser"
	if port := ports[s.Name]; port != 0 {
		ws.Port = port
		ws.Endpoint = fmt.Sprintf("http://127.0.0.1:%d", port)
		ws.WS = fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", port)
	}
	return ws
}

// serveWorldRequest answers the world requests: GET WorldsPath, and PUT,
// GET or DELETE WorldsPath/NAME.
func (p *Actor) serveWorldRequest(w http.ResponseWriter, r *http.Request) {
	name, one := strings.CutPrefix(r.URL.EscapedPath(), state.WorldsPath+"/")
	if !one && r.URL.Path != state.WorldsPath {
		http.NotFound(w, r)
		return
	}
	if p.spec.Worlds == nil {
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
		list, err := p.WorldStatuses(r.Context())
		p.answerWorlds(w, list, err)
	case one && r.Method == http.MethodPut:
		ws, err := p.OpenWorld(r.Context(), name)
		if err == nil {
			p.spec.Log.Debug().Str("world", name).Bool("created", ws.Created).Str("endpoint", ws.Endpoint).Msg("a world was asked for")
		}
		p.answerWorlds(w, ws, err)
	case one && r.Method == http.MethodGet:
		list, err := p.WorldStatuses(r.Context())
		for _, ws := range list {
			if ws.Name == name {
				p.answerWorlds(w, ws, nil)
				return
			}
		}
		if err == nil {
			err = fmt.Errorf("%w %q", worlds.ErrUnknownWorld, name)
		}
		p.answerWorlds(w, nil, err)
	case one && r.Method == http.MethodDelete:
		list, _ := p.WorldStatuses(r.Context())
		var had state.WorldStatus
		for _, ws := range list {
			if ws.Name == name {
				had = ws
			}
		}
		p.answerWorlds(w, had, p.CloseWorld(r.Context(), name))
	default:
		w.Header().Set("Allow", map[bool]string{true: "GET, PUT, DELETE", false: "GET"}[one])
		http.Error(w, fmt.Sprintf("cdpvisor: %s %s: not a world request (GET %s; PUT, GET or DELETE %s/NAME)", r.Method, r.URL.Path, state.WorldsPath, state.WorldsPath), http.StatusMethodNotAllowed)
	}
}

// answerWorlds writes v as JSON, or err with its status.
func (p *Actor) answerWorlds(w http.ResponseWriter, v any, err error) {
	if err != nil {
		code := http.StatusInternalServerError
		switch {
		case errors.Is(err, worlds.ErrUnknownWorld):
			code = http.StatusNotFound
		case errors.Is(err, worlds.ErrBadName):
			code = http.StatusBadRequest
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
