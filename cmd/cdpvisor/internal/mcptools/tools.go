package mcptools

import (
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// tools are the server's tools, each made by its constructor from the
// file of its name (tools/list gives them sorted by name).
var tools = []func(deps) server.ServerTool{
	listBrowsers,
	coordinatorStatus,
	launchBrowser,
	stopBrowser,
	restartBrowser,
	browserInstance,
	browserContext,
	downloadList,
	downloadWait,
	requestHuman,
}

// deps is what the tools work with; none of it changes after New.
type deps struct {
	c       *actors.Coordinator
	sys     launch.System // the host, as main read it
	version string
	started time.Time // the coordinator's start when its state file cannot be read
}
