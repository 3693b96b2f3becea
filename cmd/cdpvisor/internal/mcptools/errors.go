package mcptools

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors"
)

// The coordinator's errors are written for the command line: they name
// flags (--port, --max-instances, --user-data-dir …). A model calling a
// tool cannot pass a flag; it needs the tool and the argument to use next.
// toolError says the error in those terms. The actors have no sentinel for
// most of these cases, so their messages are matched here: errors_test.go
// produces each message from the actors themselves, so a reworded message
// fails the test rather than leaking a flag.

// toolError is an error the model should read and act on, prefixed with
// the tool (and the action, "browser_instance new").
func toolError(tool string, err error) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(tool + ": " + mcpWords(err.Error())), nil
}

func toolErrorf(tool, format string, a ...any) (*mcp.CallToolResult, error) {
	return toolError(tool, fmt.Errorf(format, a...))
}

// refError is a failed instance lookup (or what followed it) for the
// argument arg ("instance" or "id").
func refError(tool, arg string, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, actors.ErrUnknownInstance) {
		hint := fmt.Sprintf("; pass %s as one of those ids or ports", arg)
		if arg == "instance" {
			hint += ", or leave instance out for the default instance"
		}
		return toolError(tool, fmt.Errorf("%w%s", err, hint))
	}
	return toolError(tool, err)
}

// rewrites turn a command-line hint into an MCP one, most specific first.
var rewrites = []struct {
	re   *regexp.Regexp
	with string
}{
	// actors/proxy Listen: a port in use.
	{regexp.MustCompile(`port (\d+) on 127\.0\.0\.1 is already in use; choose another with --port \(0 picks a free one\) or stop what listens there(: .*)?`),
		"port $1 is in use; pass another port, or leave port out for a free one"},
	// actors/instances.go NewInstance: the instance limit.
	{regexp.MustCompile(`already (\d+) instances, the maximum \(--max-instances\); close one with browser_instance close`),
		"already $1 instances are open, the maximum this coordinator allows (its own limit, set when it started); " +
			"close one with browser_instance close (id: an instance id or port), then call new again"},
	// actors/instances.go listenFor: the instance port range is full.
	{regexp.MustCompile(`no free port in --instance-ports (\d+)-(\d+)`),
		"no free port left in the coordinator's instance port range $1-$2; pass port (a free one outside that range), " +
			"or close an instance with browser_instance close"},
	// chrome.CheckExtraArgs: a switch cdpvisor owns.
	{regexp.MustCompile(`--([^=\s]+)(=.*?)? is cdpvisor's to set: `), `the browser switch "$1" in args is cdpvisor's to set: `},
	{regexp.MustCompile(`give the profile with cdpvisor's own --user-data-dir \(user_data_dir in MCP\)`), "pass the profile as user_data_dir instead"},
	{regexp.MustCompile(`clients connect to the stable endpoint \(--port\)`), "clients connect to the stable endpoint (see coordinator_status)"},
	// actors.ErrFamilySwitch on the default instance.
	{regexp.MustCompile(`start the coordinator with --browser ([A-Za-z0-9_-]+)`),
		"have your MCP host start the coordinator with CDPVISOR_BROWSER=$1 in its environment"},
	// chrome.NotFoundError and LaunchError advice.
	{regexp.MustCompile(`use --browser ([A-Za-z0-9_-]+)`), `pass browser: "$1"`},
	{regexp.MustCompile(`or pass --browser /path/to/browser`), "or pass browser: the path of a browser executable"},
	{regexp.MustCompile("check --browser or run `cdpvisor browsers`"), "check the browser argument, or call coordinator_list_browsers to see what is installed"},
	{regexp.MustCompile(`choose another --user-data-dir`), "pass another user_data_dir"},
	{regexp.MustCompile(`running as root requires --no-sandbox; pass --browser-arg=--no-sandbox`),
		`running as root requires Chromium's no-sandbox switch; pass args: ["--no-sandbox"]`},
	{regexp.MustCompile(`use --headless or set \$DISPLAY`), "pass headless: true, or run the coordinator where $DISPLAY is set"},
	// downloads.Prepare: a download dir it cannot use.
	{regexp.MustCompile(`give (?:a directory(?: you can write to)?|another) with --download-dir \(or CDPVISOR_DOWNLOAD_DIR\)`), "pass another download_dir"},
	// chrome.ProfileDir.
	{regexp.MustCompile(`\(--user-data-dir\)`), "(user_data_dir)"},
	{regexp.MustCompile(`leave --user-data-dir out`), "leave user_data_dir out"},
}

// flagWords is the safety net for a cdpvisor flag no rewrite knows: the
// argument that does the same, or the coordinator's setting.
var (
	flagRe    = regexp.MustCompile(`--([a-z][a-z-]*[a-z])`)
	flagWords = map[string]string{
		"port": "port", "browser": "browser", "headless": "headless: true", "headed": "headless: false",
		"user-data-dir": "user_data_dir", "browser-arg": "args", "download-dir": "download_dir",
	}
	settings = map[string]bool{ // flags with no MCP argument: set when the coordinator starts
		"max-instances": true, "instance-ports": true, "state-dir": true, "allow-origin": true, "launch-timeout": true,
		"hang-timeout": true, "idle-stop": true, "log-level": true, "log-format": true,
	}
)

// mcpWords rewrites the command-line hints of a coordinator error; the
// browser's own stderr lines quoted in a launch error stay as they are.
func mcpWords(msg string) string {
	msg, stderr, quoted := strings.Cut(msg, stderrLines)
	for _, r := range rewrites {
		msg = r.re.ReplaceAllString(msg, r.with)
	}
	msg = flagRe.ReplaceAllStringFunc(msg, func(f string) string {
		name := strings.TrimPrefix(f, "--")
		if w, ok := flagWords[name]; ok {
			return w
		}
		if settings[name] {
			return "the coordinator's " + name + " setting (chosen when it started)"
		}
		return f // a browser switch
	})
	if quoted {
		msg += stderrLines + stderr
	}
	return msg
}

// stderrLines introduces the browser's stderr in a chrome.LaunchError.
const stderrLines = "; last stderr lines:"
