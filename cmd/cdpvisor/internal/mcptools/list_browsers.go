package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// browsersAnswer is coordinator_list_browsers' structured answer.
type browsersAnswer struct {
	Browsers []detect.Listed `json:"browsers"`
}

// listBrowsers is coordinator_list_browsers: the browsers installed on
// the host.
func listBrowsers(d deps) server.ServerTool {
	def := toolDef{
		name: "coordinator_list_browsers", title: "List installed browsers",
		description: "List the browsers installed on this machine (Chrome, Edge, Chromium, Brave; Firefox too) with their " +
			"type, protocol (cdp, or bidi for Firefox), version and path; pass one as browser to browser_instance new, or to " +
			"coordinator_launch_browser for an instance of the same protocol.",
		readOnly: true, idempotent: true,
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, error) {
		found := detect.DetectWithVersions(ctx, d.sys)
		if len(found) == 0 {
			_, err := detect.Resolve(d.sys, "") // the error that says where it looked and what to install
			return toolError(def.name, err)
		}
		var b strings.Builder
		list := make([]detect.Listed, len(found))
		for i, br := range found {
			fmt.Fprintf(&b, "%s (%s, %s) %s at %s\n", br.Name, br.Type, br.Protocol(), br.Version, br.Path)
			list[i] = detect.ListedOf(br)
		}
		return result(browsersAnswer{Browsers: list}, b.String())
	})
}
