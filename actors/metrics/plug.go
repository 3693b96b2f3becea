package metrics

import (
	"context"
	"fmt"
	"net/http"

	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// What the metrics bring to the coordinator (actors/plug): their actor,
// /metrics on every endpoint, the count of every instance's browsers and
// clients.
var (
	_ plug.Feature         = (*Actor)(nil)
	_ plug.Mounter         = (*Actor)(nil)
	_ plug.InstanceWatcher = (*Actor)(nil)
	_ plug.ClientCounter   = (*Actor)(nil)
	_ plug.Mounter         = Pprof{}
)

func (a *Actor) Services() []suture.Service { return []suture.Service{a} }

func (a *Actor) Mounts() []proxy.Mount { return []proxy.Mount{a.Mount()} }

func (a *Actor) InstanceMade(ctx context.Context, inst plug.Instance) error {
	if err := a.Watch(ctx, inst.Browser); err != nil {
		return fmt.Errorf("its browsers are not counted in the metrics: %w", err)
	}
	return nil
}

func (a *Actor) InstanceClosed(_ context.Context, id string) { a.Forget(id) }

// Pprof is the Go runtime's profiles on every endpoint (serve
// --debug-pprof): a mount, no actor.
type Pprof struct{}

func (Pprof) Services() []suture.Service { return nil }

func (Pprof) Mounts() []proxy.Mount {
	return []proxy.Mount{{Path: PprofPath, Under: true, Handler: http.HandlerFunc(serveProfile)}}
}
