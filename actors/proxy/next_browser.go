package proxy

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// withBrowser runs use on the browser running now, launched if need be.
// A browser killed a moment ago is still on record until its BrowserActor
// hears of the exit (its pipe or port fails first): when use finds it
// gone, use runs once more on the browser that replaces it, which the
// BrowserActor launches once however many requests ask (Replace). So every
// request of the endpoint (/json/*, a websocket upgrade, a world's) that
// arrives while the browser is dying or relaunching waits for the next
// one, within the launch's timeout, as a request arriving later does.
// use answers nothing itself: it may run twice.
func (p *Actor) withBrowser(ctx context.Context, use func(browser.Endpoint) error) error {
	ep, err := p.spec.Browser.EnsureRunning(ctx)
	if err != nil {
		return &noBrowser{err: err}
	}
	err = use(ep)
	if err == nil || ctx.Err() != nil || !browserGone(err) {
		return err
	}
	p.spec.Log.Debug().Err(err).Int("generation", ep.Generation).Msg("the browser went under a request: it waits for the next one")
	if ep, err = p.spec.Browser.Replace(ctx, ep.Generation); err != nil {
		return &noBrowser{err: err}
	}
	return use(ep)
}

// browserGone says err is the browser's end, not its answer: its pipe
// closed, its port refuses or drops the connection, a scope's room knows
// it gone (ErrBrowserGone), or use said so (goneError). A browser that answered, even with
// an error, is not gone; nor is one that is slow to answer (replacing a
// busy browser would fail every request it was serving: hangs are for its
// BrowserActor's probe to judge).
func browserGone(err error) bool {
	var said *goneError
	var dial *transport.DialError
	switch {
	case errors.As(err, &said):
		return true
	case errors.Is(err, ErrNoAnswer), errors.As(err, &dial) && dial.Status != 0:
		return false
	case errors.Is(err, transport.ErrPipeClosed), errors.Is(err, ErrBrowserGone):
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
}

// What a scope's room says of a browser it asked (Scopes.Open): gone
// (the request waits for the next one), or slow to answer (not gone: a
// busy browser is its BrowserActor's probe's to judge).
var (
	ErrBrowserGone = errors.New("the browser went")
	ErrNoAnswer    = errors.New("the browser did not answer in time")
)

// SaidOf marks err, a scope's room's, as one of the two above or
// ErrNoRoom (kind), its words (and fixes) unchanged.
func SaidOf(kind, err error) error { return &saidError{kind: kind, err: err} }

type saidError struct{ kind, err error }

func (e *saidError) Error() string   { return e.err.Error() }
func (e *saidError) Unwrap() []error { return []error{e.kind, e.err} }

// goneError is a failure use takes for the browser's end whatever it is.
type goneError struct{ err error }

func (g *goneError) Error() string { return g.err.Error() }
func (g *goneError) Unwrap() error { return g.err }
