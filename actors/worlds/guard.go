package worlds

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/guard"
)

// A world with a network policy or an upstream proxy has a guard: a
// filtering forward proxy of cdpvisor's own on loopback (actors/guard),
// which sends the world's traffic on through its upstream proxy if it has
// one (Chromium's proxyServer takes no credentials and no SOCKS5 sign-in,
// so the upstream is the guard's, not the browser's; a proxy-only world
// pays a loopback hop for it). Its browser context is
// made with that proxy as its proxyServer, so the browser's own network
// stack sends everything the world loads through it. The actor owns each
// guard: started with the world, closed with it (and when the actor's
// Serve ends: the book outlives it, and the next Serve starts the guard
// again, on the same port if it can).

// BypassNone is the context's proxyBypassList: it removes Chromium's
// implicit bypass of loopback, which would let a world's page reach
// 127.0.0.1 and localhost around its guard (measured on Chromium 156:
// without it a loopback server saw the page's connection, with it the
// proxy did).
const BypassNone = "<-loopback>"

// ErrPolicyNeedsNewWorld: a world open without a policy cannot be given
// one; its context was made without the guard.
var ErrPolicyNeedsNewWorld = errors.New("a network policy or an upstream proxy is given at a world's making")

// Network is what a world's guard enforces: its policy (nil: open, private
// addresses too) and its upstream proxy (nil: none). Both nil: no guard.
type Network struct {
	Policy   *guard.Policy
	Upstream *guard.Upstream
	// Files are the folders besides the world's own whose files its
	// clients may hand a page (DOM.setFileInputFiles): absolute, cleaned.
	Files []string
}

// None says there is nothing to guard.
func (n Network) None() bool { return n.Policy == nil && n.Upstream == nil }

// worldGuard is a world's policy, its upstream and its proxy.
type worldGuard struct {
	net   Network
	proxy *guard.Proxy // nil while closed (between two Serves of the actor)
	port  int          // where it listened: reopened there
}

// PolicyInfo is a world's network policy as the lists show it.
type PolicyInfo struct {
	AllowHosts []string `json:"allow_hosts"`
	DenyHosts  []string `json:"deny_hosts"`
	// Proxy is its upstream proxy without its credentials; "": none.
	Proxy string `json:"proxy,omitempty"`
	// AllowFiles are the folders besides its own whose files its pages may get.
	AllowFiles []string `json:"allow_files,omitempty"`
	// Counts are the hosts its requests reached and were denied, by host:port.
	Counts map[string]guard.HostCount `json:"hosts,omitempty"`
}

// MakeGuarded makes the world called name with a network policy and an
// upstream proxy (none: as Make). A world already open with a guard gets
// the new ones (the owner's change: every request from now on is judged
// and sent by them); one open without a guard is refused
// (ErrPolicyNeedsNewWorld). A kept world that keeps another policy with
// its profile, open or not, gets the new one only with replace (else
// worldapi.ErrPolicyKept; kept_guard.go). An upstream proxy that cannot be
// reached is refused (guard.ErrUpstreamUnreachable) before anything is
// made. made says the world was new.
func (a *Actor) MakeGuarded(ctx context.Context, name string, n Network, replace bool) (made bool, err error) {
	if n.None() {
		return a.Make(ctx, name)
	}
	if err := CheckName(name); err != nil {
		return false, err
	}
	// Here, not in the actor: a proxy that does not answer would hold its
	// mailbox.
	if n.Upstream != nil {
		if err := n.Upstream.Check(ctx); err != nil {
			return false, fmt.Errorf("world %s: %w", name, err)
		}
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan guardedAnswer) request {
		return makeGuarded{name: name, net: n, replace: replace, reply: r}
	})
	if err != nil {
		return false, err
	}
	return got.made, got.err
}

// Policy reports the world's policy and its counts; nil: it has none.
func (a *Actor) Policy(ctx context.Context, name string) (*PolicyInfo, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan policyAnswer) request { return askPolicy{name: name, reply: r} })
	if err != nil {
		return nil, err
	}
	return got.info, got.err
}

type (
	makeGuarded struct {
		name    string
		net     Network
		replace bool // a kept world's kept policy too
		reply   chan guardedAnswer
	}
	guardedAnswer struct {
		made bool
		err  error
	}
	askPolicy struct {
		name  string
		reply chan policyAnswer
	}
	policyAnswer struct {
		info *PolicyInfo
		err  error
	}
)

// handleGuard answers the requests of this file; false: m is not one.
func (r *run) handleGuard(m request) bool {
	switch m := m.(type) {
	case makeGuarded:
		m.reply <- r.makeGuarded(m)
	case askPolicy:
		w := r.a.book[m.name]
		switch {
		case w == nil:
			m.reply <- policyAnswer{err: fmt.Errorf("%w %q; %s", ErrUnknownWorld, m.name, r.known())}
		default:
			m.reply <- policyAnswer{info: w.policyInfo()}
		}
	default:
		return false
	}
	return true
}

func (r *run) makeGuarded(m makeGuarded) guardedAnswer {
	if w := r.a.book[m.name]; w != nil {
		if w.guard == nil {
			return guardedAnswer{err: fmt.Errorf("%w: world %q is open without either; close it, then open it with them", ErrPolicyNeedsNewWorld, m.name)}
		}
		if w.guard.net.differs(m.net) == "" {
			return guardedAnswer{} // the same again: nothing changes
		}
		if err := r.keepChange(m, w.guard.net, true); err != nil {
			return guardedAnswer{err: err}
		}
		w.guard.net = m.net
		if w.guard.proxy != nil {
			w.guard.proxy.SetPolicy(m.net.Policy, m.net.Upstream)
			r.publishGuard(w)
		}
		m.net.log(r.log.Info().Str("world", m.name)).Msg("world's network policy changed")
		return guardedAnswer{}
	}
	if err := r.refuseNew(m.name); err != nil { // before its guard starts
		return guardedAnswer{err: err}
	}
	kept, found, err := r.keptNetwork(m.name)
	if err != nil && !m.replace { // with replace, the file is written anew
		return guardedAnswer{err: err}
	}
	// The guard first: a world whose guard cannot start is not made; nor
	// one whose policy cannot be kept.
	g := &worldGuard{net: m.net}
	if err := r.startGuard(m.name, g); err != nil {
		return guardedAnswer{err: err}
	}
	if err := r.keepChange(m, kept, found); err != nil {
		g.proxy.Close()
		return guardedAnswer{err: err}
	}
	// The policy given wins over one the name had before.
	delete(r.a.retired, m.name)
	w, _, err := r.makeEntry(m.name, g)
	if err != nil {
		g.proxy.Close()
		return guardedAnswer{err: err}
	}
	m.net.log(r.log.Info().Str("world", m.name)).Str("guard", g.proxy.Addr()).Msg("world's network guard started")
	if r.running {
		r.ensure(w, nil) // its first client finds its context made
	}
	return guardedAnswer{made: true}
}

// startGuard starts a world's proxy: on its former port if it had one and
// that is free, else on any.
func (r *run) startGuard(name string, g *worldGuard) error {
	spec := guard.Spec{World: name, Policy: g.net.Policy, Upstream: g.net.Upstream, Addr: "127.0.0.1:0", Log: r.log}
	if on := r.a.spec.OnHost; on != nil {
		spec.OnHost = func(host string, c guard.HostCount) { on(name, host, c) }
	}
	if g.port != 0 {
		spec.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(g.port))
		p, err := guard.Start(spec)
		if err == nil {
			g.proxy = p
			return nil
		}
		r.log.Warn().Err(err).Str("world", name).Msg("the world's guard takes another port")
		spec.Addr = "127.0.0.1:0"
	}
	p, err := guard.Start(spec)
	if err != nil {
		return err
	}
	g.proxy, g.port = p, p.Port()
	return nil
}

// contextParams are Target.createBrowserContext's parameters for the
// world: its guard as the proxy, loopback not bypassed; nil without a
// policy. A guard closed by a former Serve starts again first.
func (r *run) contextParams(w *world) (map[string]any, error) {
	g := w.guard
	if g == nil {
		return nil, nil
	}
	if g.proxy == nil {
		if err := r.startGuard(w.Name(), g); err != nil {
			return nil, fmt.Errorf("starting the network guard of world %s: %w", w.Name(), err)
		}
		r.publishGuard(w)
	}
	return map[string]any{"proxyServer": g.proxy.URL(), "proxyBypassList": BypassNone}, nil
}

// closeGuard stops the world's proxy (its connections end with it).
func (w *world) closeGuard() {
	if w.guard == nil || w.guard.proxy == nil {
		return
	}
	_ = w.guard.proxy.Close()
	w.guard.proxy = nil
}

// closeGuards stops every guard: the actor's Serve ends.
func (r *run) closeGuards() {
	for _, w := range r.a.book {
		w.closeGuard()
	}
}

func (w *world) policyInfo() *PolicyInfo {
	if w.guard == nil {
		return nil
	}
	info := w.guard.net.info()
	if w.guard.proxy != nil {
		info.Counts = w.guard.proxy.Counts()
	}
	return info
}

// worldProxy is what the relays of a guarded world's clients read without
// a mailbox: the guard they put into a context a client makes inside the
// world (Target.createBrowserContext), and the world's doors to the
// machine (doors.go).
type worldProxy struct {
	server string
	doors  Doors
}

// Proxy is the world's guard as a proxyServer, with the bypass list a
// context of the world takes; "" when the world has no policy. Relays
// read it for every Target.createBrowserContext of the world's clients.
func (w *World) Proxy() (server, bypass string) {
	if p := w.proxy.Load(); p != nil {
		return p.server, BypassNone
	}
	return "", ""
}

// reopenGuards starts again the guards a former Serve closed: a context
// of the world may still run in the browser with the guard's port as its
// proxy (until then its requests fail: closed, never open).
func (r *run) reopenGuards() {
	for _, w := range r.a.book {
		if w.guard == nil || w.guard.proxy != nil {
			continue
		}
		if err := r.startGuard(w.Name(), w.guard); err != nil {
			r.log.Error().Err(err).Str("world", w.Name()).Msg("the world's network guard did not start again: its requests fail")
			continue
		}
		r.publishGuard(w)
	}
}

// log adds the policy and the upstream (without its credentials) to a
// log line.
func (n Network) log(e *zerolog.Event) *zerolog.Event {
	e = e.Strs("allowHosts", n.Policy.AllowHosts()).Strs("denyHosts", n.Policy.DenyHosts())
	if n.Upstream != nil {
		e = e.Str("upstreamProxy", n.Upstream.Redacted())
	}
	if len(n.Files) > 0 {
		e = e.Strs("allowFiles", n.Files)
	}
	return e
}
