package actors

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// GuardWorld makes a world of an instance ("" for the default one) with a
// network policy, or gives the guarded world open under that name the new
// one; made says it was new. A policy that cannot be read, an instance
// without worlds (Firefox), a world open without a policy, or a kept world
// keeping another policy without replace is refused before anything is
// made. An empty policy does nothing.
func (c *Coordinator) GuardWorld(ctx context.Context, ref, name string, policy worldapi.Policy, replace bool) (made bool, err error) {
	if policy.Empty() {
		return false, nil
	}
	inst, err := c.instanceOfWorld(ctx, ref, name)
	if err != nil {
		return false, err
	}
	return inst.Proxy.GuardWorld(ctx, name, policy, replace)
}
