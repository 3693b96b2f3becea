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
	return d.c.WorldStatuses(ctx, id)
}

// worldLine is a world in a line of text, under its instance's.
func worldLine(w state.WorldStatus) string {
	return fmt.Sprintf("  world %s at %s (%s): %d client(s), %d page(s)\n", w.Name, w.Endpoint, w.PathEndpoint, w.Clients, w.Pages)
}
