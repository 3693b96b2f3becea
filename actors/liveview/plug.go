package liveview

import (
	"context"
	"fmt"

	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// What the live view brings to the coordinator (actors/plug): its actor,
// /ui on every endpoint, a hold stage in every world client's relay, and
// a view of every instance.
var (
	_ plug.Feature         = (*Actor)(nil)
	_ plug.Mounter         = (*Actor)(nil)
	_ plug.Stager          = (*Actor)(nil)
	_ plug.InstanceWatcher = (*Actor)(nil)
)

func (a *Actor) Services() []suture.Service { return []suture.Service{a} }

func (a *Actor) Mounts() []proxy.Mount { return []proxy.Mount{a.Mount()} }

func (a *Actor) Stages(inst plug.Instance) []plug.StageOf { return []plug.StageOf{a.Holds(inst.ID)} }

// InstanceMade shows the instance; the default one's page is where a
// person opens the live view, said once in the log.
func (a *Actor) InstanceMade(ctx context.Context, inst plug.Instance) error {
	if err := a.Watch(ctx, inst); err != nil {
		return fmt.Errorf("the live view does not show this instance: %w", err)
	}
	if inst.Default {
		a.spec.Log.Info().Str("live_view", inst.Endpoint+Path).Msg("live view: open it in a browser to watch and take over the agents' pages")
	}
	return nil
}

func (a *Actor) InstanceClosed(ctx context.Context, id string) { _ = a.Forget(ctx, id) }
