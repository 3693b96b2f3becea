package mcptools

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// launchAnswer is the structured answer of a launch or restart: the
// browser and where to connect. Fields in the order of their JSON names.
type launchAnswer struct {
	BiDiEndpoint string         `json:"bidi_endpoint,omitempty"`
	Browser      launch.Browser `json:"browser"`
	Endpoint     string         `json:"endpoint"`
	Generation   int            `json:"generation"`
	Headless     bool           `json:"headless"`
	Instance     string         `json:"instance"`
	// InstanceCreated is given only for a browser launched behind an
	// endpoint of its own (actors.FamilyLaunch): whether that instance
	// was made for it.
	InstanceCreated    *bool           `json:"instance_created,omitempty"`
	PID                int             `json:"pid"`
	Protocol           launch.Protocol `json:"protocol"`
	ReconnectedClients int             `json:"reconnected_clients"`
	TemporaryProfile   bool            `json:"temporary_profile"`
	UserDataDir        string          `json:"user_data_dir"`
	WindowsPID         int             `json:"windows_pid"`
	WS                 string          `json:"ws"`
}

// relaunchAnswer is a launch's answer and its text; did is what happened
// ("launched", "restarted").
func relaunchAnswer(r actors.Relaunched, did string) (launchAnswer, string) {
	ep := r.Endpoint
	data := launchAnswer{
		BiDiEndpoint: bidiEndpoint(r.StableWS, r.Protocol), Browser: ep.Browser, Endpoint: r.Stable, Generation: ep.Generation,
		Headless: ep.Headless, Instance: ep.Instance, PID: ep.Pid, Protocol: r.Protocol, ReconnectedClients: r.Reconnected,
		TemporaryProfile: ep.TempProfile, UserDataDir: ep.UserDataDir, WindowsPID: ep.WindowsPid, WS: r.StableWS,
	}
	text := fmt.Sprintf("%s %s %s (%s, generation %d) for %s; %s", did, ep.Browser.Name, ep.Browser.Version, ep.PidText(), ep.Generation, ep.Instance,
		servesText(r.Stable, r.StableWS, r.Protocol))
	switch r.Reconnected {
	case 0:
	case 1:
		text += "; 1 connected client was asked to reconnect"
	default:
		text += fmt.Sprintf("; %d connected clients were asked to reconnect", r.Reconnected)
	}
	return data, text
}
