package mcptools

import (
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// mcpWords says a fix in an MCP tool's terms: the argument to pass, or,
// for what only the coordinator's start decides, the environment the MCP
// host gives it. A model cannot pass a flag.
type mcpWords struct{}

// argOf is each setting's tool argument; the others are the coordinator's.
var argOf = map[remedy.Setting]string{
	remedy.Port: "port", remedy.Browser: "browser", remedy.UserDataDir: "user_data_dir", remedy.BrowserArgs: "args",
	remedy.Headless: "headless", remedy.DownloadDir: "download_dir", remedy.Instance: "instance", remedy.Replace: "replace",
}

func (mcpWords) Say(f remedy.Fix) string {
	arg, isArg := argOf[f.Setting]
	setting := "the coordinator's " + strings.ReplaceAll(string(f.Setting), "_", "-") + " setting (chosen when it started)"
	var s string
	switch f.Do {
	case remedy.Plainly:
		return f.Text
	case remedy.ChooseAnother:
		s = "pass another " + arg
		switch {
		case f.Setting == remedy.Port && f.Text == "":
			s += ", or leave port out for a free one"
		case !isArg:
			s = "change " + setting
		}
	case remedy.SetTo:
		s = fmt.Sprintf("pass %s: %q", arg, f.Value)
		if f.Setting == remedy.Headless || f.Setting == remedy.Replace { // booleans
			s = fmt.Sprintf("pass %s: %s", arg, f.Value)
		}
	case remedy.GivePath:
		s = fmt.Sprintf("pass %s as %s", f.Value, arg)
		if !isArg {
			s = fmt.Sprintf("give %s as %s", f.Value, setting)
		}
	case remedy.LeaveOut:
		s = "leave " + arg + " out"
	case remedy.AddArg:
		s = fmt.Sprintf("pass args: [%q]", f.Value)
	case remedy.AtStart:
		env := "CDPVISOR_" + strings.ToUpper(string(f.Setting))
		s = fmt.Sprintf("have your MCP host start the coordinator with %s=%s in its environment", env, f.Value)
		if f.Value == "" {
			s = fmt.Sprintf("raise %s (%s in the MCP host's environment)", setting, env)
		}
	case remedy.NewInstance:
		s = fmt.Sprintf("create an instance of its own with browser_instance {\"action\": \"new\", \"browser\": %q}", f.Value)
	case remedy.CloseInstance:
		s = "close one with browser_instance close (id: an instance id or port), then call new again"
	case remedy.UseEndpoint:
		s = "cdpvisor picks the browser's port; clients connect to the stable endpoint (see coordinator_status)"
	case remedy.ListBrowsers:
		s = "call coordinator_list_browsers to see what is installed"
	}
	if f.Text != "" {
		s += " " + f.Text
	}
	return s
}

// Words is how the MCP server says an error's fixes, for the edges'
// side-by-side test in cmd/cdpvisor.
var Words remedy.Words = mcpWords{}
