package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
)

// progressOf sends MCP progress notifications when the client asked for
// them (it sent a progress token).
func progressOf(ctx context.Context, req mcp.CallToolRequest) actors.Progress {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	token, srv, n := req.Params.Meta.ProgressToken, server.ServerFromContext(ctx), 0
	return func(step string) {
		n++
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": n, "message": step,
		})
	}
}
