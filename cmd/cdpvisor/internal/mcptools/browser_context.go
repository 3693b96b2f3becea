package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// contextArgs are browser_context's arguments.
type contextArgs struct {
	Action   string  `json:"action"`
	Name     *string `json:"name"`
	Instance any     `json:"instance"`
}

// worldsAnswer is browser_context list's structured answer. Fields in the
// order of their JSON names.
type worldsAnswer struct {
	Instance string              `json:"instance"`
	Worlds   []state.WorldStatus `json:"worlds"`
}

// worldClosedAnswer is browser_context close's structured answer: the
// world and what it had when it was closed. Fields in the order of their
// JSON names.
type worldClosedAnswer struct {
	Clients  int    `json:"clients"`
	Closed   string `json:"closed"`
	Instance string `json:"instance"`
	Pages    int    `json:"pages"`
}

// nameWant is what a world's name wants, in words.
const nameWant = "a string: a world's name, e.g. agent-1"

// browserContext is browser_context: an instance's worlds, each a browser
// context of its own on the shared browser at /context/NAME, listed and
// closed.
func browserContext(d deps) server.ServerTool {
	def := toolDef{
		name: "browser_context", title: "Manage worlds",
		description: "Open, list and close an instance's worlds. A world is a browser context of its own on the instance's shared browser, " +
			"a whole CDP endpoint on a loopback port of its own (endpoint, http://127.0.0.1:WPORT) and at http://127.0.0.1:PORT/context/NAME " +
			"(path_endpoint), made by open or on its first use: its clients see and touch only its pages, " +
			"cookies, storage and downloads (which land in its own folder, see download_list's context).",
		params: []param{
			{name: "action", want: "a string: open, list or close", schema: map[string]any{"type": "string", "enum": []string{"open", "list", "close"},
				"description": "What to do. open = make a world (name optional: a fresh agent-… name), or find it open, and answer its endpoint " +
					"(give it to any CDP client: Puppeteer's browserURL, Playwright's connectOverCDP, chromedriver's debuggerAddress); " +
					"list = the instance's open worlds with their endpoints, clients and pages; " +
					"close = close a world (takes name): its clients' connections close, its pages close, its port closes, and its name is free again " +
					"(used again, it makes a new world, without the old one's cookies)."}},
			{name: "name", want: nameWant, schema: map[string]any{"type": "string",
				"description": "For open (optional: left out, a fresh name) and close: the world's name, as in /context/NAME (browser_context list shows them)."}},
			instanceParam,
		},
		required:    []string{"action"},
		destructive: true, // close
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args contextArgs) (*mcp.CallToolResult, error) {
		tool := def.name
		switch args.Action {
		case "open", "list", "close":
		case "":
			return toolErrorf(tool, "action is required: open, list or close")
		default:
			return toolErrorf(tool, "unknown action %q: want open, list or close", args.Action)
		}
		tool += " " + args.Action
		if args.Action == "list" && args.Name != nil {
			return toolErrorf(tool, "name is for close, not list; list takes instance")
		}
		ref, err := instanceRef("instance", args.Instance)
		if err != nil {
			return toolError(tool, err)
		}
		inst, err := d.c.Instance(ctx, ref)
		if err != nil {
			return refError(tool, "instance", err)
		}
		if inst.Worlds == nil {
			return toolErrorf(tool, "instance %s serves WebDriver BiDi (Firefox): worlds are browser contexts of a Chromium-family browser over CDP; "+
				"pass instance as a Chromium one", inst.ID)
		}
		if args.Action == "open" {
			return openWorld(ctx, d, tool, inst.ID, args.Name)
		}
		list, err := instanceWorlds(ctx, d, inst.ID, string(inst.Protocol))
		if err != nil {
			return toolError(tool, err)
		}
		if args.Action == "list" {
			return listWorlds(inst.ID, inst.Proxy.Endpoint(), list)
		}
		if args.Name == nil {
			return toolErrorf(tool, "needs name: a world's name; %s", openWorlds(list))
		}
		return closeWorld(ctx, d, tool, inst.ID, strings.TrimSpace(*args.Name), list)
	})
}

// listWorlds is browser_context list.
func listWorlds(id, endpoint string, list []state.WorldStatus) (*mcp.CallToolResult, error) {
	var b strings.Builder
	if len(list) == 0 {
		fmt.Fprintf(&b, "instance %s has no open worlds; open one (action open), or point a client at %s%sNAME\n", id, endpoint, worldPrefix)
	} else {
		fmt.Fprintf(&b, "instance %s has %d open world(s):\n", id, len(list))
	}
	for _, w := range list {
		b.WriteString(worldLine(w))
	}
	return result(worldsAnswer{Instance: id, Worlds: list}, b.String())
}

// worldOpenedAnswer is browser_context open's structured answer: the world
// with its endpoints. Fields in the order of their JSON names.
type worldOpenedAnswer struct {
	Created  bool              `json:"created"`
	Instance string            `json:"instance"`
	World    state.WorldStatus `json:"world"`
}

// openWorld is browser_context open: the world called name (a fresh one
// when left out), made or found open.
func openWorld(ctx context.Context, d deps, tool, id string, name *string) (*mcp.CallToolResult, error) {
	n := worlds.FreshName()
	if name != nil {
		n = strings.TrimSpace(*name)
		if err := worlds.CheckName(n); err != nil {
			return toolError(tool, err)
		}
	}
	ws, err := d.c.OpenWorld(ctx, id, n)
	if err != nil {
		return toolError(tool, err)
	}
	created := ws.Created
	ws.Created = false // said once, beside the world
	how := "opened"
	if !created {
		how = "found open"
	}
	return result(worldOpenedAnswer{Created: created, Instance: id, World: ws},
		fmt.Sprintf("world %s of instance %s %s: endpoint %s (its own port; any CDP client), path endpoint %s, browser websocket %s",
			n, id, how, ws.Endpoint, ws.PathEndpoint, ws.WS))
}

// worldPrefix is where an endpoint serves its worlds, for the texts.
const worldPrefix = "/context/"

// closeWorld is browser_context close: the world's clients are
// disconnected, its pages closed, and its name freed.
func closeWorld(ctx context.Context, d deps, tool, id, name string, list []state.WorldStatus) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	var had state.WorldStatus
	for _, w := range list {
		if w.Name == name {
			had = w
		}
	}
	if had.Name == "" {
		return toolErrorf(tool, "unknown world %q in instance %s; %s", name, id, openWorlds(list))
	}
	if err := d.c.CloseWorld(ctx, id, name); err != nil {
		return toolError(tool, err) // closed meanwhile: the error names the open ones
	}
	return result(worldClosedAnswer{Clients: had.Clients, Closed: name, Instance: id, Pages: had.Pages},
		fmt.Sprintf("closed world %s of instance %s: %d client connection(s) closed, %d page(s) closed; the name is free again", name, id, had.Clients, had.Pages))
}

// openWorlds names the open worlds, for an error.
func openWorlds(list []state.WorldStatus) string {
	if len(list) == 0 {
		return "the instance has no open worlds"
	}
	names := make([]string, len(list))
	for i, w := range list {
		names[i] = w.Name
	}
	return "its open worlds: " + strings.Join(names, ", ")
}
