package chromium

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/multiplex"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/transport"
)

// UsersBrowser is the Launcher of the browser the user runs on Profile
// and allowed remote debugging on (Chrome 144+: chrome://inspect/#remote-debugging,
// or a browser started with a debugging port): cdpvisor attaches to it
// over one websocket, carries every client on it, and never launches or
// stops it. Each attach is a connection the user may be asked to allow,
// so there is one for as long as the browser runs.
type UsersBrowser struct {
	Launcher
	Profile string
}

// usersBrowserPoll is how often its DevToolsActivePort is looked for.
const usersBrowserPoll = 200 * time.Millisecond

// Start attaches to the user's browser, waiting for it up to the launch
// time-out (opts.ReadyLimit): it may not be started yet, or the user not
// have allowed remote debugging yet.
func (u UsersBrowser) Start(ctx context.Context, opts launch.Options, _ func(string)) (*launch.Process, error) {
	ctx, cancel := context.WithTimeout(ctx, opts.ReadyLimit())
	defer cancel()
	tick := time.NewTicker(usersBrowserPoll)
	defer tick.Stop()
	var last error
	for {
		p, err := u.attach(ctx, opts)
		if err == nil {
			return p, nil
		}
		last = err
		select {
		case <-tick.C:
		case <-ctx.Done():
			return nil, u.absent(opts, last)
		}
	}
}

func (u UsersBrowser) absent(opts launch.Options, last error) error {
	err := fmt.Errorf("%w: none allowed remote debugging on %s within %s (%v)", launch.ErrNotRunning, u.Profile, opts.ReadyLimit(), last)
	return remedy.With(err, remedy.Say(fmt.Sprintf(
		"start %s and allow remote debugging at chrome://inspect/#remote-debugging (or start it with --remote-debugging-port=0), then ask again: cdpvisor never starts it itself",
		opts.Browser.Type.Product())))
}

// attach connects once: DevToolsActivePort's port and browser path.
func (u UsersBrowser) attach(ctx context.Context, opts launch.Options) (*launch.Process, error) {
	port, path, err := activeEndpoint(u.Profile)
	if err != nil {
		return nil, err
	}
	ws, err := transport.DialBrowser(ctx, "ws://127.0.0.1:"+strconv.Itoa(port)+path, transport.MaxMessageSize)
	if err != nil {
		return nil, err
	}
	f := launch.Facts{Browser: opts.Browser, HostPort: multiplex.Host, Port: port, UserDataDir: u.Profile}
	if found, err := launch.LocalBrowsersOn(u.Profile); err == nil && len(found) == 1 {
		f.Pid, f.Args = found[0].Pid, found[0].Args
	}
	schema, resolve := executableSchema(f)
	conn, err := multiplex.Start(ctx, ws, multiplex.Spec{Log: opts.Log, Schema: portSchema(port, schema)})
	if err != nil {
		return nil, err
	}
	resolve()
	f.WSURL, f.Reach = conn.BrowserURL(), conn
	if v := conn.Version().Product; v != "" {
		f.Browser.Version = v
	}
	watch := func(stop <-chan struct{}) {
		select {
		case <-conn.Done(): // the browser closed, or took its permission back
		case <-stop:
			conn.Close() // let go: the browser runs on
		}
	}
	return launch.Attached(f, watch, launch.LocalIdentity), nil
}

// activeEndpoint reads <profile>/DevToolsActivePort: the port on its
// first line, the browser socket's path on its second.
func activeEndpoint(profile string) (int, string, error) {
	data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if err != nil {
		return 0, "", err
	}
	first, second, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	port, err := strconv.Atoi(strings.TrimSpace(first))
	path := strings.TrimSpace(second)
	if err != nil || port <= 0 || port > 65535 || !strings.HasPrefix(path, "/devtools/browser/") {
		return 0, "", fmt.Errorf("unreadable DevToolsActivePort in %s", profile)
	}
	return port, path, nil
}
