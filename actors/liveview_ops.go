package actors

import (
	"context"
	"slices"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/liveview"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

func newLiveView(log zerolog.Logger, onHold func(instance, world string, held bool)) *liveview.Actor {
	return liveview.New(liveview.Spec{OnHold: onHold, Log: log.With().Str("actor", "liveview").Logger()})
}

// LiveView is the live view's URL on the default endpoint (beyond
// loopback, add ?token=TOKEN).
func (c *Coordinator) LiveView() string { return c.def.Proxy.Endpoint() + liveview.Path }

// LiveViewActor is the coordinator's live view (tests, the benchmark).
func (c *Coordinator) LiveViewActor() *liveview.Actor { return c.liveView }

// showLive has the live view show an instance.
func (c *Coordinator) showLive(ctx context.Context, inst *Instance) {
	li := liveview.Instance{ID: inst.ID, Default: inst == c.def, Endpoint: inst.Proxy.Endpoint(), Browser: inst.Browser, Downloads: inst.Downloads,
		Worlds: inst.Worlds, Command: isolateCommand(c.cfg.StateDir, inst.ID, inst == c.def)}
	if err := c.liveView.Watch(ctx, li); err != nil && ctx.Err() == nil {
		c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("the live view does not show this instance")
	}
	if inst == c.def {
		c.cfg.Log.Info().Str("live_view", c.LiveView()).Msg("live view: open it in a browser to watch and take over the agents' pages")
	}
}

// RequestHuman asks a human through the live view to look at a world
// ("": the most recently active one) and waits for their answer until ctx
// ends. A world is looked for in every instance, the default one first.
func (c *Coordinator) RequestHuman(ctx context.Context, world, reason string) (liveview.HumanAnswer, error) {
	req := liveview.HumanRequest{Instance: c.def.ID, World: world, Reason: reason}
	if world != "" {
		for _, inst := range c.registry.All(ctx) {
			if inst.Worlds == nil {
				continue
			}
			list, err := inst.Worlds.List(ctx)
			if err == nil && slices.ContainsFunc(list, func(s worlds.Summary) bool { return s.Name == world }) {
				req.Instance = inst.ID
				break
			}
		}
	}
	return c.liveView.RequestHuman(ctx, req)
}
