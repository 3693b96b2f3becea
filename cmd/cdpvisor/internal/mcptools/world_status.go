package mcptools

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// instanceWorlds are an instance's open worlds as coordinator_status and
// browser_context list show them; none for a Firefox instance, whose
// endpoint serves WebDriver BiDi (a world is a browser context over CDP).
func instanceWorlds(ctx context.Context, d deps, id, protocol string) ([]worldapi.Status, error) {
	if protocol == string(launch.ProtocolBiDi) {
		return nil, nil
	}
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return nil, err
	}
	return w.WorldStatuses(ctx)
}

// worldLine is a world in a line of text, under its instance's.
func worldLine(w worldapi.Status) string {
	kept := ""
	switch {
	case w.Kept && w.SavedAt != nil:
		kept = fmt.Sprintf("; kept (%d bytes, saved %s)", w.SavedBytes, w.SavedAt.UTC().Format(time.RFC3339))
	case w.Kept:
		kept = "; kept (not saved yet)"
	}
	if w.Recorded {
		kept += "; recorded"
	}
	if !w.Open && w.Kept {
		return fmt.Sprintf("  world %s, not open (%s makes it again)%s%s\n", w.Name, w.PathEndpoint, kept, policyNote(w.Policy))
	}
	return fmt.Sprintf("  world %s at %s (%s): %d client(s), %d page(s)%s%s\n", w.Name, w.Endpoint, w.PathEndpoint, w.Clients, w.Pages, kept, policyNote(w.Policy))
}
