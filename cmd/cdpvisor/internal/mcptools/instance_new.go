package mcptools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// newInstanceAnswer is browser_instance new's structured answer. Fields in
// the order of their JSON names.
type newInstanceAnswer struct {
	BiDiEndpoint string          `json:"bidi_endpoint,omitempty"`
	DownloadDir  string          `json:"download_dir"`
	Endpoint     string          `json:"endpoint"`
	ID           string          `json:"id"`
	Port         int             `json:"port"`
	Protocol     launch.Protocol `json:"protocol"`
	WS           string          `json:"ws"`
}

// newInstance is browser_instance new: an instance with its own endpoint;
// its browser starts on the first request.
func newInstance(ctx context.Context, d deps, tool string, b *string, headless *bool, port *float64, downloadDir *string) (*mcp.CallToolResult, error) {
	req := actors.InstanceRequest{Change: browser.Change{Browser: b, Headless: headless}}
	if downloadDir != nil {
		req.DownloadDir = strings.TrimSpace(*downloadDir) // "": the default
	}
	if port != nil {
		if *port < 1 || *port > 65535 || *port != math.Trunc(*port) {
			return toolErrorf(tool, "port %v: want an integer from 1 to 65535, or leave port out for a free one", *port)
		}
		req.Port = int(*port)
	}
	inst, err := d.c.NewInstance(ctx, req)
	switch {
	case err == nil:
	case req.Port != 0 && errors.Is(err, syscall.EADDRINUSE):
		if other, lookup := d.c.Instance(ctx, strconv.Itoa(req.Port)); lookup == nil {
			return toolErrorf(tool, "port %d is the endpoint of %s already; use that instance, or pass another port, or leave port out for a free one", req.Port, other.ID)
		}
		return toolError(tool, err)
	default:
		return toolError(tool, err)
	}
	endpoint, ws := inst.Proxy.Endpoint(), inst.Proxy.BrowserWS()
	data := newInstanceAnswer{
		BiDiEndpoint: bidiEndpoint(ws, inst.Protocol), DownloadDir: inst.Downloads.Dir(), Endpoint: endpoint,
		ID: inst.ID, Port: inst.Proxy.Port(), Protocol: inst.Protocol, WS: ws,
	}
	return result(data, fmt.Sprintf("created %s; %s (its browser starts on the first request; downloads land in %s)",
		inst.ID, servesText(endpoint, ws, inst.Protocol), inst.Downloads.Dir()))
}
