package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// coordinatorStatus is coordinator_status: the coordinator and every
// instance, as `cdpvisor status --json` shows them.
func coordinatorStatus(d deps) server.ServerTool {
	def := toolDef{
		name: "coordinator_status", title: "Coordinator status",
		description: "Show the coordinator (pid, version, state file) and each instance, the default one first: its stable " +
			"endpoint (CDP; WebDriver BiDi at /session for a Firefox instance), port, connected clients, download dir, its browser (state, type, version, pid, generation, uptime, last exit), " +
			"and its open worlds (name, endpoint, clients, pages; see browser_context), and its pressure (worlds, pages, page loads running and waiting their turn, " +
			"how long loads waited, the browser's CPU and memory, is_available: whether it takes a new world); live_view is the page where a human watches and takes over (see request_human). Launches nothing.",
		readOnly: true, idempotent: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, error) {
		st, err := d.c.Status(ctx)
		if err != nil {
			return toolError(def.name, err)
		}
		cs := d.statusOf(st)
		var b strings.Builder
		fmt.Fprintf(&b, "coordinator pid %d (cdpvisor %s), started %s, state file %s\n",
			cs.PID, cs.Version, cs.StartedAt.Local().Format(time.DateTime), cs.StateFile)
		fmt.Fprintf(&b, "live view (watch and take over the agents' pages): %s\n", cs.LiveView)
		for i, is := range st {
			b.WriteString(instanceLine(is, i == 0))
			// Best effort, as the rest of the status: an instance closed
			// meanwhile shows no worlds.
			cs.Instances[i].Worlds, _ = instanceWorlds(ctx, d, is.ID, is.Protocol)
			for _, w := range cs.Instances[i].Worlds {
				b.WriteString(worldLine(w))
			}
			// What the features know of it (the pressure: actors/pacing).
			if p, ok := d.c.Reports(ctx, is.ID)["pressure"]; ok {
				cs.Instances[i].Pressure, _ = json.Marshal(p)
				if s, ok := p.(fmt.Stringer); ok {
					b.WriteString("  " + s.String() + "\n")
				}
			}
		}
		return result(cs, b.String())
	})
}

// statusAnswer is coordinator_status's structured answer: the coordinator
// as `cdpvisor status --json` shows it, each instance with its worlds.
type statusAnswer = state.CoordinatorStatusOf[instanceWorldsStatus]

// instanceWorldsStatus is an instance as `cdpvisor status --json` shows
// it, and its open worlds (absent when it has none).
type instanceWorldsStatus struct {
	state.InstanceStatus
	Worlds []worldapi.Status `json:"worlds,omitempty"`
}

// statusOf is this coordinator as `cdpvisor status --json` shows it
// (state.CoordinatorStatus), from the coordinator itself; its instances'
// worlds not yet asked for.
func (d deps) statusOf(st []actors.InstanceStatus) statusAnswer {
	cs := statusAnswer{
		PID: os.Getpid(), PPID: os.Getppid(), StartedAt: d.started, Version: d.version,
		StateFile: d.c.StatePath(), Live: true, Instances: make([]instanceWorldsStatus, 0, len(st)), LiveView: d.c.LiveView(),
	}
	// The coordinator keeps its start time, parent and version in its
	// state file; status --json reads them there too.
	if f, err := state.Read(cs.StateFile); err == nil && f.PID == cs.PID {
		cs.PPID, cs.StartedAt, cs.Version = f.PPID, f.StartedAt, f.Version
	}
	for _, is := range st {
		cs.Instances = append(cs.Instances, instanceWorldsStatus{InstanceStatus: instanceStatus(is)})
	}
	return cs
}
