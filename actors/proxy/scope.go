package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// ScopePrefix is where the endpoint serves its scopes: /context/NAME/… is
// a whole CDP endpoint for the scope called NAME (/json/version,
// /json/list, /json/new, /devtools/browser/…, /devtools/page/…), a part of
// the browser walled apart: a world (actors/worlds).
const ScopePrefix = "/context/"

// Scopes are the parts of the browser an endpoint serves apart, each a CDP
// endpoint of its own under ScopePrefix+NAME and wherever else its room
// serves it (ScopeHandler). The proxy routes a scope's requests and relays
// its sockets; what a scope is, and what walls its clients in, is the
// room's that gives the Scopes (actors/worlds/control).
type Scopes interface {
	// CheckName refuses a name no scope can have.
	CheckName(name string) error
	// Open opens the scope called name in the browser at ep, made there if
	// need be. A browser found gone meanwhile is an error wrapping
	// ErrBrowserGone; one that did not answer in time, ErrNoAnswer.
	Open(ctx context.Context, name string, ep browser.Endpoint) (Scope, error)
}

// Scope is one scope opened in one browser.
type Scope interface {
	// Targets are the ids of the scope's targets in that browser.
	Targets(ctx context.Context) ([]string, error)
	// RefuseNewPage is nil when /json/new may open a page of the scope at
	// url, else the refusal (the scope's room records it).
	RefuseNewPage(url string) error
	// NewPage opens a page of the scope at url and returns its target id.
	NewPage(ctx context.Context, url string) (string, error)
	// Wall walls a client's relay of the scope in: what its spec gets.
	Wall(ctx context.Context, spec *relay.Spec)
	// Join says a client's relay of the scope serves; the function it
	// returns, when not nil, says it ended.
	Join(ctx context.Context, rl *relay.Actor) (left func())
}

// ScopeURL is the HTTP endpoint of the scope called name.
func (p *Actor) ScopeURL(name string) string { return p.Endpoint() + ScopePrefix + name }

// scopeAt is a scope as a request reached it: by name under
// /context/NAME (prefix is that path, which every URL it is handed
// carries), or through its own handler (no prefix: a world's port).
type scopeAt struct {
	name   string
	prefix string
}

// serveScope answers a request under /context/NAME.
func (p *Actor) serveScope(w http.ResponseWriter, r *http.Request) {
	// The name as sent: an escaped '/' or anything else escaped in it is
	// refused, not read as a path.
	name, _, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), ScopePrefix), "/")
	if p.spec.Scopes != nil {
		if err := p.spec.Scopes.CheckName(name); err != nil {
			http.Error(w, fmt.Sprintf("cdpvisor: %v (in %s)", err, r.URL.EscapedPath()), http.StatusBadRequest)
			return
		}
	}
	rest := "/" + strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, ScopePrefix+name), "/")
	p.serveScopeRest(w, r, scopeAt{name: name, prefix: ScopePrefix + name}, rest)
}

// ScopeHandler serves the scope called name with nothing to prefix: every
// URL it hands out points at the host it was reached at (a world's own
// port). The Host is checked as the endpoint's.
func (p *Actor) ScopeHandler(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.hostAllowed(r.Host) {
			http.Error(w, fmt.Sprintf("cdpvisor: refused: the Host header %q is not a loopback address; connect to %s", r.Host, "http://127.0.0.1:"+portOfHost(r)), http.StatusForbidden)
			p.spec.Log.Warn().Str("host", r.Host).Str("world", name).Str("path", r.URL.Path).Msg("refused a request with a Host not allowed")
			return
		}
		p.serveScopeRest(w, r, scopeAt{name: name}, r.URL.Path)
	})
}

// serveScopeRest answers a scope's request for rest, its path within the
// scope's endpoint: the same wall whichever way the scope was reached.
func (p *Actor) serveScopeRest(w http.ResponseWriter, r *http.Request, at scopeAt, rest string) {
	name := at.name
	switch {
	case p.spec.BiDi:
		http.Error(w, "cdpvisor: worlds are browser contexts of a Chromium-family browser over CDP; this endpoint runs Firefox", http.StatusNotFound)
	case p.spec.Scopes == nil:
		http.Error(w, "cdpvisor: this endpoint serves no worlds", http.StatusNotFound)
	case rest == "/devtools/browser" || strings.HasPrefix(rest, "/devtools/browser/"):
		p.serveSocket(w, r, socket{target: browserTarget, scope: name})
	case strings.HasPrefix(rest, "/devtools/page/"):
		p.serveSocket(w, r, socket{target: pageTarget, path: rest, scope: name})
	case rest == "/json" || strings.HasPrefix(rest, "/json/"):
		p.serveScopeJSON(w, r, at, rest)
	default:
		// The DevTools frontend's files and the like: the browser's own.
		p.forwardPath(w, r, rest)
	}
}

// openScope opens the scope called name in the browser at ep (a browser
// that went meanwhile is withBrowser's to replace: the error says so).
func (p *Actor) openScope(ctx context.Context, name string, ep browser.Endpoint) (Scope, error) {
	scope, err := p.spec.Scopes.Open(ctx, name, ep)
	if err != nil {
		return nil, &scopeDown{name: name, err: err}
	}
	return scope, nil
}

// scopeUnavailable answers a request for a scope that could not be opened.
func (p *Actor) scopeUnavailable(w http.ResponseWriter, r *http.Request, name string, err error) {
	if errors.Is(err, ErrNoRoom) {
		p.spec.Log.Debug().Err(err).Str("world", name).Str("path", r.URL.Path).Msg("a new world was refused: no room") // its room logged why
		TooMany(w, "cdpvisor: "+remedy.Explain(err, p.spec.Words))
		return
	}
	p.spec.Log.Warn().Err(err).Str("world", name).Str("path", r.URL.Path).Msg("a world could not be opened")
	http.Error(w, fmt.Sprintf("cdpvisor: world %s is not available: %v", name, err), http.StatusServiceUnavailable)
}

// scopeHasTarget says whether the target is the scope's (unknownTarget
// when it is not: answered as Chromium answers an unknown target).
func (p *Actor) scopeHasTarget(ctx context.Context, scope Scope, name, id string) error {
	targets, err := scope.Targets(ctx)
	if err != nil {
		return &scopeDown{name: name, err: err}
	}
	for _, t := range targets {
		if t == id {
			return nil
		}
	}
	return &unknownTarget{id: id}
}

// portOfHost is the port the request came to, for an answer.
func portOfHost(r *http.Request) string {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if t, ok := a.(*net.TCPAddr); ok {
			return fmt.Sprint(t.Port)
		}
	}
	return "PORT"
}
