package mcptools

import (
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/remedywords"
)

// toolError is an error the model should read and act on, prefixed with
// the tool (and the action, "browser_instance new"): the edge of MCP, where
// an error's fixes are said as tool arguments (remedywords.MCP), never as flags.
func toolError(tool string, err error) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(tool + ": " + remedy.Explain(err, remedywords.MCP)), nil
}

func toolErrorf(tool, format string, a ...any) (*mcp.CallToolResult, error) {
	return toolError(tool, fmt.Errorf(format, a...))
}

// refError is a failed instance lookup (or what followed it) for the
// argument arg ("instance" or "id").
func refError(tool, arg string, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, actors.ErrUnknownInstance) {
		hint := fmt.Sprintf("; pass %s as one of those ids or ports", arg)
		if arg == "instance" {
			hint += ", or leave instance out for the default instance"
		}
		return toolError(tool, fmt.Errorf("%w%s", err, hint))
	}
	return toolError(tool, err)
}
