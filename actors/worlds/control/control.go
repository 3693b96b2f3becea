// Package control is the worlds' surface on an instance's endpoint: the
// world requests (worldapi.Path) and what the coordinator asks of them, a
// world's storage state and journal under its path, each world's port of
// its own (Ports), and a world as the scope the proxy serves at
// /context/NAME (Scopes). The ProxyActor mounts it: the proxy routes and
// checks peers; what a world is, is this room's.
package control

import (
	"context"
	"errors"
	"net/http"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Spec configures the worlds' surface on one instance's endpoint.
type Spec struct {
	// Worlds is the instance's WorldsActor; nil: it has no worlds (a
	// Firefox instance), and the world requests are refused.
	Worlds *worlds.Actor
	// Browser is the instance's browser (a seed from the user's browser
	// connects to it first).
	Browser relay.BrowserSource
	// Endpoint is the endpoint it is mounted on, http://127.0.0.1:PORT.
	Endpoint string
	// Ports gives every world a port of its own (a loopback endpoint; under
	// a token, beyond loopback, worlds keep the path form).
	Ports bool
	// Stages make, in their order, the stages of each world client's relay
	// (relay.Stage: the journal's tap, a human's hold); a maker gives nil
	// when it has none for that client (id: its relay's).
	Stages []func(ctx context.Context, world string, id int64) relay.Stage
	// Journal keeps each world's record of what its clients did, read at
	// /context/NAME/journal; nil: not kept.
	Journal *journal.Actor
	// Hooks are the features' parts in the world requests (worldapi.Hooks),
	// called in their order.
	Hooks []worldapi.Hooks
	// Words says the fixes of the refusals that carry theirs in the answer
	// (a full instance's); nil: plain.
	Words remedy.Words
	Log   zerolog.Logger
}

// Control is the worlds' surface on one endpoint. Immutable: the worlds
// are the WorldsActor's, their ports the Ports actor's.
type Control struct {
	spec Spec
	// portAsks is the Ports actor's mailbox; nil without ports.
	portAsks chan portAsk
}

// New makes the worlds' surface; Ports gives it its ports once the proxy
// that serves the worlds is made.
func New(spec Spec) *Control {
	c := &Control{spec: spec}
	if spec.Ports && spec.Worlds != nil {
		c.portAsks = make(chan portAsk)
	}
	return c
}

// ErrNoWorlds refuses the world requests of an endpoint that has no
// worlds (a Firefox instance's).
var ErrNoWorlds = errors.New("this endpoint has no worlds: a world is a browser context of a Chromium-family browser over CDP, and this instance runs Firefox over WebDriver BiDi")

// ready refuses an operation on the world called name: this endpoint has
// no worlds, or no world can have that name. The name is checked here,
// once: the world requests and the coordinator's callers both come
// through the methods that take one.
func (c *Control) ready(name string) error {
	if c.spec.Worlds == nil {
		return ErrNoWorlds
	}
	return worlds.CheckName(name)
}

// Summaries are the worlds as the WorldsActor lists them: name, clients,
// pages, what each keeps.
func (c *Control) Summaries(ctx context.Context) ([]worlds.Summary, error) {
	if c.spec.Worlds == nil {
		return nil, ErrNoWorlds
	}
	return c.spec.Worlds.List(ctx)
}

// Scopes are the worlds as the proxy serves them; nil without worlds.
func (c *Control) Scopes() proxy.Scopes {
	if c.spec.Worlds == nil {
		return nil
	}
	return scopes{c}
}

// Mounts are the world requests (worldapi.Path) and a world's storage
// state and journal, under its path alone: a world's own port is its CDP
// endpoint, no more.
func (c *Control) Mounts() []proxy.Mount {
	return []proxy.Mount{
		{Path: worldapi.Path, Under: true, Handler: http.HandlerFunc(c.serveWorldRequest)},
		{Match: isWorldOwnPath, Handler: http.HandlerFunc(c.serveWorldOwnPath)},
	}
}

// PathEndpoint is the path form of the world called name's endpoint:
// http://127.0.0.1:PORT/context/NAME.
func (c *Control) PathEndpoint(name string) string {
	return c.spec.Endpoint + worldapi.PathPrefix + name
}
