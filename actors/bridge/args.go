package bridge

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Args is a Chrome command line as the bridge reads it: the flags it
// interprets, its own flags, and everything else, passed on to the browser.
type Args struct {
	Pipe         bool     // --remote-debugging-pipe
	Port         int      // --remote-debugging-port; -1 when absent
	Address      string   // --remote-debugging-address
	AllowOrigins []string // --remote-allow-origins
	UserDataDir  string   // --user-data-dir: the identity of the browser to reuse
	Headless     bool     // --headless[=…]
	BrowserArgs  []string // passed on to a launched browser

	BridgePort  int    // --bridge-port; -1 when absent
	Coordinator bool   // --coordinator or CDPVISOR_COORDINATOR=auto
	Browser     string // --browser or CDPVISOR_BROWSER: the real browser to launch
	Install     string // --install DIR: create DIR/chrome and exit
	// Windows: --windows or CDPVISOR_WINDOWS=1; inside WSL, the real
	// browser is a Windows one.
	Windows bool
	// DownloadDir: --download-dir or CDPVISOR_DOWNLOAD_DIR; where the
	// downloads of a browser of the bridge's own land ("": the default).
	DownloadDir string
	// HangTimeout: --hang-timeout or CDPVISOR_HANG_TIMEOUT (default 10s, 0
	// disables): a launched browser silent this long is killed as hung.
	HangTimeout time.Duration
}

// DefaultHangTimeout is the hang timeout when none is given.
const DefaultHangTimeout = 10 * time.Second

// ParseArgs reads a Chrome command line. Chrome's own flags take the
// --name[=value] form; the bridge's (--bridge-port, --browser, --install)
// also take their value as the next argument.
func ParseArgs(args []string, getenv func(string) string) (Args, error) {
	a := Args{Port: -1, BridgePort: -1, Browser: getenv("CDPVISOR_BROWSER"), HangTimeout: DefaultHangTimeout, DownloadDir: getenv("CDPVISOR_DOWNLOAD_DIR")}
	if v := getenv("CDPVISOR_HANG_TIMEOUT"); v != "" {
		d, err := parseHangTimeout("CDPVISOR_HANG_TIMEOUT", v)
		if err != nil {
			return a, err
		}
		a.HangTimeout = d
	}
	a.Coordinator = strings.EqualFold(getenv("CDPVISOR_COORDINATOR"), "auto")
	a.Windows = getenv("CDPVISOR_WINDOWS") == "1"
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, value, hasValue, isFlag := proc.SplitFlag(arg)
		if !isFlag {
			a.BrowserArgs = append(a.BrowserArgs, arg) // a URL to open, or a switch Chrome reads itself
			continue
		}
		own := func() (string, error) { // the bridge's flags: --x=v or --x v
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", arg)
			}
			i++
			return args[i], nil
		}
		var err error
		switch name {
		case "remote-debugging-pipe":
			if hasValue && value != "" && value != "json" {
				return a, fmt.Errorf("--remote-debugging-pipe=%s: only the JSON pipe protocol is supported", value)
			}
			a.Pipe = true
		case "remote-debugging-port":
			a.Port, err = parsePort(arg, value, true)
		case "remote-debugging-address":
			a.Address = value
		case "remote-allow-origins":
			for _, o := range strings.Split(value, ",") {
				if o = strings.TrimSpace(o); o != "" {
					a.AllowOrigins = append(a.AllowOrigins, o)
				}
			}
		case "user-data-dir":
			a.UserDataDir = value
		case "headless":
			a.Headless = true
			a.BrowserArgs = append(a.BrowserArgs, arg)
		case "bridge-port":
			var v string
			if v, err = own(); err == nil {
				a.BridgePort, err = parsePort("--bridge-port", v, true)
			}
		case "coordinator":
			a.Coordinator = true
		case "windows":
			a.Windows = true
		case "browser":
			a.Browser, err = own()
		case "install":
			a.Install, err = own()
		case "download-dir":
			a.DownloadDir, err = own()
		case "hang-timeout":
			var v string
			if v, err = own(); err == nil {
				a.HangTimeout, err = parseHangTimeout("--hang-timeout", v)
			}
		default:
			a.BrowserArgs = append(a.BrowserArgs, arg)
		}
		if err != nil {
			return a, err
		}
	}
	if a.Address != "" && a.Address != "127.0.0.1" && a.Address != "localhost" && a.Address != "::1" {
		return a, fmt.Errorf("--remote-debugging-address=%s: the bridge listens on loopback only", a.Address)
	}
	return a, nil
}

func parseHangTimeout(what, value string) (time.Duration, error) {
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q: want a duration of 0 (no hang detection) or more, e.g. 10s", what, value)
	}
	return d, nil
}

func parsePort(what, value string, zeroOK bool) (int, error) {
	p, err := strconv.Atoi(value)
	if err != nil || p < 0 || p > 65535 || (p == 0 && !zeroOK) {
		return 0, fmt.Errorf("%s=%q: want a port from 0 (any free port) to 65535", what, value)
	}
	return p, nil
}

// ListensOnPort: without the pipe, the bridge serves the tool on the port
// the tool asked for.
func (a Args) ListensOnPort() bool { return !a.Pipe && a.Port >= 0 }

// BrowserPort picks the debugging port of a browser the bridge launches:
// --bridge-port, then CDPVISOR_BRIDGE_PORT, then the tool's own port when
// the bridge does not listen on it itself, then any free port (0).
func (a Args) BrowserPort(getenv func(string) string) (int, error) {
	if a.BridgePort >= 0 {
		return a.BridgePort, nil
	}
	if v := getenv("CDPVISOR_BRIDGE_PORT"); v != "" {
		return parsePort("CDPVISOR_BRIDGE_PORT", v, true)
	}
	if a.Port > 0 && !a.ListensOnPort() {
		return a.Port, nil
	}
	return 0, nil
}
