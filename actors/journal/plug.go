package journal

import (
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// What the journal brings to the coordinator (actors/plug): its actor and
// a tap in every world client's relay (its hooks, HostHook, HoldHook and
// DownloadHook, are given to the features it hears of as they are made).
var (
	_ plug.Feature = (*Actor)(nil)
	_ plug.Stager  = (*Actor)(nil)
)

func (a *Actor) Services() []suture.Service { return []suture.Service{a} }

func (a *Actor) Stages(inst plug.Instance) []plug.StageOf {
	return []plug.StageOf{a.Taps(inst.Command)}
}
