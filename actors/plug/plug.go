// Package plug is how a feature plugs into the coordinator, as caddy's
// modules plug into caddy, in small: the coordinator asks each feature it
// was built with what it brings, and names none of them. A Feature brings
// its actors; what else it brings it says by implementing the interfaces
// below, each checked once when the coordinator is built.
package plug

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Feature is a capability the coordinator runs: its actors, served under
// the coordinator's supervisor before any instance (none: nil).
type Feature interface {
	Services() []suture.Service
}

// Mounter serves HTTP on every endpoint: its mounts, routed by the proxy
// after the Host check and the token.
type Mounter interface {
	Mounts() []proxy.Mount
}

// StageOf makes a feature's stage of one world client's relay (the world,
// the relay's id); nil: none for that client.
type StageOf = func(ctx context.Context, world string, id int64) relay.Stage

// Stager has a part in the relay of each world client of an instance: its
// stages' makers, in the order they run.
type Stager interface {
	Stages(inst Instance) []StageOf
}

// InstanceWatcher follows the instances: told of each one once it serves,
// and once it closed.
type InstanceWatcher interface {
	InstanceMade(ctx context.Context, inst Instance) error
	InstanceClosed(ctx context.Context, id string)
}

// WorldHooker has a part in an instance's world requests (worldapi.Hooks:
// what an open asked of it, a world ended, what a world's status shows).
type WorldHooker interface {
	WorldHooks(inst Instance) worldapi.Hooks
}

// ClientCounter hears how many client connections an instance's endpoint
// serves, whenever it changes.
type ClientCounter interface {
	SetClients(instance string, n int)
}

// Instance is an instance as a feature sees it.
type Instance struct {
	ID        string
	Default   bool
	Endpoint  string
	Browser   *browser.Actor
	Worlds    *worlds.Actor // nil: no worlds (a Firefox instance)
	Downloads *downloads.Actor
	// Command says which command a wrap --isolate runs in a world, by the
	// world's name; nil or "": none known.
	Command func(world string) string
}

// Actors is a feature that brings actors alone (the kept worlds' files,
// the leases, the watchdog).
type Actors []suture.Service

func (s Actors) Services() []suture.Service { return s }

// Reporter adds what a feature knows of an instance to its status
// (coordinator_status, status --json), under the feature's key; ok false:
// nothing to add.
type Reporter interface {
	Report(ctx context.Context, instance string) (key string, v any, ok bool)
}

// Readiness has a say in the coordinator's readiness (/health/ready): not
// ready, with why, while the feature cannot take new clients (full).
type Readiness interface {
	Ready(ctx context.Context) (ready bool, why string)
}

// MetricsSource brings metrics of its own to /metrics.
type MetricsSource interface {
	Collectors() []prometheus.Collector
}
