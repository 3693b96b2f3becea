package actors

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// SeedWorld makes a world of an instance ("" for the default one) if it is
// not open and gives it the seed, whole or not at all, answering its
// endpoints and what the seed gave (Seeded). Nothing is launched.
func (c *Coordinator) SeedWorld(ctx context.Context, ref, name string, seed worlds.Seed) (worldapi.Status, error) {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return worldapi.Status{}, err
	}
	return inst.Proxy.SeedWorld(ctx, name, seed)
}

// ExportWorld is the storage state of a world of an instance ("" for the
// default one), open or kept: Playwright's format.
func (c *Coordinator) ExportWorld(ctx context.Context, ref, name string) (storagestate.State, error) {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return storagestate.State{}, err
	}
	return inst.Proxy.ExportWorld(ctx, name)
}

// ForgetWorld closes a world of an instance ("" for the default one) if it
// is open and deletes its profile.
func (c *Coordinator) ForgetWorld(ctx context.Context, ref, name string) error {
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return err
	}
	return inst.Proxy.ForgetWorld(ctx, name) // its port closes with it
}
