// Package mcptools is cdpvisor's MCP server: one tool per file, each
// declared once (its definition, its typed arguments and its handler
// together), over the coordinator's operations.
package mcptools

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// instructions tell the model what the server is for and how to treat a
// failing browser.
const instructions = "cdpvisor keeps a browser behind a stable CDP endpoint. Child MCP servers and " +
	"Playwright/Puppeteer connect to the endpoint of coordinator_status; the browser starts on first use " +
	"and is relaunched when it dies. Do not restart it at the first error: retry the call first. " +
	"Files the browser downloads land in each instance's download dir: download_list and download_wait find them."

// New is the MCP server over the coordinator c; sys is the host, read once
// by the caller; version is cdpvisor's, given in the server's info and in
// coordinator_status. Serving it (stdio) is the caller's.
func New(c *actors.Coordinator, sys launch.System, version string) *server.MCPServer {
	s := server.NewMCPServer("cdpvisor", version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		// A tool call is an agent at work: it keeps the browsers from the
		// idle stop.
		server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				c.Touch(ctx)
				return next(ctx, req)
			}
		}),
		server.WithInstructions(instructions),
	)
	d := deps{c: c, sys: sys, version: version, started: time.Now().UTC()}
	for _, newTool := range tools {
		s.AddTools(newTool(d))
	}
	return s
}
