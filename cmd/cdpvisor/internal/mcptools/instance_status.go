package mcptools

import (
	"fmt"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// instanceStatus is an instance as `cdpvisor status --json` shows it.
func instanceStatus(is actors.InstanceStatus) state.InstanceStatus {
	b := is.Browser
	out := state.InstanceStatus{ID: is.ID, Endpoint: is.Endpoint, Port: is.Port, WS: is.WS, Protocol: is.Protocol,
		Clients: is.Clients, Browser: &b, DownloadDir: is.DownloadDir}
	if b.Running() {
		out.UptimeSeconds = time.Since(*b.StartedAt).Round(time.Second).Seconds()
	}
	return out
}

// instanceLine is an instance in a line of text.
func instanceLine(is actors.InstanceStatus, isDefault bool) string {
	var b strings.Builder
	b.WriteString(is.ID)
	if isDefault {
		b.WriteString(" (default)")
	}
	fmt.Fprintf(&b, ": endpoint %s, browser %s", is.Endpoint, is.Browser.State)
	if is.Browser.Pid != 0 || is.Browser.WindowsPid != 0 {
		fmt.Fprintf(&b, " (%s, generation %d, up %s)", is.Browser.PidText(), is.Browser.Generation, is.Uptime)
	}
	fmt.Fprintf(&b, ", %d client(s), %s %s", is.Clients, is.Browser.Browser.Type, is.Browser.Browser.Version)
	if ex := is.Browser.LastExit; ex != nil {
		fmt.Fprintf(&b, ", last exit: %s", ex.Cause)
	}
	fmt.Fprintf(&b, ", downloads in %s\n", is.DownloadDir)
	return b.String()
}
