package mcptools

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// stopArgs are coordinator_stop_browser's arguments.
type stopArgs struct {
	Instance any `json:"instance"`
}

// stoppedAnswer is coordinator_stop_browser's structured answer. Fields in
// the order of their JSON names.
type stoppedAnswer struct {
	Endpoint string `json:"endpoint"`
	Instance string `json:"instance"`
	State    string `json:"state"`
}

// stopBrowser is coordinator_stop_browser: stop an instance's browser; its
// endpoint stays.
func stopBrowser(d deps) server.ServerTool {
	def := toolDef{
		name: "coordinator_stop_browser", title: "Stop the browser",
		description: "Stop an instance's browser; its clients are disconnected. The endpoint stays; the next client request launches a browser again.",
		params:      []param{instanceParam},
		destructive: true, idempotent: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args stopArgs) (*mcp.CallToolResult, error) {
		ref, err := instanceRef("instance", args.Instance)
		if err != nil {
			return toolError(def.name, err)
		}
		inst, err := d.c.StopBrowser(ctx, ref)
		if err != nil {
			return refError(def.name, "instance", err)
		}
		return result(stoppedAnswer{Endpoint: inst.Proxy.Endpoint(), Instance: inst.ID, State: "idle"},
			fmt.Sprintf("stopped the browser of %s; %s stays up and the next request launches a browser again", inst.ID, inst.Proxy.Endpoint()))
	})
}
