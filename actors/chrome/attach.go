package chrome

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// attachPoll is how often an attached browser is checked for life: cdpvisor
// did not start it, so there is no process to wait for.
const attachPoll = 500 * time.Millisecond

// Attach connects to a browser already running on profile with a
// debugging port (its DevToolsActivePort answers). The Process it returns
// is never killed: Stop only lets go of it, and its profile is kept.
func Attach(ctx context.Context, browser Browser, profile string) (*Process, error) {
	port, err := activePort(profile)
	if err != nil {
		return nil, err
	}
	hostPort := "127.0.0.1:" + strconv.Itoa(port)
	ws, err := browserWS(ctx, hostPort)
	if err != nil {
		return nil, fmt.Errorf("the browser on %s (port %d) does not answer: %w", profile, port, err)
	}
	p := &Process{
		Facts:  Facts{Browser: browser, WSURL: ws, HostPort: hostPort, Port: port, UserDataDir: profile, Attached: true},
		exited: make(chan struct{}), stopPoll: make(chan struct{}),
	}
	if found, err := BrowsersUnder(profile); err == nil && len(found) == 1 {
		p.Pid = found[0].Pid
		p.Args = found[0].Args
	}
	go p.pollAttached()
	return p, nil
}

// StartOrAttach attaches to a browser already running on the user's
// profile, and launches one otherwise (always for a temporary profile).
func StartOrAttach(ctx context.Context, opts LaunchOptions, onStderr func(string)) (*Process, error) {
	if opts.UserDataDir != "" {
		dir, err := ProfileDir(opts.UserDataDir)
		if err != nil {
			return nil, err
		}
		opts.UserDataDir = dir
		if p, err := Attach(ctx, opts.Browser, opts.UserDataDir); err == nil {
			return p, nil
		}
	}
	return Start(ctx, opts, onStderr)
}

// pollAttached closes exited once the attached browser stops answering,
// or when Stop lets go of it.
func (p *Process) pollAttached() {
	defer close(p.exited)
	pollUntilSilent(p.stopPoll, p.HostPort)
}

// activePort reads the port Chromium wrote to <profile>/DevToolsActivePort
// ("<port>\n/devtools/browser/<id>").
func activePort(profile string) (int, error) {
	data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	port, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("unreadable DevToolsActivePort in %s", profile)
	}
	return port, nil
}

// browserWS asks /json/version for the browser websocket URL.
func browserWS(ctx context.Context, hostPort string) (string, error) {
	return browserWSVia(ctx, probeClient, hostPort)
}

// browserWSVia is browserWS with client.
func browserWSVia(ctx context.Context, client *http.Client, hostPort string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+hostPort+"/json/version", nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(body, &v); err != nil || v.WS == "" {
		return "", fmt.Errorf("/json/version answered %s without a websocket URL", resp.Status)
	}
	return v.WS, nil
}
