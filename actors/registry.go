package actors

import (
	"context"
	"crypto/rand"
	"fmt"
	"sort"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
)

// Registry maps instance ids to their handles and answers lookups: by id,
// by port, the first (oldest) one, and all.
type Registry struct {
	mailbox chan registryRequest
	byID    map[string]*Instance // touched only by Serve; kept across a restart of it
	log     zerolog.Logger
}

// NewRegistry makes a registry holding the given instances (the default
// one, so lookups find it from the start); it answers once served.
func NewRegistry(log zerolog.Logger, initial ...*Instance) *Registry {
	g := &Registry{mailbox: make(chan registryRequest), byID: map[string]*Instance{}, log: log}
	for _, inst := range initial {
		g.byID[inst.ID] = inst
	}
	return g
}

func (g *Registry) String() string { return "registry" }

// registryRequest is what the registry's mailbox carries: a closed set,
// the types below and no others, each with its case in Serve.
type registryRequest interface{ isRegistryRequest() }

func (registryCreate) isRegistryRequest() {}
func (registryRemove) isRegistryRequest() {}
func (registryFind) isRegistryRequest()   {}

type (
	registryCreate struct {
		build func(existing []*Instance) (*Instance, error)
		reply chan createResult
	}
	registryRemove struct {
		id    string
		reply chan *Instance
	}
	registryFind struct {
		all   bool
		id    string
		port  int
		reply chan []*Instance
	}
)

type createResult struct {
	inst *Instance
	err  error
}

// Create builds and registers an instance. build runs inside the registry,
// one at a time, so it can choose a port and check the limit against the
// instances that exist without racing another Create.
func (g *Registry) Create(ctx context.Context, build func(existing []*Instance) (*Instance, error)) (*Instance, error) {
	r, err := actor.Ask(ctx, g.mailbox, func(r chan createResult) registryRequest { return registryCreate{build: build, reply: r} })
	if err != nil {
		return nil, err
	}
	return r.inst, r.err
}

// Remove unregisters the instance with id and returns it (nil if unknown).
func (g *Registry) Remove(ctx context.Context, id string) (*Instance, error) {
	return actor.Ask(ctx, g.mailbox, func(r chan *Instance) registryRequest { return registryRemove{id: id, reply: r} })
}

// ByID looks an instance up by id.
func (g *Registry) ByID(ctx context.Context, id string) (*Instance, bool) {
	return g.one(ctx, registryFind{id: id})
}

// ByPort looks an instance up by its endpoint's port.
func (g *Registry) ByPort(ctx context.Context, port int) (*Instance, bool) {
	return g.one(ctx, registryFind{port: port})
}

// First is the oldest instance (the default one while it exists).
func (g *Registry) First(ctx context.Context) (*Instance, bool) {
	return g.one(ctx, registryFind{all: true})
}

// All returns every instance, oldest first.
func (g *Registry) All(ctx context.Context) []*Instance {
	return g.find(ctx, registryFind{all: true})
}

func (g *Registry) one(ctx context.Context, q registryFind) (*Instance, bool) {
	found := g.find(ctx, q)
	if len(found) == 0 {
		return nil, false
	}
	return found[0], true
}

func (g *Registry) find(ctx context.Context, q registryFind) []*Instance {
	found, _ := actor.Ask(ctx, g.mailbox, func(r chan []*Instance) registryRequest { q.reply = r; return q })
	return found
}

// Serve answers until ctx is done.
func (g *Registry) Serve(ctx context.Context) error {
	byID := g.byID
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-g.mailbox:
			switch m := m.(type) {
			case registryCreate:
				inst, err := m.build(findInstances(byID, registryFind{all: true}))
				if err == nil {
					err = addInstance(byID, inst)
				}
				m.reply <- createResult{inst: inst, err: err}
			case registryRemove:
				inst := byID[m.id]
				delete(byID, m.id)
				m.reply <- inst
			case registryFind:
				m.reply <- findInstances(byID, m)
			default:
				actor.Unknown(g.log, g.String(), m)
			}
		}
	}
}

func addInstance(byID map[string]*Instance, inst *Instance) error {
	if _, dup := byID[inst.ID]; dup {
		return fmt.Errorf("instance %s already exists", inst.ID)
	}
	for _, other := range byID {
		if other.Proxy.Port() == inst.Proxy.Port() {
			return fmt.Errorf("port %d is already used by instance %s", inst.Proxy.Port(), other.ID)
		}
	}
	byID[inst.ID] = inst
	return nil
}

func findInstances(byID map[string]*Instance, q registryFind) []*Instance {
	var out []*Instance
	for _, inst := range byID {
		if q.all || (q.id != "" && inst.ID == q.id) || (q.port != 0 && inst.Proxy.Port() == q.port) {
			out = append(out, inst)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// Instance is one browser behind one stable endpoint: a browser.Actor, its
// downloads.Actor and a proxy.Actor under their own sub-supervisor, so one crashing browser's
// restart backoff does not slow the others. The handle is immutable; the
// actors in it own their state.
type Instance struct {
	ID         string
	Browser    *browser.Actor
	Proxy      *proxy.Actor
	Downloads  *downloads.Actor
	Worlds     *worlds.Actor    // nil for a Firefox instance: worlds are CDP browser contexts
	Control    *control.Control // the worlds' surface on its endpoint (refusing them on a Firefox instance's)
	Supervisor *suture.Supervisor
	Created    time.Time
	// Protocol is what its endpoint serves, fixed at creation: CDP, or
	// WebDriver BiDi for a Firefox instance.
	Protocol launch.Protocol
	token    suture.ServiceToken // in the coordinator's tree, to remove it
	seen     plug.Instance       // the instance as its features see it
}

// NewInstanceID returns inst_<unix-ms>_<6 random [a-z0-9]>.
func NewInstanceID(now time.Time) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return fmt.Sprintf("inst_%d_%s", now.UnixMilli(), b[:])
}

// InstanceSupervisorSpec is the sub-supervisor's spec: its timeout leaves
// room for a browser's stop (grace, SIGKILL, wait).
func InstanceSupervisorSpec(hook suture.EventHook) suture.Spec {
	return suture.Spec{EventHook: hook, Timeout: 20 * time.Second}
}

// stateRecord is the instance as the state files list it.
func (i *Instance) stateRecord() state.Instance {
	return state.Instance{ID: i.ID, Port: i.Proxy.Port(), Endpoint: i.Proxy.Endpoint(), WS: i.Proxy.BrowserWS(),
		Protocol: string(i.Protocol), DownloadDir: i.Downloads.Dir()}
}
