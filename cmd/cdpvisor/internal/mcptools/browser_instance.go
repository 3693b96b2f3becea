package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

var instanceActions = []string{"new", "list", "get", "close"}

// instanceActionArgs says which arguments besides action each action takes.
var instanceActionArgs = map[string][]string{"new": {"type", "browser", "headless", "port", "download_dir"}, "list": nil, "get": {"id"}, "close": {"id"}}

// instanceArgs are browser_instance's arguments: action, and what that
// action takes.
type instanceArgs struct {
	Action   string   `json:"action"`
	ID       any      `json:"id"`
	Type     *string  `json:"type"`
	Browser  *string  `json:"browser"`
	Headless *bool    `json:"headless"`
	Port     *float64 `json:"port"`
	Download *string  `json:"download_dir"`
}

// given says whether the argument name was passed (null is left out).
func (a instanceArgs) given(name string) bool {
	switch name {
	case "id":
		return a.ID != nil
	case "type":
		return a.Type != nil
	case "browser":
		return a.Browser != nil
	case "headless":
		return a.Headless != nil
	case "port":
		return a.Port != nil
	case "download_dir":
		return a.Download != nil
	}
	return false
}

// instancesAnswer is browser_instance list's structured answer.
type instancesAnswer struct {
	Instances []state.InstanceStatus `json:"instances"`
}

// closedAnswer is browser_instance close's structured answer. Fields in
// the order of their JSON names.
type closedAnswer struct {
	Closed   string `json:"closed"`
	Endpoint string `json:"endpoint"`
}

// browserInstance is browser_instance: more browsers, each behind its own
// stable endpoint.
func browserInstance(d deps) server.ServerTool {
	def := toolDef{
		name: "browser_instance", title: "Manage browser instances",
		description: "Manage more browsers, each behind its own stable endpoint: new, list, get (by id or port), close.",
		params: []param{
			{name: "action", want: "a string: new, list, get or close", schema: map[string]any{"type": "string", "enum": instanceActions,
				"description": "What to do. new = create an instance with its own browser and stable endpoint (takes browser, headless, port, download_dir; " +
					"its browser starts on the first request); list = every instance with its endpoint and browser, the default one first; " +
					"get = one instance (takes id); close = stop an instance's browser and remove its endpoint (takes id; the default instance cannot be closed)."}},
			{name: "id", want: refWant, schema: refSchema(`For get and close: the instance's id ("inst_…") or its endpoint port, ` +
				`as a string or a number (e.g. "inst_…", 9333 or "9333").`)},
			typeParam("For new: ", "firefox makes a Firefox instance, serving WebDriver BiDi at /session."),
			{name: "browser", want: "a string: chrome, edge, chromium, brave, firefox, or a path", schema: map[string]any{"type": "string",
				"description": "For new: chrome, edge, chromium, brave, firefox, or a path to the browser executable. Default: the coordinator's browser. " +
					"A firefox instance serves WebDriver BiDi, not CDP: its ws (and bidi_endpoint in the answer) is the endpoint's /session, " +
					"and it gets none of the coordinator's extra Chromium switches."}},
			{name: "headless", want: "a boolean (true or false)", schema: map[string]any{"type": "boolean",
				"description": "For new: true for no window, false for a visible one. Default: as the coordinator is configured."}},
			{name: "port", want: "an integer from 1 to 65535", schema: map[string]any{"type": "integer", "minimum": 1, "maximum": 65535,
				"description": "For new: the endpoint's port on 127.0.0.1. Leave out for a free port (from the coordinator's instance port range when it has one)."}},
			{name: "download_dir", want: "a string: a directory", schema: map[string]any{"type": "string",
				"description": "For new: the directory its downloads land in (created if missing; ~ and relative paths as for a profile). " +
					"Leave out for a folder of its own, named by its id, in the coordinator's download dir."}},
		},
		required:    []string{"action"},
		destructive: true, // close
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args instanceArgs) (*mcp.CallToolResult, error) {
		tool := def.name
		takes, ok := instanceActionArgs[args.Action]
		switch {
		case args.Action == "":
			return toolErrorf(tool, "action is required: new, list, get or close")
		case !ok:
			return toolErrorf(tool, "unknown action %q: want new, list, get or close", args.Action)
		}
		tool += " " + args.Action // errors name the action: "browser_instance new: …"
		for _, name := range []string{"id", "type", "browser", "headless", "port", "download_dir"} {
			if args.given(name) && !slices.Contains(takes, name) {
				what := "takes no other argument"
				if len(takes) > 0 {
					what = "takes " + joinAnd(takes)
				}
				return toolErrorf(tool, "%s is for %s, not %s; %s %s", name, instanceArgFor(name), args.Action, args.Action, what)
			}
		}
		switch args.Action {
		case "new":
			b, err := browserOrType(args.Browser, args.Type)
			if err != nil {
				return toolError(tool, err)
			}
			return newInstance(ctx, d, tool, b, args.Headless, args.Port, args.Download)
		case "list":
			return listInstances(ctx, d, tool)
		}
		// get, close
		if !args.given("id") {
			return toolErrorf(tool, "needs id: an instance id (\"inst_…\") or its endpoint port, e.g. 9333; browser_instance list shows them")
		}
		ref, err := instanceRef("id", args.ID)
		if err != nil {
			return toolError(tool, err)
		}
		if args.Action == "close" {
			return closeInstance(ctx, d, tool, ref)
		}
		return getInstance(ctx, d, tool, ref)
	})
}

// instanceArgFor names the actions an argument of browser_instance is for.
func instanceArgFor(name string) string {
	if name == "id" {
		return "get and close"
	}
	return "new"
}

// listInstances is browser_instance list: every instance, the default one
// first.
func listInstances(ctx context.Context, d deps, tool string) (*mcp.CallToolResult, error) {
	st, err := d.c.Status(ctx)
	if err != nil {
		return toolError(tool, err)
	}
	list := make([]state.InstanceStatus, 0, len(st))
	var b strings.Builder
	for i, is := range st {
		list = append(list, instanceStatus(is))
		b.WriteString(instanceLine(is, i == 0))
	}
	return result(instancesAnswer{Instances: list}, b.String())
}

// getInstance is browser_instance get: one instance, as list shows it.
func getInstance(ctx context.Context, d deps, tool, ref string) (*mcp.CallToolResult, error) {
	inst, err := d.c.Instance(ctx, ref)
	if err != nil {
		return refError(tool, "id", err)
	}
	st, err := d.c.Status(ctx)
	if err != nil {
		return toolError(tool, err)
	}
	for i, is := range st {
		if is.ID == inst.ID {
			return result(instanceStatus(is), instanceLine(is, i == 0))
		}
	}
	return toolErrorf(tool, "instance %s was closed meanwhile", inst.ID)
}

// closeInstance is browser_instance close: its browser stops and its
// endpoint goes.
func closeInstance(ctx context.Context, d deps, tool, ref string) (*mcp.CallToolResult, error) {
	inst, err := d.c.CloseInstance(ctx, ref)
	if err != nil {
		return refError(tool, "id", err)
	}
	return result(closedAnswer{Closed: inst.ID, Endpoint: inst.Proxy.Endpoint()},
		fmt.Sprintf("closed %s; its endpoint %s is gone", inst.ID, inst.Proxy.Endpoint()))
}
