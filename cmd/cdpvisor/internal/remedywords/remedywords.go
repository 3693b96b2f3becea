// Package remedywords says a fix (actors/remedy) on the two edges a person
// or a model reads: the command line, which names its flags, and the MCP
// server, which names its tools' arguments and, for what only the
// coordinator's start decides, the environment its host gives it (a model
// cannot pass a flag). One table holds every kind of fix in the words of
// both.
package remedywords

import (
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// The edges, each a column of the table.
var (
	// CommandLine says a fix as a flag, and the environment variable that
	// sets it where one is worth naming.
	CommandLine remedy.Words = edge{column: commandLine, names: flags, withEnv: withEnv}
	// MCP says a fix as a tool argument, or as the coordinator's setting
	// (its environment variable) where no tool takes one.
	MCP remedy.Words = edge{column: mcp, names: arguments}
)

const (
	commandLine = iota
	mcp
)

// flags are the settings' flags on the command line.
var flags = map[remedy.Setting]string{
	remedy.Port: "port", remedy.Browser: "browser", remedy.UserDataDir: "user-data-dir",
	remedy.BrowserArgs: "browser-arg", remedy.Headless: "headless", remedy.DownloadDir: "download-dir",
	remedy.StateDir: "state-dir", remedy.MaxInstances: "max-instances", remedy.InstancePorts: "instance-ports",
	remedy.Instance: "instance", remedy.AllowOrigin: "allow-origin", remedy.Replace: "replace", remedy.MaxWorlds: "max-worlds",
}

// withEnv are the settings one usually fixes once, in the environment.
var withEnv = map[remedy.Setting]bool{remedy.DownloadDir: true, remedy.StateDir: true}

// arguments are the settings' tool arguments; the others are the
// coordinator's, chosen when it started.
var arguments = map[remedy.Setting]string{
	remedy.Port: "port", remedy.Browser: "browser", remedy.UserDataDir: "user_data_dir", remedy.BrowserArgs: "args",
	remedy.Headless: "headless", remedy.DownloadDir: "download_dir", remedy.Instance: "instance", remedy.Replace: "replace",
}

// table is every kind of fix in each edge's words: the command line's,
// then MCP's; of each, the first whose case holds. In the words, {name} is
// the setting as the edge names it, {flag} the flag with its environment
// variable where one is worth naming, {value} the fix's value and
// {quoted} the same quoted, {env} the setting's environment variable, and
// {setting} the coordinator's setting in words. What the fix gets you
// (its text) follows.
var table = map[remedy.Action][2][]words{
	remedy.ChooseAnother: {
		{{port, "choose another with --port (0 picks a free one)"}, {always, "choose another with {flag}"}},
		{{portAlone, "pass another port, or leave port out for a free one"}, {notNamed, "change {setting}"}, {always, "pass another {name}"}},
	},
	remedy.SetTo: {
		{{boolean, "use --{name}"}, {always, "use --{name} {value}"}},
		{{boolean, "pass {name}: {value}"}, {always, "pass {name}: {quoted}"}},
	},
	remedy.GivePath: {
		{{always, "give {value} with {flag}"}},
		{{notNamed, "give {value} as {setting}"}, {always, "pass {value} as {name}"}},
	},
	remedy.LeaveOut: {
		{{always, "leave --{name} out"}},
		{{always, "leave {name} out"}},
	},
	remedy.AddArg: {
		{{always, "pass --browser-arg={value}"}},
		{{always, "pass args: [{quoted}]"}},
	},
	remedy.AtStart: {
		{{ceiling, "start the coordinator with a higher {flag}"}, {noValue, "start the coordinator with another {flag}"},
			{always, "start the coordinator with --{name} {value}"}},
		{{noValue, "raise {setting} ({env} in the MCP host's environment)"},
			{always, "have your MCP host start the coordinator with {env}={value} in its environment"}},
	},
	remedy.NewInstance: {
		{{always, `create an instance of its own with the MCP tool browser_instance {"action": "new", "browser": {quoted}}`}},
		{{always, `create an instance of its own with browser_instance {"action": "new", "browser": {quoted}}`}},
	},
	remedy.CloseInstance: {
		{{always, "close one with the MCP tool browser_instance close"}},
		{{always, "close one with browser_instance close (id: an instance id or port), then call new again"}},
	},
	remedy.CloseWorld: {
		{{always, "close one with `cdpvisor world close NAME` (`cdpvisor world list` shows them)"}},
		{{always, "close one with browser_context close (name: one of browser_context list's open worlds)"}},
	},
	remedy.UseEndpoint: {
		{{always, "cdpvisor picks the browser's port; clients connect to the stable endpoint (--port)"}},
		{{always, "cdpvisor picks the browser's port; clients connect to the stable endpoint (see coordinator_status)"}},
	},
	remedy.ListBrowsers: {
		{{always, "run `cdpvisor browsers` to see what is installed"}},
		{{always, "call coordinator_list_browsers to see what is installed"}},
	},
}

// words are a fix's words in the case when holds.
type words struct {
	when when
	say  string
}

// when is a case of a fix that an edge words otherwise.
type when int

const (
	always    when = iota
	port           // the setting is the port
	portAlone      // the setting is the port, and the fix says nothing more
	boolean        // the setting is a switch (headless, replace): given, not set to a value
	noValue        // the fix gives no value
	notNamed       // the edge has no name for the setting (MCP: the coordinator's own)
	ceiling        // the setting is a most-at-once (instances, worlds), and the fix gives no value: raise it
)

func (w when) holds(f remedy.Fix, named bool) bool {
	switch w {
	case port:
		return f.Setting == remedy.Port
	case portAlone:
		return f.Setting == remedy.Port && f.Text == ""
	case boolean:
		return f.Setting == remedy.Headless || f.Setting == remedy.Replace
	case noValue:
		return f.Value == ""
	case notNamed:
		return !named
	case ceiling:
		return (f.Setting == remedy.MaxInstances || f.Setting == remedy.MaxWorlds) && f.Value == ""
	}
	return true
}

// edge is one edge's column of the table, and its names of the settings.
type edge struct {
	column  int
	names   map[remedy.Setting]string
	withEnv map[remedy.Setting]bool
}

func (e edge) Say(f remedy.Fix) string {
	if f.Do == remedy.Plainly {
		return f.Text
	}
	name, named := e.names[f.Setting]
	var s string
	for _, w := range table[f.Do][e.column] {
		if w.when.holds(f, named) {
			s = e.fill(w.say, f, name)
			break
		}
	}
	if f.Text != "" {
		s += " " + f.Text
	}
	return s
}

// fill puts the fix and the edge's names into words.
func (e edge) fill(say string, f remedy.Fix, name string) string {
	env := "CDPVISOR_" + strings.ToUpper(string(f.Setting))
	flag := "--" + name
	if e.withEnv[f.Setting] {
		flag += " (or " + env + ")"
	}
	return strings.NewReplacer(
		"{name}", name, "{flag}", flag, "{value}", f.Value, "{quoted}", fmt.Sprintf("%q", f.Value), "{env}", env,
		"{setting}", "the coordinator's "+strings.ReplaceAll(string(f.Setting), "_", "-")+" setting (chosen when it started)",
	).Replace(say)
}
