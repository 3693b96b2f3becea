package actors

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// unservedInstance is an instance whose actors never run: enough for the
// registry, which only reads ids, ports and creation times.
func unservedInstance(t *testing.T, id string, created time.Time) *Instance {
	t.Helper()
	l, err := proxy.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return &Instance{ID: id, Proxy: proxy.New(proxy.Spec{Instance: id}, l), Created: created}
}

func serveRegistry(t *testing.T, g *Registry) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = g.Serve(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ctx
}

func TestRegistryLooksUpByIDPortAndAge(t *testing.T) {
	now := time.Now()
	def := unservedInstance(t, "inst_default", now)
	g := NewRegistry(zerolog.Nop(), def)
	ctx := serveRegistry(t, g)
	newer := unservedInstance(t, "inst_newer", now.Add(time.Second))
	older := unservedInstance(t, "inst_older", now.Add(-time.Second))
	for _, inst := range []*Instance{newer, older} {
		if got, err := g.Create(ctx, func([]*Instance) (*Instance, error) { return inst, nil }); err != nil || got != inst {
			t.Fatalf("create %s: %v", inst.ID, err)
		}
	}
	if got, ok := g.ByID(ctx, "inst_newer"); !ok || got != newer {
		t.Fatalf("by id: %v %v", got, ok)
	}
	if got, ok := g.ByPort(ctx, def.Proxy.Port()); !ok || got != def {
		t.Fatalf("by port: %v %v", got, ok)
	}
	if _, ok := g.ByID(ctx, "inst_nope"); ok {
		t.Fatal("an unknown id was found")
	}
	all := g.All(ctx)
	if len(all) != 3 || all[0] != older || all[1] != def || all[2] != newer {
		t.Fatalf("all: %v, want oldest first", ids(all))
	}
	if first, _ := g.First(ctx); first != older {
		t.Fatalf("first: %s, want the oldest", first.ID)
	}
	if removed, _ := g.Remove(ctx, "inst_older"); removed != older {
		t.Fatalf("remove returned %v", removed)
	}
	if removed, _ := g.Remove(ctx, "inst_older"); removed != nil {
		t.Fatal("removed twice")
	}
	if first, _ := g.First(ctx); first != def {
		t.Fatalf("first after removing the oldest: %s", first.ID)
	}
}

func TestRegistryCreateSeesExistingAndRefusesDuplicates(t *testing.T) {
	def := unservedInstance(t, "inst_default", time.Now())
	g := NewRegistry(zerolog.Nop(), def)
	ctx := serveRegistry(t, g)
	var seen int
	limit := errors.New("limit")
	if _, err := g.Create(ctx, func(existing []*Instance) (*Instance, error) { seen = len(existing); return nil, limit }); !errors.Is(err, limit) {
		t.Fatalf("a failing build: %v", err)
	}
	if seen != 1 {
		t.Fatalf("build saw %d instances, want 1", seen)
	}
	if _, err := g.Create(ctx, func([]*Instance) (*Instance, error) { return def, nil }); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a duplicate id: %v", err)
	}
	samePort := &Instance{ID: "inst_other", Proxy: def.Proxy}
	if _, err := g.Create(ctx, func([]*Instance) (*Instance, error) { return samePort, nil }); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Fatalf("a duplicate port: %v", err)
	}
	if n := len(g.All(ctx)); n != 1 {
		t.Fatalf("%d instances after refused creates, want 1", n)
	}
}

func ids(all []*Instance) []string {
	var out []string
	for _, i := range all {
		out = append(out, i.ID)
	}
	return out
}
