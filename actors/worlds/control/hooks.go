package control

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Asked tells the features' hooks (Spec.Hooks) what a request asked of
// the world called name, once it is open: the HTTP request's body, or
// what a coordinator's caller (an MCP tool) was given. The first error
// ends it.
func (c *Control) Asked(ctx context.Context, name string, req worldapi.OpenRequest) error {
	if err := c.ready(name); err != nil {
		return err
	}
	for _, h := range c.spec.Hooks {
		if h.Opened != nil {
			if err := h.Opened(ctx, name, req); err != nil {
				return err
			}
		}
	}
	return nil
}

// describe has the features fill in their parts of a world's status.
func (c *Control) describe(name string, ws *worldapi.Status) {
	for _, h := range c.spec.Hooks {
		if h.Describe != nil {
			h.Describe(name, ws)
		}
	}
}
