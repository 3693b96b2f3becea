package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// restartArgs are coordinator_restart_browser's arguments.
type restartArgs struct {
	Force    bool `json:"force"`
	Instance any  `json:"instance"`
}

// restartBrowser is coordinator_restart_browser: stop and relaunch an
// instance's browser with the options of its last launch.
func restartBrowser(d deps) server.ServerTool {
	def := toolDef{
		name: "coordinator_restart_browser", title: "Restart the browser",
		description: "Stop and relaunch an instance's browser with the options of its last launch; clients are asked to reconnect (close code 1012). " +
			"Refused for a healthy browser started seconds ago unless force is true: retry the failing call first.",
		params: []param{
			{name: "force", want: "a boolean (true or false)", schema: map[string]any{"type": "boolean",
				"description": "true: restart even a healthy browser that started seconds ago (refused otherwise, to stop restart loops). Default false."}},
			instanceParam,
		},
		destructive: true,
	}
	return serverTool(def, func(ctx context.Context, req mcp.CallToolRequest, args restartArgs) (*mcp.CallToolResult, error) {
		ref, err := instanceRef("instance", args.Instance)
		if err != nil {
			return toolError(def.name, err)
		}
		r, err := d.c.RestartBrowser(ctx, ref, args.Force, progressOf(ctx, req))
		if err != nil {
			return refError(def.name, "instance", err)
		}
		return result(relaunchAnswer(r, "restarted"))
	})
}
