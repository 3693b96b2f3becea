package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// contextArgs are browser_context's arguments.
type contextArgs struct {
	Action   string  `json:"action"`
	Name     *string `json:"name"`
	Instance any     `json:"instance"`
	Forget   *bool   `json:"forget"` // close
	// The seed of open (import: StorageState alone); see worldapi.Seed.
	StorageState    json.RawMessage `json:"storage_state"`
	FromUserBrowser []string        `json:"from_user_browser"`
	FromWorld       *string         `json:"from_world"`
	Origins         []string        `json:"origins"`
	// The network policy of open; see worldapi.Policy.
	AllowHosts []string `json:"allow_hosts"`
	DenyHosts  []string `json:"deny_hosts"`
	Proxy      *string  `json:"proxy"`
	AllowFiles []string `json:"allow_files"`
	Replace    *bool    `json:"replace"`
	// journal's: the entries after this seq (a number or its string) or
	// time; trace's: what came after this time.
	Since any `json:"since"`
	// The recordings: open's record switch, trace's format.
	Record *bool   `json:"record"`
	Format *string `json:"format"`
}

// worldsAnswer is browser_context list's structured answer. Fields in the
// order of their JSON names.
type worldsAnswer struct {
	Instance string            `json:"instance"`
	Worlds   []worldapi.Status `json:"worlds"`
}

// nameWant is what a world's name wants, in words.
const nameWant = "a string: a world's name, e.g. agent-1"

// browserContext is browser_context: an instance's worlds, each a browser
// context of its own on the shared browser at /context/NAME, opened
// (seeded), listed, closed (forgotten), exported and imported.
func browserContext(d deps) server.ServerTool {
	def := toolDef{
		name: "browser_context", title: "Manage worlds",
		description: "Open, list, close, export and import an instance's worlds, and read their journals and recordings. A world is a browser context of its own on the instance's shared browser, " +
			"a whole CDP endpoint on a loopback port of its own (endpoint, http://127.0.0.1:WPORT) and at http://127.0.0.1:PORT/context/NAME " +
			"(path_endpoint), made by open or on its first use: its clients see and touch only its pages, " +
			"cookies, storage and downloads (which land in its own folder, see download_list's context). " +
			"A named world keeps its cookies and localStorage (its sign-ins), and its network policy, across restarts of the browser and of the coordinator; " +
			"a fresh agent-… one does not. Storage states are Playwright's format (context.storageState(), newContext({storageState})). " +
			"A world opened with record: true (or every world, when the coordinator records them all) is recorded; trace writes its recording to a file " +
			"(a Playwright trace) and answers the file's path.",
		params: slices.Concat([]param{
			{name: "action", want: "a string: " + actionsWant, schema: map[string]any{"type": "string", "enum": contextActions,
				"description": "What to do. open = make a world (name optional: a fresh agent-… name), or find it open, and answer its endpoint " +
					"(give it to any CDP client: Puppeteer's browserURL, Playwright's connectOverCDP, chromedriver's debuggerAddress); " +
					"with storage_state, from_user_browser or from_world it is seeded first, whole or not at all; " +
					"list = the instance's worlds with their endpoints, clients and pages, the open ones and the kept ones (kept, saved_bytes, saved_at); " +
					"close = close a world (takes name): its clients' connections close, its pages close, its port closes; a named world keeps its " +
					"cookies and localStorage for when it is opened again, unless forget is true; " +
					"export = a world's storage state (takes name): its cookies and each origin's localStorage, open or kept; " +
					"import = seed a world (takes name and storage_state), made if it is not open: its cookies and localStorage replace those of the same name, the rest stays; " +
					"journal = what the world's clients did (takes name, since optional), oldest first: each CDP command's method, target and answer (ok or the error), " +
					"with the client (id, and a wrap --isolate child's command), navigations' URLs, hosts reached and denied with counts; no other parameter is recorded; " +
					"trace = write a recorded world's recording (takes name, since and format optional) to a private file in the coordinator's traces folder " +
					"and answer its path (a Playwright trace: npx playwright show-trace FILE), bytes and format."}},
			{name: "name", want: nameWant, schema: map[string]any{"type": "string",
				"description": "For open (optional: left out, a fresh name), close, export, import, journal and trace: the world's name, as in /context/NAME (browser_context list shows them)."}},
			instanceParam,
			{name: "forget", want: "a boolean", schema: map[string]any{"type": "boolean",
				"description": "For close: true also deletes what the world keeps (its cookies and localStorage, its network policy) and its journal; the world need not be open."}},
			{name: "storage_state", want: "a storage state: an object, or a string of its JSON", schema: map[string]any{"type": []string{"object", "string"},
				"description": "For import and open: Playwright's storage state ({cookies: [...], origins: [{origin, localStorage: [{name, value}]}]}), " +
					"as an object or a string of its JSON (what export answers)."}},
			{name: "from_user_browser", want: "an array of origins (strings)", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "For open: copy these origins' cookies (by domain) and localStorage from the user's own browser into the world, once, " +
					"e.g. [\"https://mail.example.com\"]; only when the coordinator runs on the user's browser (--attach). Nothing is written back."}},
			{name: "from_world", want: "a string: a world's name", schema: map[string]any{"type": "string",
				"description": "For open: copy another world's cookies and localStorage into this one (only origins', when given)."}},
			{name: "origins", want: "an array of origins (strings)", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "For open with from_world: copy only these origins' cookies and localStorage, e.g. [\"https://shop.example.com\"]."}},
		}, policyParams, []param{
			{name: "since", want: "an entry's seq (a number) or an RFC 3339 time (a string)", schema: map[string]any{"type": []string{"integer", "string"},
				"description": "For journal: only the entries after this one (its seq, e.g. the last seq of a former answer) or after this time (RFC 3339, e.g. 2026-11-27T11:00:00Z). " +
					"For trace: only what was recorded after this time (RFC 3339)."}},
		}, recordParams),
		required:    []string{"action"},
		destructive: true, // close
	}
	return serverTool(def, func(ctx context.Context, _ mcp.CallToolRequest, args contextArgs) (*mcp.CallToolResult, error) {
		tool := def.name
		switch args.Action {
		case "open", "list", "close", "export", "import", "journal", "trace":
		case "":
			return toolErrorf(tool, "action is required: %s", actionsWant)
		default:
			return toolErrorf(tool, "unknown action %q: want %s", args.Action, actionsWant)
		}
		tool += " " + args.Action
		if err := args.fitAction(); err != nil {
			return toolError(tool, err)
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
		switch args.Action {
		case "open":
			return openWorld(ctx, d, tool, inst.ID, args)
		case "export":
			return exportWorld(ctx, d, tool, inst.ID, strings.TrimSpace(*args.Name))
		case "import":
			return importWorld(ctx, d, tool, inst.ID, strings.TrimSpace(*args.Name), args.StorageState)
		case "journal":
			return worldJournal(ctx, d, tool, strings.TrimSpace(*args.Name), args.Since)
		case "trace":
			return traceWorld(ctx, d, tool, inst.ID, strings.TrimSpace(*args.Name), args.Since, args.Format)
		}
		list, err := instanceWorlds(ctx, d, inst.ID, string(inst.Protocol))
		if err != nil {
			return toolError(tool, err)
		}
		if args.Action == "list" {
			return listWorlds(inst.ID, inst.Proxy.Endpoint(), list)
		}
		if args.Name == nil {
			return toolErrorf(tool, "needs name: a world's name; %s", knownWorlds(list))
		}
		return closeWorld(ctx, d, tool, inst.ID, strings.TrimSpace(*args.Name), args.Forget != nil && *args.Forget, list)
	})
}

// contextActions are browser_context's actions.
var contextActions = []string{"open", "list", "close", "export", "import", "journal", "trace"}

// actionsWant says the actions, for the refusals.
const actionsWant = "open, list, close, export, import, journal or trace"

// fitAction refuses the arguments of another action than the one given,
// before anything is asked.
func (a contextArgs) fitAction() error {
	seeds := a.StorageState != nil || a.FromUserBrowser != nil || a.FromWorld != nil || a.Origins != nil
	switch {
	case a.Action == "list" && a.Name != nil:
		return errors.New("name is for open, close, export, import, journal and trace, not list; list takes instance")
	case a.Since != nil && a.Action != "journal" && a.Action != "trace":
		return fmt.Errorf("since is for journal and trace, not %s", a.Action)
	case a.Record != nil && a.Action != "open":
		return fmt.Errorf("record is a world's record switch, given with open, not %s", a.Action)
	case a.Format != nil && a.Action != "trace":
		return fmt.Errorf("format is for trace, not %s", a.Action)
	case a.Forget != nil && a.Action != "close":
		return fmt.Errorf("forget is for close, not %s", a.Action)
	case a.Action == "import" && (a.FromUserBrowser != nil || a.FromWorld != nil || a.Origins != nil):
		return errors.New("import takes name and storage_state; from_user_browser, from_world and origins seed a world with open")
	case (a.AllowHosts != nil || a.DenyHosts != nil || a.AllowFiles != nil || a.Replace != nil) && a.Action != "open":
		return fmt.Errorf("allow_hosts, deny_hosts, allow_files and replace are a world's network policy, given with open, not %s", a.Action)
	case a.Proxy != nil && a.Action != "open":
		return fmt.Errorf("proxy is a world's upstream proxy, given with open, not %s", a.Action)
	case seeds && a.Action != "open" && a.Action != "import":
		return fmt.Errorf("storage_state, from_user_browser, from_world and origins seed a world: they are for open (and storage_state for import), not %s", a.Action)
	case (a.Action == "export" || a.Action == "import" || a.Action == "journal" || a.Action == "trace") && a.Name == nil:
		return fmt.Errorf("needs name: the world's name (browser_context list shows them)")
	case a.Action == "import" && a.StorageState == nil:
		return errors.New("needs storage_state: Playwright's storage state, an object or a string of its JSON (what export answers)")
	}
	return nil
}

// listWorlds is browser_context list.
func listWorlds(id, endpoint string, list []worldapi.Status) (*mcp.CallToolResult, error) {
	var b strings.Builder
	if len(list) == 0 {
		fmt.Fprintf(&b, "instance %s has no worlds open or kept; open one (action open), or point a client at %s%sNAME\n", id, endpoint, worldPrefix)
	} else {
		fmt.Fprintf(&b, "instance %s has %d world(s), open or kept:\n", id, len(list))
	}
	for _, w := range list {
		b.WriteString(worldLine(w))
	}
	return result(worldsAnswer{Instance: id, Worlds: list}, b.String())
}

// worldOpenedAnswer is browser_context open's (and import's) structured
// answer: the world with its endpoints, and what a seed gave it. Fields in
// the order of their JSON names.
type worldOpenedAnswer struct {
	Created  bool             `json:"created"`
	Instance string           `json:"instance"`
	Seeded   *worldapi.Seeded `json:"seeded,omitempty"`
	World    worldapi.Status  `json:"world"`
}

// openWorld is browser_context open: the world called name (a fresh one
// when left out), made or found open, seeded first when asked.
func openWorld(ctx context.Context, d deps, tool, id string, args contextArgs) (*mcp.CallToolResult, error) {
	n := worlds.FreshName()
	if args.Name != nil {
		n = strings.TrimSpace(*args.Name)
		if err := worlds.CheckName(n); err != nil {
			return toolError(tool, err)
		}
	}
	req, err := seedRequest(args)
	if err != nil {
		return toolError(tool, err)
	}
	guarded, err := guardWorld(ctx, d, id, n, args)
	if err != nil {
		return policyError(tool, err)
	}
	var ws worldapi.Status
	if req.Empty() {
		ws, err = openNamedWorld(ctx, d, id, n)
	} else {
		ws, err = seedWorld(ctx, d, id, n, req)
	}
	if err != nil {
		return seedError(tool, err)
	}
	ws.Created = ws.Created || guarded
	if err := recordWorld(ctx, d, id, n, args.Record, &ws); err != nil {
		return toolError(tool, err)
	}
	return worldOpened(id, n, ws, recordNote(args.Record, ws))
}

// worldOpened answers the world open or import made, found or seeded;
// note ends its text.
func worldOpened(id, name string, ws worldapi.Status, note string) (*mcp.CallToolResult, error) {
	created, seeded := ws.Created, ws.Seeded
	ws.Created, ws.Seeded = false, nil // said once, beside the world
	how := "opened"
	if !created {
		how = "found open"
	}
	text := fmt.Sprintf("world %s of instance %s %s: endpoint %s (its own port; any CDP client), path endpoint %s, browser websocket %s",
		name, id, how, ws.Endpoint, ws.PathEndpoint, ws.WS)
	if seeded != nil {
		text += fmt.Sprintf("; seeded with %d cookie(s) and the localStorage of %d origin(s)", seeded.Cookies, seeded.Origins)
		for _, n := range seeded.Notes {
			text += "; " + n
		}
	}
	text += note
	return result(worldOpenedAnswer{Created: created, Instance: id, Seeded: seeded, World: ws}, text)
}

// worldPrefix is where an endpoint serves its worlds, for the texts.
const worldPrefix = "/context/"

// worldClosedAnswer is browser_context close's structured answer: the
// world and what it had when it was closed. Fields in the order of their
// JSON names.
type worldClosedAnswer struct {
	Clients  int    `json:"clients"`
	Closed   string `json:"closed"`
	Forgot   bool   `json:"forgot,omitempty"` // its kept storage was deleted
	Instance string `json:"instance"`
	Pages    int    `json:"pages"`
}

// closeWorld is browser_context close: the world's clients are
// disconnected, its pages closed, and its name freed; with forget, what it
// keeps is deleted too.
func closeWorld(ctx context.Context, d deps, tool, id, name string, forget bool, list []worldapi.Status) (*mcp.CallToolResult, error) {
	if err := worlds.CheckName(name); err != nil {
		return toolError(tool, err)
	}
	var had worldapi.Status
	for _, w := range list {
		if w.Name == name {
			had = w
		}
	}
	switch {
	case had.Name == "":
		return toolErrorf(tool, "unknown world %q in instance %s; %s", name, id, knownWorlds(list))
	case forget:
		if err := onWorld(ctx, d, id, name, (*control.Control).ForgetWorld); err != nil {
			return toolError(tool, err)
		}
		return result(worldClosedAnswer{Clients: had.Clients, Closed: name, Forgot: true, Instance: id, Pages: had.Pages},
			fmt.Sprintf("forgot world %s of instance %s: %d client connection(s) closed, %d page(s) closed, its kept cookies, localStorage and network policy deleted", name, id, had.Clients, had.Pages))
	case !had.Open && had.Kept:
		return toolErrorf(tool, "world %q of instance %s is not open, only kept; pass forget: true to delete what it keeps", name, id)
	}
	if err := onWorld(ctx, d, id, name, (*control.Control).CloseWorld); err != nil {
		return toolError(tool, err) // closed meanwhile: the error names the open ones
	}
	kept := "the name is free again"
	if had.Kept {
		kept = "its cookies and localStorage stay kept for when it is opened again (forget: true deletes them)"
	}
	return result(worldClosedAnswer{Clients: had.Clients, Closed: name, Instance: id, Pages: had.Pages},
		fmt.Sprintf("closed world %s of instance %s: %d client connection(s) closed, %d page(s) closed; %s", name, id, had.Clients, had.Pages, kept))
}

// knownWorlds names the worlds, open and kept, for an error.
func knownWorlds(list []worldapi.Status) string {
	var open, kept []string
	for _, w := range list {
		if w.Open || !w.Kept { // a world is listed open or kept
			open = append(open, w.Name)
		} else {
			kept = append(kept, w.Name)
		}
	}
	out := "the instance has no open worlds"
	if len(open) > 0 {
		out = "its open worlds: " + strings.Join(open, ", ")
	}
	if len(kept) > 0 {
		out += "; kept, not open: " + strings.Join(kept, ", ")
	}
	return out
}

// openNamedWorld makes or finds a world of the instance id.
func openNamedWorld(ctx context.Context, d deps, id, name string) (worldapi.Status, error) {
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return worldapi.Status{}, err
	}
	return w.OpenWorld(ctx, name)
}

// onWorld closes or forgets (do) a world of the instance id.
func onWorld(ctx context.Context, d deps, id, name string, do func(*control.Control, context.Context, string) error) error {
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return err
	}
	return do(w, ctx, name)
}
