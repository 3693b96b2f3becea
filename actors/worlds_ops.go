package actors

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Worlds lists the worlds of an instance ("" for the default one): each
// world's name, clients and pages.
func (c *Coordinator) Worlds(ctx context.Context, ref string) ([]worlds.Summary, error) {
	inst, err := c.worldsOf(ctx, ref)
	if err != nil {
		return nil, err
	}
	return inst.Worlds.List(ctx)
}

// CloseWorld closes a world of an instance ("" for the default one): its
// clients' connections close, its browser contexts are disposed with their
// pages, and its name is free again.
func (c *Coordinator) CloseWorld(ctx context.Context, ref, name string) error {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return err
	}
	return inst.Proxy.CloseWorld(ctx, name) // its port closes with it
}

// OpenWorld makes a world of an instance ("" for the default one), or
// finds it open, and answers its endpoints: its own port
// (http://127.0.0.1:WPORT) and its path. Nothing is launched.
func (c *Coordinator) OpenWorld(ctx context.Context, ref, name string) (worldapi.Status, error) {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return worldapi.Status{}, err
	}
	return inst.Proxy.OpenWorld(ctx, name)
}

// WorldStatuses lists the worlds of an instance ("" for the default one)
// with their endpoints, clients and pages.
func (c *Coordinator) WorldStatuses(ctx context.Context, ref string) ([]worldapi.Status, error) {
	inst, err := c.worldsOf(ctx, ref)
	if err != nil {
		return nil, err
	}
	return inst.Proxy.WorldStatuses(ctx)
}

// WorldEndpoint is the path form of a world's CDP endpoint, of an instance
// ("" for the default one): http://127.0.0.1:PORT/context/NAME. The world
// is made on its first use.
func (c *Coordinator) WorldEndpoint(ctx context.Context, ref, name string) (string, error) {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return "", err
	}
	return inst.Proxy.WorldEndpoint(name), nil
}

// instanceOfWorld is the instance ("" for the default one) whose world
// called name an operation asks for: one with worlds, and the name checked
// (worlds.CheckName), once, at the coordinator's boundary.
func (c *Coordinator) instanceOfWorld(ctx context.Context, ref, name string) (*Instance, error) {
	inst, err := c.worldsOf(ctx, ref)
	if err != nil {
		return nil, err
	}
	if err := worlds.CheckName(name); err != nil {
		return nil, err
	}
	return inst, nil
}

// worldsOf is the instance ("" for the default one) whose worlds an
// operation asks for: a CDP instance (a Firefox one has none).
func (c *Coordinator) worldsOf(ctx context.Context, ref string) (*Instance, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return nil, err
	}
	if inst.Worlds == nil {
		return nil, fmt.Errorf("instance %s runs %s over WebDriver BiDi: worlds are browser contexts of a Chromium-family browser over CDP", inst.ID, inst.Protocol)
	}
	return inst, nil
}
