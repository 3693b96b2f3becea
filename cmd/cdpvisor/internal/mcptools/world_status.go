package mcptools

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// instanceWorlds are an instance's open worlds as coordinator_status and
// browser_context list show them; none for a Firefox instance, whose
// endpoint serves WebDriver BiDi (a world is a browser context over CDP).
func instanceWorlds(ctx context.Context, d deps, id, protocol string) ([]state.WorldStatus, error) {
	if protocol == string(launch.ProtocolBiDi) {
		return nil, nil
	}
	list, err := d.c.Worlds(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]state.WorldStatus, 0, len(list))
	for _, w := range list {
		ep, err := d.c.WorldEndpoint(ctx, id, w.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, state.WorldStatus{Name: w.Name, Endpoint: ep, Clients: w.Clients, Pages: w.Pages})
	}
	return out, nil
}

// worldLine is a world in a line of text, under its instance's.
func worldLine(w state.WorldStatus) string {
	return fmt.Sprintf("  world %s at %s: %d client(s), %d page(s)\n", w.Name, w.Endpoint, w.Clients, w.Pages)
}
