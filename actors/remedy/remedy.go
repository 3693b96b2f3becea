// Package remedy carries what a user can change to get past an error, as
// data. The actors attach fixes to the errors they return; each edge (the
// command line, the MCP server, the HTTP endpoint) words them in its own
// terms: a flag for the command line, a tool argument for MCP.
package remedy

import (
	"errors"
	"strings"
)

// Setting is a choice the user makes: a flag of cdpvisor's command line,
// an argument of an MCP tool, or both.
type Setting string

const (
	Port          Setting = "port"           // the endpoint's port
	Browser       Setting = "browser"        // which browser: a type or a path
	UserDataDir   Setting = "user_data_dir"  // the browser's profile directory
	BrowserArgs   Setting = "args"           // extra browser switches
	Headless      Setting = "headless"       // without a window
	DownloadDir   Setting = "download_dir"   // where downloads land
	StateDir      Setting = "state_dir"      // where the state files go
	MaxInstances  Setting = "max_instances"  // most instances at once
	InstancePorts Setting = "instance_ports" // the port range of extra instances
	Instance      Setting = "instance"       // which instance of a coordinator
	AllowOrigin   Setting = "allow_origin"   // websocket origins let in
	Replace       Setting = "replace"        // a kept world's policy replaced by the one given
	MaxWorlds     Setting = "max_worlds"     // most worlds open at once, per instance
)

// Action is what to do with a Setting.
type Action int

const (
	ChooseAnother Action = iota // give another value of Setting
	SetTo                       // give Setting the value Value
	GivePath                    // give Setting a path (Value describes it)
	LeaveOut                    // leave Setting out: its default does
	AddArg                      // add the browser switch Value
	AtStart                     // start the coordinator with Setting = Value
	NewInstance                 // run browser Value in an instance of its own
	CloseInstance               // close an instance to make room
	CloseWorld                  // close a world to make room
	ListBrowsers                // look at what is installed
	UseEndpoint                 // clients connect to the stable endpoint, not the browser's own port
	Plainly                     // Text says it in words valid everywhere
)

// Fix is one way past an error.
type Fix struct {
	Do      Action
	Setting Setting
	Value   string
	Text    string // for Plainly; for the others, what the fix gets you ("for a fresh temporary profile")
}

// Change is the fix "give another Setting".
func Change(s Setting) Fix { return Fix{Do: ChooseAnother, Setting: s} }

// Set is the fix "give Setting the value v".
func Set(s Setting, v string) Fix { return Fix{Do: SetTo, Setting: s, Value: v} }

// Say is a fix in plain words, the same on every edge.
func Say(text string) Fix { return Fix{Do: Plainly, Text: text} }

// Error is a problem with the fixes that get past it. Its text is the
// problem alone: an edge appends the fixes in its own words (Explain).
type Error struct {
	Err   error
	Fixes []Fix
}

func (e *Error) Error() string   { return e.Err.Error() }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) Remedies() []Fix { return e.Fixes }

// Remedied is an error that knows its own fixes (a launch error knows
// them from its cause).
type Remedied interface {
	error
	Remedies() []Fix
}

// With attaches fixes to err (nil stays nil).
func With(err error, fixes ...Fix) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err, Fixes: fixes}
}

// Fixes are the fixes of the first error in err's chain that has any.
func Fixes(err error) []Fix {
	for err != nil {
		var r Remedied
		if !errors.As(err, &r) {
			return nil
		}
		if fixes := r.Remedies(); len(fixes) > 0 {
			return fixes
		}
		err = errors.Unwrap(r)
	}
	return nil
}

// Words is an edge's phrasing of a fix.
type Words interface {
	Say(Fix) string
}

// Said is err's fixes alone in w's words (nil: Plain), "" when it has none.
func Said(err error, w Words) string {
	if w == nil {
		w = Plain
	}
	var said []string
	for _, f := range Fixes(err) {
		if s := w.Say(f); s != "" {
			said = append(said, s)
		}
	}
	return strings.Join(said, ", or ")
}

// Explain is err's text followed by its fixes in w's words (nil: Plain):
// "problem; fix one, or fix two".
func Explain(err error, w Words) string {
	said := Said(err, w)
	if said == "" {
		return err.Error()
	}
	msg, sep := err.Error(), "; "
	if strings.Contains(msg, "\n") {
		sep = "\nwhat to do: " // after the browser's quoted stderr lines
	}
	return msg + sep + said
}
