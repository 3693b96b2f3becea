package launch

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

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// attachPoll is how often an attached browser is checked for life: cdpvisor
// did not start it, so there is no process to wait for.
const attachPoll = 500 * time.Millisecond

// Attach connects to a browser already running on profile with a
// debugging port (its DevToolsActivePort answers). The Process it returns
// is never killed: Stop only lets go of it, and its profile is kept.
func Attach(ctx context.Context, browser Browser, profile string) (*Process, error) {
	port, err := ActivePort(profile)
	if err != nil {
		return nil, err
	}
	hostPort := "127.0.0.1:" + strconv.Itoa(port)
	ws, err := BrowserWS(ctx, hostPort)
	if err != nil {
		return nil, fmt.Errorf("the browser on %s (port %d) does not answer: %w", profile, port, err)
	}
	f := Facts{Browser: browser, WSURL: ws, HostPort: hostPort, Port: port, UserDataDir: profile}
	if found, err := proc.BrowsersUnder(profile); err == nil && len(found) == 1 {
		f.Pid, f.Args = found[0].Pid, found[0].Args
	}
	watch := func(stop <-chan struct{}) { PollUntilSilent(stop, hostPort) }
	return Attached(f, watch, LocalIdentity), nil
}

// ActivePort reads the port Chromium wrote to <profile>/DevToolsActivePort
// ("<port>\n/devtools/browser/<id>").
func ActivePort(profile string) (int, error) {
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

// BrowserWS asks /json/version for the browser websocket URL.
func BrowserWS(ctx context.Context, hostPort string) (string, error) {
	return BrowserWSVia(ctx, probeClient, hostPort)
}

// BrowserWSVia is BrowserWS with client.
func BrowserWSVia(ctx context.Context, client *http.Client, hostPort string) (string, error) {
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
