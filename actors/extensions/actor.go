// Package extensions is the ExtensionsActor: one per CDP instance, the
// book of the extensions its clients loaded into its browser through the
// endpoint (Extensions.loadUnpacked, as the relays hear Chromium answer
// it). The endpoint accepts the websockets of exactly those extensions
// (Origin chrome-extension://ID), and only while the browser that loaded
// them runs: Chromium forgets an extension loaded over CDP when it exits.
package extensions

import (
	"context"
	"strings"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// Browser is what the actor follows: a BrowserActor's events.
type Browser interface {
	Subscribe(ctx context.Context, ch chan<- browser.Event, delivery browser.Delivery) (func(), error)
}

// Spec configures an ExtensionsActor.
type Spec struct {
	Instance string
	Browser  Browser
	Log      zerolog.Logger
}

// Actor is the ExtensionsActor. Its book lives in Serve: an actor
// restarted by its supervisor starts with none (the endpoint then refuses
// extensions until a client loads them again, never the other way round).
type Actor struct {
	spec    Spec
	mailbox chan request
}

// New makes an ExtensionsActor; Serve runs it.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, mailbox: make(chan request)}
}

func (a *Actor) String() string { return "extensions " + a.spec.Instance }

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in handle.
type request interface{ isExtensionsRequest() }

// Messages the actor hears.
type (
	loaded struct {
		id  string
		gen int
	}
	uninstalled struct{ id string }
	allows      struct {
		id    string
		reply chan bool
	}
)

func (loaded) isExtensionsRequest()      {}
func (uninstalled) isExtensionsRequest() {}
func (allows) isExtensionsRequest()      {}

// Loaded: browser generation gen loaded extension id for a client.
func (a *Actor) Loaded(ctx context.Context, id string, gen int) error {
	return actor.Send(ctx, a.mailbox, request(loaded{id: id, gen: gen}))
}

// Uninstalled: a client uninstalled extension id.
func (a *Actor) Uninstalled(ctx context.Context, id string) error {
	return actor.Send(ctx, a.mailbox, request(uninstalled{id: id}))
}

// AllowsOrigin says whether origin is chrome-extension://ID of an
// extension a client loaded into the running browser. Any other origin is
// not this actor's to allow: false, without asking it.
func (a *Actor) AllowsOrigin(ctx context.Context, origin string) bool {
	id, ok := strings.CutPrefix(origin, "chrome-extension://")
	if !ok || !IsID(id) {
		return false
	}
	ok, err := actor.Ask(ctx, a.mailbox, func(r chan bool) request { return allows{id: id, reply: r} })
	return err == nil && ok
}

// IsID says s is an extension id as Chromium makes them: 32 letters a to p.
func IsID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range []byte(s) {
		if c < 'a' || c > 'p' {
			return false
		}
	}
	return true
}

// Serve runs the actor until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	events := make(chan browser.Event, 16)
	unsubscribe, err := a.spec.Browser.Subscribe(ctx, events, browser.Lossless)
	if err != nil {
		return err
	}
	defer browser.Leave(unsubscribe, events)
	b := newBook()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-events:
			b.onBrowser(ev)
		case m := <-a.mailbox:
			a.handle(b, m)
		}
	}
}

func (a *Actor) handle(b *book, m request) {
	switch m := m.(type) {
	case loaded:
		if b.load(m.id, m.gen) {
			a.spec.Log.Info().Str("extension", m.id).Int("generation", m.gen).Msg("a client loaded an extension: its websockets are accepted")
		}
	case uninstalled:
		b.uninstall(m.id)
	case allows:
		m.reply <- b.has(m.id)
	default:
		actor.Unknown(a.spec.Log, a.String(), m)
	}
}
