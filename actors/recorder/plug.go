package recorder

import (
	"context"

	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// What the recorder brings to the coordinator (actors/plug): its actor, a
// tap in every world client's relay, its sessions on each instance's
// browser, its HTTP surface, and its part in the world requests (the
// record switch). Its hooks (HoldHook, HumanHook, DownloadHook) are given
// to the features it hears of as they are made.
var (
	_ plug.Feature         = (*Actor)(nil)
	_ plug.Stager          = (*Actor)(nil)
	_ plug.InstanceWatcher = (*Actor)(nil)
	_ plug.Mounter         = (*Actor)(nil)
	_ plug.WorldHooker     = (*Actor)(nil)
)

func (a *Actor) Services() []suture.Service { return []suture.Service{a} }

func (a *Actor) Stages(inst plug.Instance) []plug.StageOf {
	return []plug.StageOf{a.Taps(inst.Command)}
}

func (a *Actor) InstanceMade(ctx context.Context, inst plug.Instance) error {
	if !a.send(ctx, instanceMade{inst: inst}) {
		return ctx.Err()
	}
	return nil
}

func (a *Actor) InstanceClosed(ctx context.Context, id string) {
	a.send(ctx, instanceClosed{id: id})
}

func (a *Actor) Mounts() []proxy.Mount {
	return []proxy.Mount{{Match: isRecordingPath, Handler: a}}
}

func (a *Actor) WorldHooks(plug.Instance) worldapi.Hooks {
	return worldapi.Hooks{
		Opened: func(ctx context.Context, name string, req worldapi.OpenRequest) error {
			if req.Record == nil {
				return nil
			}
			return a.SetSwitch(ctx, name, *req.Record)
		},
		Ended:    a.Ended,
		Describe: func(name string, s *worldapi.Status) { s.Recorded = a.Recorded(name) },
	}
}
