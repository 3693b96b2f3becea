package actors

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
	"github.com/thejerf/suture/v4"
)

// Instance is one browser behind one stable endpoint: a browser.Actor, its
// downloads.Actor and a proxy.Actor under their own sub-supervisor, so one crashing browser's
// restart backoff does not slow the others. The handle is immutable; the
// actors in it own their state.
type Instance struct {
	ID         string
	Browser    *browser.Actor
	Proxy      *proxy.Actor
	Downloads  *downloads.Actor
	Worlds     *worlds.Actor    // nil for a Firefox instance: worlds are CDP browser contexts
	Control    *control.Control // the worlds' surface on its endpoint (refusing them on a Firefox instance's)
	Supervisor *suture.Supervisor
	Created    time.Time
	// Protocol is what its endpoint serves, fixed at creation: CDP, or
	// WebDriver BiDi for a Firefox instance.
	Protocol launch.Protocol
	token    suture.ServiceToken // in the coordinator's tree, to remove it
}

// NewInstanceID returns inst_<unix-ms>_<6 random [a-z0-9]>.
func NewInstanceID(now time.Time) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return fmt.Sprintf("inst_%d_%s", now.UnixMilli(), b[:])
}

// InstanceSupervisorSpec is the sub-supervisor's spec: its timeout leaves
// room for a browser's stop (grace, SIGKILL, wait).
func InstanceSupervisorSpec(hook suture.EventHook) suture.Spec {
	return suture.Spec{EventHook: hook, Timeout: 20 * time.Second}
}

// stateRecord is the instance as the state files list it.
func (i *Instance) stateRecord() state.Instance {
	return state.Instance{ID: i.ID, Port: i.Proxy.Port(), Endpoint: i.Proxy.Endpoint(), WS: i.Proxy.BrowserWS(),
		Protocol: string(i.Protocol), DownloadDir: i.Downloads.Dir()}
}
