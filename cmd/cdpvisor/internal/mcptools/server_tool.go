package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// noArgs is the arguments of a tool that takes none: {} (or nothing).
type noArgs struct{}

// serverTool is a tool as the server holds it: its definition, and a
// handler that binds the call's arguments into A strictly (toolDef.bind)
// before handle sees them. A refused argument is the tool's error.
func serverTool[A any](d toolDef, handle mcp.TypedToolHandlerFunc[A]) server.ServerTool {
	return server.ServerTool{Tool: d.tool(), Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args A
		if err := d.bind(req, &args); err != nil {
			return toolError(d.name, err)
		}
		return handle(ctx, req, args)
	}}
}
