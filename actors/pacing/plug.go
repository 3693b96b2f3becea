package pacing

import (
	"context"
	"fmt"
	"time"

	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// What pacing brings to the coordinator: its actor and sampler, a load
// stage in every world client's relay, /cdpvisor/pressure on every
// endpoint, its figures in /metrics and coordinator_status, and its say in
// readiness.

func (a *Actor) Services() []suture.Service { return []suture.Service{a, sampler{a}} }

func (a *Actor) Stages(inst plug.Instance) []plug.StageOf {
	if inst.Worlds == nil {
		return nil // a Firefox instance: no worlds, no CDP loads
	}
	return []plug.StageOf{a.stageOf(inst.ID)}
}

func (a *Actor) Mounts() []proxy.Mount {
	return []proxy.Mount{{Path: PressurePath, Handler: pressureHandler{a}}}
}

func (a *Actor) InstanceMade(ctx context.Context, inst plug.Instance) error {
	done := make(chan struct{})
	if err := actor.Send(ctx, a.mailbox, request(follow{inst: inst, done: done})); err != nil {
		return fmt.Errorf("its loads are not paced: %w", err)
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *Actor) InstanceClosed(ctx context.Context, id string) {
	_ = actor.Send(ctx, a.mailbox, request(forget{id: id}))
}

// Report is the instance's pressure, in coordinator_status.
func (a *Actor) Report(ctx context.Context, instance string) (string, any, bool) {
	p, err := a.Pressure(ctx, instance)
	return "pressure", p, err == nil
}

// Ready: not while the default instance is full of worlds, so a load
// balancer sends new agents to another replica. It asks the worlds alone
// (a probe comes every few seconds: no browser round trip, no /proc).
func (a *Actor) Ready(ctx context.Context) (bool, string) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan figuresAnswer) request { return askFigures{ref: "", now: time.Now(), reply: r} })
	if err != nil || got.err != nil || got.inst.Worlds == nil {
		return true, "" // not served yet, or stopping: the coordinator's own reasons say so
	}
	open, most, err := got.inst.Worlds.Room(ctx)
	if err == nil && most > 0 && open >= most {
		return false, fmt.Sprintf("full: %d worlds are open, the most it allows", open)
	}
	return true, ""
}
