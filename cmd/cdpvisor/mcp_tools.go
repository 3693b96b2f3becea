package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// newMCPServer wires the coordinator's lifecycle tools. Handlers are thin:
// read the arguments, ask the coordinator, say what happened.
func newMCPServer(c *actors.Coordinator, log zerolog.Logger) *server.MCPServer {
	s := server.NewMCPServer("cdpvisor", version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		// A tool call is an agent at work: it keeps the browsers from the
		// idle stop.
		server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				c.Touch(ctx)
				return next(ctx, req)
			}
		}),
		server.WithInstructions("cdpvisor keeps a browser behind a stable CDP endpoint. Child MCP servers and "+
			"Playwright/Puppeteer connect to the endpoint of coordinator_status; the browser starts on first use "+
			"and is relaunched when it dies. Do not restart it at the first error: retry the call first. "+
			"Files the browser downloads land in each instance's download dir: download_list and download_wait find them."),
	)
	t := tools{c: c, log: log, started: time.Now().UTC()}
	handlers := map[string]server.ToolHandlerFunc{
		"coordinator_list_browsers":   t.listBrowsers,
		"coordinator_status":          t.status,
		"coordinator_launch_browser":  t.launch,
		"coordinator_stop_browser":    t.stop,
		"coordinator_restart_browser": t.restart,
		"browser_instance":            t.instance,
		"download_list":               t.downloadList,
		"download_wait":               t.downloadWait,
	}
	for _, d := range toolDefs {
		s.AddTool(d.tool(), handlers[d.name])
	}
	return s
}

// instanceParam is the lifecycle tools' choice of instance.
var instanceParam = param{name: "instance", want: refWant, schema: refSchema(
	`Which instance: its id ("inst_…") or its endpoint port, as a string or a number (e.g. "inst_…", 9222 or "9222"). ` +
		"Leave out for the default instance.")}

// toolDefs are the tools (tools/list gives them sorted by name).
var toolDefs = append([]toolDef{{
	name: "coordinator_list_browsers", title: "List installed browsers",
	description: "List the browsers installed on this machine (Chrome, Edge, Chromium, Brave; Firefox too) with their " +
		"type, protocol (cdp, or bidi for Firefox), version and path; pass one as browser to browser_instance new, or to " +
		"coordinator_launch_browser for an instance of the same protocol.",
	readOnly: true, idempotent: true,
}, {
	name: "coordinator_status", title: "Coordinator status",
	description: "Show the coordinator (pid, version, state file) and each instance, the default one first: its stable " +
		"endpoint (CDP; WebDriver BiDi at /session for a Firefox instance), port, connected clients, download dir, and its browser (state, type, version, pid, generation, uptime, last exit). Launches nothing.",
	readOnly: true, idempotent: true,
}, {
	name: "coordinator_launch_browser", title: "Launch or switch the browser",
	description: "Launch an instance's browser now, or switch it to another browser or options. The endpoint stays the same; " +
		"connected clients are asked to reconnect (close code 1012). Arguments left out keep the browser's current options. " +
		"An endpoint keeps its protocol: a Chromium-family instance (CDP) switches among chrome, edge, chromium and brave, " +
		"a Firefox instance (WebDriver BiDi) among Firefox builds; for the other family create an instance with browser_instance new. " +
		"The answer gives the endpoint, its ws, its protocol (cdp or bidi) and, for Firefox, bidi_endpoint.",
	params: []param{
		typeParam("", "firefox on the default Chromium instance launches Firefox behind an endpoint of its own (the first Firefox instance, made if there is none) "+
			"and answers with it; the default endpoint keeps serving CDP."),
		{name: "browser", want: "a string: chrome, edge, chromium, brave, firefox, or a path", schema: map[string]any{"type": "string",
			"description": "chrome, edge, chromium, brave, firefox, or a path to the browser executable (coordinator_list_browsers shows what is installed), " +
				"of the instance's own protocol (a browser of the other family on the default instance goes to an instance of its own, as for type). Leave out to keep the current browser."}},
		{name: "headless", want: "a boolean (true or false)", schema: map[string]any{"type": "boolean",
			"description": "true: no window; false: a visible window. Leave out to keep the current mode."}},
		{name: "user_data_dir", want: "a string: a profile directory, or \"\" for a temporary profile", schema: map[string]any{"type": "string",
			"description": `Profile directory to use (created if missing); "" for a fresh temporary profile, removed when the browser stops. Leave out to keep the current profile.`}},
		{name: "args", want: "an array of strings", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
			"description": `Extra browser command-line switches, e.g. ["--lang=de"]; they replace the previous extra switches. ` +
				"Not --user-data-dir or --remote-debugging-*: cdpvisor sets those. Leave out to keep the current ones."}},
		instanceParam,
	},
}, {
	name: "coordinator_stop_browser", title: "Stop the browser",
	description: "Stop an instance's browser; its clients are disconnected. The endpoint stays; the next client request launches a browser again.",
	params:      []param{instanceParam},
	destructive: true, idempotent: true,
}, {
	name: "coordinator_restart_browser", title: "Restart the browser",
	description: "Stop and relaunch an instance's browser with the options of its last launch; clients are asked to reconnect (close code 1012). " +
		"Refused for a healthy browser started seconds ago unless force is true: retry the failing call first.",
	params: []param{
		{name: "force", want: "a boolean (true or false)", schema: map[string]any{"type": "boolean",
			"description": "true: restart even a healthy browser that started seconds ago (refused otherwise, to stop restart loops). Default false."}},
		instanceParam,
	},
	destructive: true,
}, {
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
}}, downloadToolDefs...)

var instanceActions = []string{"new", "list", "get", "close"}

// instanceArgs says which arguments besides action each action takes.
var instanceArgs = map[string][]string{"new": {"type", "browser", "headless", "port", "download_dir"}, "list": nil, "get": {"id"}, "close": {"id"}}

// typeParam is the browser type argument: a type name, where browser also
// takes a path.
func typeParam(prefix, more string) param {
	return param{name: "type", want: "a string: chrome, edge, chromium, brave or firefox", schema: map[string]any{"type": "string",
		"enum": detect.TypeNames(), "description": prefix + "the browser type, its preferred install: chrome = Google Chrome, edge = Microsoft Edge, " +
			"chromium = Chromium, brave = Brave, firefox = Firefox (WebDriver BiDi at the endpoint's /session, not CDP). " +
			"The same as browser with a type name; give one of the two. " + more}}
}

// browserOrType folds the type argument into browser: one of the two, and
// type must name a type.
func browserOrType(browserArg, typeArg *string) (*string, error) {
	if typeArg == nil {
		return browserArg, nil
	}
	if !slices.Contains(detect.TypeNames(), strings.ToLower(strings.TrimSpace(*typeArg))) {
		return nil, fmt.Errorf("unknown browser type %q: want one of %s (or give a path as browser)", *typeArg, strings.Join(detect.TypeNames(), ", "))
	}
	if browserArg != nil {
		return nil, errors.New("give type or browser, not both: type is a browser type (chrome, firefox, …), browser a type or a path")
	}
	return typeArg, nil
}

func toolDefByName(name string) (toolDef, bool) {
	for _, d := range toolDefs {
		if d.name == name {
			return d, true
		}
	}
	return toolDef{}, false
}

type tools struct {
	c       *actors.Coordinator
	log     zerolog.Logger
	started time.Time // when its state file cannot be read
}

// result is data for the model: structured content, a readable text, and
// the same data as JSON text for clients that ignore structured content.
// Every tool answers so; data is always an object (a list is wrapped:
// {"instances": [...]}).
func result(data any, text string) (*mcp.CallToolResult, error) {
	res := mcp.NewToolResultStructured(data, text)
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	res.Content = append(res.Content, mcp.NewTextContent(string(raw)))
	return res, nil
}

func (t tools) listBrowsers(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "coordinator_list_browsers"
	if _, err := bind(req, &struct{}{}); err != nil {
		return toolError(tool, err)
	}
	found := detect.DetectWithVersions(ctx, detect.HostSystem())
	if len(found) == 0 {
		_, err := detect.Resolve(detect.HostSystem(), "")
		return toolError(tool, err)
	}
	var b strings.Builder
	list := make([]browserJSON, len(found))
	for i, br := range found {
		fmt.Fprintf(&b, "%s (%s, %s) %s at %s\n", br.Name, br.Type, br.Protocol(), br.Version, br.Path)
		list[i] = newBrowserJSON(br)
	}
	return result(map[string]any{"browsers": list}, b.String())
}

func (t tools) status(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "coordinator_status"
	if _, err := bind(req, &struct{}{}); err != nil {
		return toolError(tool, err)
	}
	st, err := t.c.Status(ctx)
	if err != nil {
		return toolError(tool, err)
	}
	cs := t.coordinatorStatus(st)
	var b strings.Builder
	fmt.Fprintf(&b, "coordinator pid %d (cdpvisor %s), started %s, state file %s\n",
		cs.PID, cs.Version, cs.StartedAt.Local().Format(time.DateTime), cs.StateFile)
	for i, is := range st {
		b.WriteString(instanceLine(is, i == 0))
	}
	return result(cs, b.String())
}

// coordinatorStatus is this coordinator as `cdpvisor status --json` shows
// it (state.CoordinatorStatus), from the coordinator itself.
func (t tools) coordinatorStatus(st []actors.InstanceStatus) state.CoordinatorStatus {
	cs := state.CoordinatorStatus{
		PID: os.Getpid(), PPID: os.Getppid(), StartedAt: t.started, Version: version,
		StateFile: t.c.StatePath(), Live: true, Instances: make([]state.InstanceStatus, 0, len(st)),
	}
	// The coordinator keeps its start time, parent and version in its
	// state file; status --json reads them there too.
	if f, err := state.Read(cs.StateFile); err == nil && f.PID == cs.PID {
		cs.PPID, cs.StartedAt, cs.Version = f.PPID, f.StartedAt, f.Version
	}
	for _, is := range st {
		cs.Instances = append(cs.Instances, instanceStatus(is))
	}
	return cs
}

// instanceStatus is an instance as `cdpvisor status --json` shows it.
func instanceStatus(is actors.InstanceStatus) state.InstanceStatus {
	b := is.Browser
	out := state.InstanceStatus{ID: is.ID, Endpoint: is.Endpoint, Port: is.Port, WS: is.WS, Protocol: is.Protocol,
		Clients: is.Clients, Browser: &b, DownloadDir: is.DownloadDir}
	if b.Running() {
		out.UptimeSeconds = time.Since(*b.StartedAt).Round(time.Second).Seconds()
	}
	return out
}

// instanceLine is an instance in a line of text.
func instanceLine(is actors.InstanceStatus, isDefault bool) string {
	var b strings.Builder
	b.WriteString(is.ID)
	if isDefault {
		b.WriteString(" (default)")
	}
	fmt.Fprintf(&b, ": endpoint %s, browser %s", is.Endpoint, is.Browser.State)
	if is.Browser.Pid != 0 || is.Browser.WindowsPid != 0 {
		fmt.Fprintf(&b, " (%s, generation %d, up %s)", is.Browser.PidText(), is.Browser.Generation, is.Uptime)
	}
	fmt.Fprintf(&b, ", %d client(s), %s %s", is.Clients, is.Browser.Browser.Type, is.Browser.Browser.Version)
	if ex := is.Browser.LastExit; ex != nil {
		fmt.Fprintf(&b, ", last exit: %s", ex.Cause)
	}
	fmt.Fprintf(&b, ", downloads in %s\n", is.DownloadDir)
	return b.String()
}

func (t tools) launch(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "coordinator_launch_browser"
	var args struct {
		Type        *string  `json:"type"`
		Browser     *string  `json:"browser"`
		Headless    *bool    `json:"headless"`
		UserDataDir *string  `json:"user_data_dir"`
		Args        []string `json:"args"`
		Instance    any      `json:"instance"`
	}
	if _, err := bind(req, &args); err != nil {
		return toolError(tool, err)
	}
	b, err := browserOrType(args.Browser, args.Type)
	if err != nil {
		return toolError(tool, err)
	}
	ref, err := instanceRef("instance", args.Instance)
	if err != nil {
		return toolError(tool, err)
	}
	change := browser.Change{Browser: b, Headless: args.Headless, UserDataDir: args.UserDataDir, Args: args.Args}
	ep, err := t.c.LaunchBrowser(ctx, ref, change, progressOf(ctx, req))
	if errors.Is(err, actors.ErrFamilySwitch) && args.Instance == nil {
		return t.launchOfFamily(ctx, tool, change, progressOf(ctx, req))
	}
	switch {
	case errors.Is(err, actors.ErrUnknownInstance):
		return refError(tool, "instance", err)
	case errors.Is(err, actors.ErrFamilySwitch):
		return toolError(tool, err) // nothing was launched or stopped
	case err != nil:
		return toolErrorf(tool, "launch failed: %w", err)
	}
	return endpointResult(ep, "launched")
}

// launchOfFamily launches a browser of the other family than the default
// instance's behind an endpoint of its own (the default endpoint keeps its
// protocol, for the clients holding its URLs), and says so.
func (t tools) launchOfFamily(ctx context.Context, tool string, change browser.Change, progress actors.Progress) (*mcp.CallToolResult, error) {
	inst, created, err := t.c.InstanceOfFamily(ctx, change)
	if err != nil {
		return toolErrorf(tool, "launch failed: %w", err)
	}
	ep, err := t.c.LaunchBrowser(ctx, inst.ID, change, progress)
	if err != nil {
		return toolErrorf(tool, "launch failed on %s: %w", inst.ID, err)
	}
	data, text := endpointAnswer(ep, "launched")
	def := t.c.Default()
	how := "in"
	if created {
		how = "in a new instance,"
	}
	serving := "CDP at " + def.Proxy.Endpoint()
	if def.Protocol == launch.ProtocolBiDi {
		serving = "WebDriver BiDi at " + def.Proxy.BrowserWS()
	}
	note := fmt.Sprintf("; it runs %s %s behind its own endpoint, since the default instance %s keeps serving %s for the clients given it",
		how, inst.ID, def.ID, serving)
	data["instance_created"] = created
	return result(data, text+note)
}

func (t tools) stop(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "coordinator_stop_browser"
	var args struct {
		Instance any `json:"instance"`
	}
	if _, err := bind(req, &args); err != nil {
		return toolError(tool, err)
	}
	ref, err := instanceRef("instance", args.Instance)
	if err != nil {
		return toolError(tool, err)
	}
	inst, err := t.c.StopBrowser(ctx, ref)
	if err != nil {
		return refError(tool, "instance", err)
	}
	return result(map[string]any{"instance": inst.ID, "endpoint": inst.Proxy.Endpoint(), "state": "idle"},
		fmt.Sprintf("stopped the browser of %s; %s stays up and the next request launches a browser again", inst.ID, inst.Proxy.Endpoint()))
}

func (t tools) restart(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "coordinator_restart_browser"
	var args struct {
		Force    bool `json:"force"`
		Instance any  `json:"instance"`
	}
	if _, err := bind(req, &args); err != nil {
		return toolError(tool, err)
	}
	ref, err := instanceRef("instance", args.Instance)
	if err != nil {
		return toolError(tool, err)
	}
	ep, err := t.c.RestartBrowser(ctx, ref, args.Force, progressOf(ctx, req))
	if err != nil {
		return refError(tool, "instance", err)
	}
	return endpointResult(ep, "restarted")
}

func endpointResult(r actors.Relaunched, did string) (*mcp.CallToolResult, error) {
	return result(endpointAnswer(r, did))
}

// endpointAnswer is a launch's answer: the browser and where to connect.
func endpointAnswer(r actors.Relaunched, did string) (map[string]any, string) {
	ep := r.Endpoint
	data := map[string]any{
		"instance": ep.Instance, "generation": ep.Generation, "pid": ep.Pid, "windows_pid": ep.WindowsPid, "browser": ep.Browser,
		"user_data_dir": ep.UserDataDir, "temporary_profile": ep.TempProfile, "headless": ep.Headless,
		"reconnected_clients": r.Reconnected,
	}
	addEndpoint(data, r.Stable, r.StableWS, r.Protocol)
	text := fmt.Sprintf("%s %s %s (%s, generation %d) for %s; %s", did, ep.Browser.Name, ep.Browser.Version, ep.PidText(), ep.Generation, ep.Instance,
		servesText(r.Stable, r.StableWS, r.Protocol))
	switch r.Reconnected {
	case 0:
	case 1:
		text += "; 1 connected client was asked to reconnect"
	default:
		text += fmt.Sprintf("; %d connected clients were asked to reconnect", r.Reconnected)
	}
	return data, text
}

func (t tools) instance(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	tool := "browser_instance"
	var args struct {
		Action   string   `json:"action"`
		ID       any      `json:"id"`
		Type     *string  `json:"type"`
		Browser  *string  `json:"browser"`
		Headless *bool    `json:"headless"`
		Port     *float64 `json:"port"`
		Download *string  `json:"download_dir"`
	}
	given, err := bind(req, &args)
	if err != nil {
		return toolError(tool, err)
	}
	takes, ok := instanceArgs[args.Action]
	switch {
	case args.Action == "":
		return toolErrorf(tool, "action is required: new, list, get or close")
	case !ok:
		return toolErrorf(tool, "unknown action %q: want new, list, get or close", args.Action)
	}
	tool += " " + args.Action
	for _, name := range []string{"id", "type", "browser", "headless", "port", "download_dir"} {
		if given[name] && !slices.Contains(takes, name) {
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
		return t.newInstance(ctx, tool, b, args.Headless, args.Port, args.Download)
	case "list":
		st, err := t.c.Status(ctx)
		if err != nil {
			return toolError(tool, err)
		}
		list := make([]state.InstanceStatus, 0, len(st))
		var b strings.Builder
		for i, is := range st {
			list = append(list, instanceStatus(is))
			b.WriteString(instanceLine(is, i == 0))
		}
		return result(map[string]any{"instances": list}, b.String())
	}
	// get, close
	if !given["id"] {
		return toolErrorf(tool, "needs id: an instance id (\"inst_…\") or its endpoint port, e.g. 9333; browser_instance list shows them")
	}
	ref, err := instanceRef("id", args.ID)
	if err != nil {
		return toolError(tool, err)
	}
	if args.Action == "close" {
		inst, err := t.c.CloseInstance(ctx, ref)
		if err != nil {
			return refError(tool, "id", err)
		}
		return result(map[string]any{"closed": inst.ID, "endpoint": inst.Proxy.Endpoint()},
			fmt.Sprintf("closed %s; its endpoint %s is gone", inst.ID, inst.Proxy.Endpoint()))
	}
	inst, err := t.c.Instance(ctx, ref)
	if err != nil {
		return refError(tool, "id", err)
	}
	st, err := t.c.Status(ctx)
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

// instanceArgFor names the actions an argument of browser_instance is for.
func instanceArgFor(name string) string {
	if name == "id" {
		return "get and close"
	}
	return "new"
}

func (t tools) newInstance(ctx context.Context, tool string, b *string, headless *bool, port *float64, downloadDir *string) (*mcp.CallToolResult, error) {
	req := actors.InstanceRequest{Change: browser.Change{Browser: b, Headless: headless}}
	if downloadDir != nil {
		req.DownloadDir = strings.TrimSpace(*downloadDir) // "": the default
	}
	if port != nil {
		if *port < 1 || *port > 65535 || *port != math.Trunc(*port) {
			return toolErrorf(tool, "port %v: want an integer from 1 to 65535, or leave port out for a free one", *port)
		}
		req.Port = int(*port)
	}
	inst, err := t.c.NewInstance(ctx, req)
	switch {
	case err == nil:
	case req.Port != 0 && errors.Is(err, syscall.EADDRINUSE):
		if other, lookup := t.c.Instance(ctx, strconv.Itoa(req.Port)); lookup == nil {
			return toolErrorf(tool, "port %d is the endpoint of %s already; use that instance, or pass another port, or leave port out for a free one", req.Port, other.ID)
		}
		return toolErrorf(tool, "port %d is in use; pass another port, or leave port out for a free one", req.Port)
	case req.Port != 0 && strings.HasPrefix(err.Error(), "listen on "):
		return toolErrorf(tool, "%w; pass another port, or leave port out for a free one", err)
	default:
		return toolError(tool, err)
	}
	data := map[string]any{"id": inst.ID, "port": inst.Proxy.Port(), "download_dir": inst.Downloads.Dir()}
	addEndpoint(data, inst.Proxy.Endpoint(), inst.Proxy.BrowserWS(), inst.Protocol)
	return result(data, fmt.Sprintf("created %s; %s (its browser starts on the first request; downloads land in %s)",
		inst.ID, servesText(inst.Proxy.Endpoint(), inst.Proxy.BrowserWS(), inst.Protocol), inst.Downloads.Dir()))
}

// progressOf sends MCP progress notifications when the client asked for
// them (it sent a progress token).
func progressOf(ctx context.Context, req mcp.CallToolRequest) actors.Progress {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	token, srv, n := req.Params.Meta.ProgressToken, server.ServerFromContext(ctx), 0
	return func(step string) {
		n++
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": n, "message": step,
		})
	}
}
