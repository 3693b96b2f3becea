package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
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

// openWorld opens the world called name in the browser at ep. A browser
// that went meanwhile is replaced once: the world is made in the next one.
func (p *Actor) openWorld(ctx context.Context, name string, ep browser.Endpoint) (*worlds.World, string, browser.Endpoint, error) {
	world, context, err := p.spec.Worlds.Open(ctx, name, ep)
	if errors.Is(err, worlds.ErrBrowserGone) {
		next, nerr := p.spec.Browser.EnsureRunning(ctx)
		if nerr == nil && next.Generation == ep.Generation {
			next, nerr = p.spec.Browser.Replace(ctx, ep.Generation)
		}
		if nerr != nil {
			return nil, "", ep, nerr
		}
		ep = next
		world, context, err = p.spec.Worlds.Open(ctx, name, ep)
	}
	return world, context, ep, err
}

// worldUnavailable answers a request for a world that could not be opened.
func (p *Actor) worldUnavailable(w http.ResponseWriter, r *http.Request, name string, err error) {
	p.spec.Log.Warn().Err(err).Str("world", name).Str("path", r.URL.Path).Msg("a world could not be opened")
	http.Error(w, fmt.Sprintf("cdpvisor: world %s is not available: %v", name, err), http.StatusServiceUnavailable)
}

// worldHasTarget says the target is the world's, answering the request
// as Chromium answers an unknown target when it is not.
func (p *Actor) worldHasTarget(w http.ResponseWriter, r *http.Request, world *worlds.World, ep browser.Endpoint, id string) bool {
	targets, err := p.spec.Worlds.Targets(r.Context(), world, ep)
	if err != nil {
		p.worldUnavailable(w, r, world.Name(), err)
		return false
	}
	for _, t := range targets {
		if t.ID == id {
			return true
		}
	}
	writeChromiumText(w, http.StatusNotFound, "No such target id: "+id)
	return false
}
