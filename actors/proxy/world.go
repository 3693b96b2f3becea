package proxy

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// WorldPrefix is where the endpoint serves worlds: /context/NAME/… is a
// whole CDP endpoint for the world called NAME (/json/version, /json/list,
// /json/new, /devtools/browser/…, /devtools/page/…), a browser context of
// its own on the instance's browser.
const WorldPrefix = "/context/"

// WorldEndpoint is the HTTP endpoint of the world called name.
func (p *Actor) WorldEndpoint(name string) string { return p.Endpoint() + WorldPrefix + name }

// worldAt is a world as a request reached it: by name under /context/NAME
// (prefix is that path, which every URL it is handed carries), or on the
// world's own port (no prefix).
type worldAt struct {
	name   string
	prefix string
}

// serveWorld answers a request under /context/NAME.
func (p *Actor) serveWorld(w http.ResponseWriter, r *http.Request) {
	// The name as sent: an escaped '/' or anything else escaped in it is
	// refused, not read as a path.
	name, _, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), WorldPrefix), "/")
	if err := worlds.CheckName(name); err != nil {
		http.Error(w, fmt.Sprintf("cdpvisor: %v (in %s)", err, r.URL.EscapedPath()), http.StatusBadRequest)
		return
	}
	rest := "/" + strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, WorldPrefix+name), "/")
	if rest == worldapi.StorageStatePath {
		// Its path form alone: a world's own port is its CDP endpoint, no more.
		p.serveStorageState(w, r, name)
		return
	}
	if rest == worldapi.JournalPath {
		p.serveJournal(w, r, name)
		return
	}
	p.serveWorldRest(w, r, worldAt{name: name, prefix: WorldPrefix + name}, rest)
}

// serveWorldRest answers a world's request for rest, its path within the
// world's endpoint: the same wall whichever way the world was reached.
func (p *Actor) serveWorldRest(w http.ResponseWriter, r *http.Request, at worldAt, rest string) {
	name := at.name
	switch {
	case p.spec.BiDi:
		http.Error(w, "cdpvisor: worlds are browser contexts of a Chromium-family browser over CDP; this endpoint runs Firefox", http.StatusNotFound)
	case p.spec.Worlds == nil:
		http.Error(w, "cdpvisor: this endpoint serves no worlds", http.StatusNotFound)
	case rest == "/devtools/browser" || strings.HasPrefix(rest, "/devtools/browser/"):
		p.serveSocket(w, r, socket{target: browserTarget, world: name})
	case strings.HasPrefix(rest, "/devtools/page/"):
		p.serveSocket(w, r, socket{target: pageTarget, path: rest, world: name})
	case rest == "/json" || strings.HasPrefix(rest, "/json/"):
		p.serveWorldJSON(w, r, at, rest)
	default:
		// The DevTools frontend's files and the like: the browser's own.
		p.forwardPath(w, r, rest)
	}
}

// openWorld opens the world called name in the browser at ep (a browser
// that went meanwhile is withBrowser's to replace: the error says so).
func (p *Actor) openWorld(ctx context.Context, name string, ep browser.Endpoint) (*worlds.World, string, error) {
	world, context, err := p.spec.Worlds.Open(ctx, name, ep)
	if err != nil {
		return nil, "", &worldDown{name: name, err: err}
	}
	return world, context, nil
}

// worldUnavailable answers a request for a world that could not be opened.
func (p *Actor) worldUnavailable(w http.ResponseWriter, r *http.Request, name string, err error) {
	p.spec.Log.Warn().Err(err).Str("world", name).Str("path", r.URL.Path).Msg("a world could not be opened")
	http.Error(w, fmt.Sprintf("cdpvisor: world %s is not available: %v", name, err), http.StatusServiceUnavailable)
}

// worldHasTarget says whether the target is the world's (unknownTarget
// when it is not: answered as Chromium answers an unknown target).
func (p *Actor) worldHasTarget(ctx context.Context, world *worlds.World, ep browser.Endpoint, id string) error {
	targets, err := p.spec.Worlds.Targets(ctx, world, ep)
	if err != nil {
		return &worldDown{name: world.Name(), err: err}
	}
	for _, t := range targets {
		if t.ID == id {
			return nil
		}
	}
	return &unknownTarget{id: id}
}
