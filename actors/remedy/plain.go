package remedy

import (
	"fmt"
	"strings"
)

// Plain says a fix without naming a flag or a tool argument: for logs and
// for tests of the layers below the edges.
var Plain Words = plainWords{}

type plainWords struct{}

func (plainWords) Say(f Fix) string {
	name := strings.ReplaceAll(string(f.Setting), "_", " ")
	var s string
	switch f.Do {
	case Plainly:
		return f.Text
	case ChooseAnother:
		s = "choose another " + name
	case SetTo:
		s = fmt.Sprintf("set %s to %s", name, f.Value)
	case GivePath:
		s = fmt.Sprintf("give %s as %s", f.Value, name)
	case LeaveOut:
		s = "leave " + name + " out"
	case AddArg:
		s = "add the browser switch " + f.Value
	case AtStart:
		s = fmt.Sprintf("start the coordinator with %s %s", name, f.Value)
	case NewInstance:
		s = "run " + f.Value + " in an instance of its own"
	case CloseInstance:
		s = "close an instance"
	case CloseWorld:
		s = "close a world"
	case ListBrowsers:
		s = "list the installed browsers"
	case UseEndpoint:
		s = "cdpvisor picks the browser's port; clients connect to the stable endpoint"
	}
	if f.Text != "" {
		s += " " + f.Text
	}
	return strings.TrimSpace(s)
}
