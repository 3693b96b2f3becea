package pacing

import (
	"context"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// sampleEvery is how often each browser's processor time is read: the
// pressure's browser_cpu_percent is its rate over the last span. A read
// is one pass over /proc (a few milliseconds with a crowd's renderers).
const sampleEvery = 2 * time.Second

// sampler reads each followed browser's processor time and tells the
// actor; a service of its own, so the actor never waits on /proc or on a
// BrowserActor.
type sampler struct{ a *Actor }

func (s sampler) String() string { return "pacing cpu sampler" }

func (s sampler) Serve(ctx context.Context) error {
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		list, err := actor.Ask(ctx, s.a.mailbox, func(r chan []plug.Instance) request { return askInstances{reply: r} })
		if err != nil {
			continue
		}
		for _, inst := range list {
			st, err := inst.Browser.Status(ctx)
			if err != nil || st.Pid == 0 {
				continue
			}
			cpu, err := proc.GroupCPU(st.Pid)
			if err != nil {
				continue // not on this system: browser_cpu_percent stays unknown
			}
			_ = actor.Send(ctx, s.a.mailbox, request(cpuSample{id: inst.ID, pid: st.Pid, at: time.Now(), cpu: cpu}))
		}
	}
}
