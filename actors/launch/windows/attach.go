package windows

import (
	"context"
	"fmt"
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
	"github.com/cdpvisor/cdpvisor/transport"
)

// attach connects to a Windows browser already running on the profile (a
// Linux path through the drive mount): directly when WSL reaches its port,
// else through the Windows helper when powershell.exe is there.
func attach(ctx context.Context, sys launch.System, browser launch.Browser, profile string) (*launch.Process, error) {
	port, err := launch.ActivePort(profile)
	if err != nil {
		return nil, err
	}
	hostPort := "127.0.0.1:" + strconv.Itoa(port)
	var reach launch.Reach
	ws, err := launch.BrowserWS(ctx, hostPort)
	if err != nil {
		ps, psErr := wsl.FindPowerShell(sys.LookPath, sys.Exists, detect.WSLMounts(sys))
		if psErr != nil {
			return nil, fmt.Errorf("the Windows browser on %s (port %d) does not answer: %w", profile, port, err)
		}
		reach = NewReach(ps)
		if ws, err = launch.BrowserWSVia(ctx, launch.HTTPClient(reach, nil), hostPort); err != nil {
			return nil, fmt.Errorf("the Windows browser on %s (port %d) does not answer, directly or through the Windows helper: %w", profile, port, err)
		}
	}
	f := launch.Facts{Browser: browser, WSURL: ws, HostPort: hostPort, Port: port, UserDataDir: profile, Reach: reach}
	return launch.Attached(f, func(stop <-chan struct{}) { watchAttached(f, stop) }, identity), nil
}

// watchAttached returns once the attached browser is gone, or stop is
// closed. Reached directly, /json/version is asked every few hundred
// milliseconds, as for a Linux browser; through the Windows helper, where
// each request would start a powershell.exe, one websocket is held open
// instead and its end is the browser's.
func watchAttached(f launch.Facts, stop <-chan struct{}) {
	if f.Reach == nil {
		launch.PollUntilSilent(stop, f.HostPort)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // owned: ends the dial if stop comes first, or with ctx
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	defer cancel()
	conn, err := launch.DialWebSocket(ctx, f.Reach, f.WSURL, 1<<20)
	if err != nil {
		return
	}
	ended := make(chan struct{})
	go func() { // owned: ends when conn closes
		defer close(ended)
		m := transport.NewMessage()
		defer m.Release()
		for conn.Read(m) == nil {
		}
	}()
	select {
	case <-ended:
	case <-stop:
	}
	conn.Close(1000, "")
	<-ended
}
