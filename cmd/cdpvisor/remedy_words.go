package main

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// cliWords says a fix in the command line's terms: the flag, and the
// environment variable that sets it where one is worth naming.
type cliWords struct{}

// flagOf is each setting's flag on the command line.
var flagOf = map[remedy.Setting]string{
	remedy.Port: "port", remedy.Browser: "browser", remedy.UserDataDir: "user-data-dir",
	remedy.BrowserArgs: "browser-arg", remedy.Headless: "headless", remedy.DownloadDir: "download-dir",
	remedy.StateDir: "state-dir", remedy.MaxInstances: "max-instances", remedy.InstancePorts: "instance-ports",
	remedy.Instance: "instance", remedy.AllowOrigin: "allow-origin", remedy.Replace: "replace",
}

// withEnv are the settings one usually fixes once, in the environment.
var withEnv = map[remedy.Setting]bool{remedy.DownloadDir: true, remedy.StateDir: true}

func (cliWords) Say(f remedy.Fix) string {
	flag := "--" + flagOf[f.Setting]
	if withEnv[f.Setting] {
		flag += " (or " + envName(flagOf[f.Setting]) + ")"
	}
	var s string
	switch f.Do {
	case remedy.Plainly:
		return f.Text
	case remedy.ChooseAnother:
		s = "choose another with " + flag
		if f.Setting == remedy.Port {
			s = "choose another with --port (0 picks a free one)"
		}
	case remedy.SetTo:
		s = fmt.Sprintf("use --%s %s", flagOf[f.Setting], f.Value)
		if f.Setting == remedy.Headless || f.Setting == remedy.Replace { // booleans, set true
			s = "use --" + flagOf[f.Setting]
		}
	case remedy.GivePath:
		s = fmt.Sprintf("give %s with %s", f.Value, flag)
	case remedy.LeaveOut:
		s = "leave --" + flagOf[f.Setting] + " out"
	case remedy.AddArg:
		s = "pass --browser-arg=" + f.Value
	case remedy.AtStart:
		s = fmt.Sprintf("start the coordinator with --%s %s", flagOf[f.Setting], f.Value)
		if f.Value == "" {
			s = "start the coordinator with another " + flag
		}
	case remedy.NewInstance:
		s = fmt.Sprintf("create an instance of its own with the MCP tool browser_instance {\"action\": \"new\", \"browser\": %q}", f.Value)
	case remedy.CloseInstance:
		s = "close one with the MCP tool browser_instance close"
	case remedy.UseEndpoint:
		s = "cdpvisor picks the browser's port; clients connect to the stable endpoint (--port)"
	case remedy.ListBrowsers:
		s = "run `cdpvisor browsers` to see what is installed"
	}
	if f.Text != "" {
		s += " " + f.Text
	}
	return s
}
