package control

import (
	"context"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/wall"
)

// scopes are the worlds as the proxy serves them at /context/NAME and on
// their ports.
type scopes struct{ c *Control }

var (
	_ proxy.Scopes = scopes{}
	_ proxy.Scope  = (*scope)(nil)
	_ wall.World   = (*worlds.World)(nil)
)

func (s scopes) CheckName(name string) error { return worlds.CheckName(name) }

func (s scopes) Open(ctx context.Context, name string, ep browser.Endpoint) (proxy.Scope, error) {
	world, context, err := s.c.spec.Worlds.Open(ctx, name, ep)
	if err != nil {
		return nil, said(err)
	}
	return &scope{c: s.c, world: world, context: context, ep: ep}, nil
}

// scope is one world opened in one browser: its context there.
type scope struct {
	c       *Control
	world   *worlds.World
	context string
	ep      browser.Endpoint
}

func (s *scope) Targets(ctx context.Context) ([]string, error) {
	targets, err := s.c.spec.Worlds.Targets(ctx, s.world, s.ep)
	if err != nil {
		return nil, said(err)
	}
	ids := make([]string, len(targets))
	for i, t := range targets {
		ids[i] = t.ID
	}
	return ids, nil
}

// RefuseNewPage is a guarded world's door, as its relays judge
// Target.createTarget; the journal keeps the denial.
func (s *scope) RefuseNewPage(url string) error {
	err := s.world.DoorURL(url)
	if err == nil {
		return nil
	}
	if j := s.c.spec.Journal; j != nil {
		j.Denied(s.world.Name(), "/json/new", url, guard.RuleDoors)
	}
	return fmt.Errorf("/json/new is refused in world %q: %w (rule: %s)", s.world.Name(), err, guard.RuleDoors)
}

func (s *scope) NewPage(ctx context.Context, url string) (string, error) {
	id, err := s.c.spec.Worlds.NewPage(ctx, s.world, s.ep, url)
	return id, said(err)
}

// Wall puts a client's relay into the world: the stages the world's
// features give its clients (the journal's tap, a human's hold), then,
// nearest the browser, the world's wall (CDP's: a BiDi client is not
// walled).
func (s *scope) Wall(ctx context.Context, spec *relay.Spec) {
	for _, stageOf := range s.c.spec.Stages {
		if st := stageOf(ctx, s.world.Name(), spec.ID); st != nil {
			spec.Stages = append(spec.Stages, st)
		}
	}
	if !spec.BiDi {
		spec.Log = spec.Log.With().Str("world", s.world.Name()).Logger()
		spec.Stages = append(spec.Stages, wall.New(s.world, s.context, s.ep.Generation))
	}
}

func (s *scope) Join(ctx context.Context, rl *relay.Actor) func() {
	if s.c.spec.Worlds.Joined(ctx, s.world, rl) != nil {
		return nil
	}
	return func() { s.c.spec.Worlds.Left(ctx, s.world, rl) }
}

// said tells the proxy what the worlds' errors say of the browser: gone
// (the request waits for the next one), or slow to answer; or that the
// instance has no room for another world.
func said(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, worlds.ErrNoAnswer):
		return proxy.SaidOf(proxy.ErrNoAnswer, err)
	case errors.Is(err, worlds.ErrBrowserGone):
		return proxy.SaidOf(proxy.ErrBrowserGone, err)
	case errors.Is(err, worlds.ErrFull):
		return proxy.SaidOf(proxy.ErrNoRoom, err)
	}
	return err
}
