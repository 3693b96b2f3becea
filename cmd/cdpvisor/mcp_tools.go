package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/chrome"
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
			"and is relaunched when it dies. Do not restart it at the first error: retry the call first."),
	)
	t := tools{c: c, log: log}
	instanceArg := mcp.WithString("instance", mcp.Description("instance id (inst_…) or its endpoint port; default: the default instance"))
	s.AddTool(mcp.NewTool("coordinator_list_browsers",
		mcp.WithDescription("List the Chromium-family browsers installed on this machine (Chrome, Edge, Chromium, Brave)."),
		mcp.WithReadOnlyHintAnnotation(true)), t.listBrowsers)
	s.AddTool(mcp.NewTool("coordinator_status",
		mcp.WithDescription("Show each instance: its stable CDP endpoint, browser state, type, version, pid, generation, clients, uptime and last exit."),
		mcp.WithReadOnlyHintAnnotation(true)), t.status)
	s.AddTool(mcp.NewTool("coordinator_launch_browser",
		mcp.WithDescription("Launch the browser now, or switch it to another browser or options. The endpoint stays the same; connected clients are asked to reconnect (close code 1012)."),
		mcp.WithString("browser", mcp.Description("chrome, edge, chromium, brave, or a path to the executable")),
		mcp.WithBoolean("headless", mcp.Description("run headless (default: as configured)")),
		mcp.WithString("user_data_dir", mcp.Description("profile directory; empty for a fresh temporary profile")),
		mcp.WithArray("args", mcp.Description("extra browser arguments"), mcp.WithStringItems()),
		instanceArg), t.launch)
	s.AddTool(mcp.NewTool("coordinator_stop_browser",
		mcp.WithDescription("Stop the browser. The endpoint stays; the next client request launches a browser again."),
		mcp.WithDestructiveHintAnnotation(true), instanceArg), t.stop)
	s.AddTool(mcp.NewTool("coordinator_restart_browser",
		mcp.WithDescription("Stop and relaunch the browser with the options of its last launch. Refused for a healthy browser started seconds ago unless force is true: retry the failing call first."),
		mcp.WithBoolean("force", mcp.Description("restart even a browser that just started")),
		mcp.WithDestructiveHintAnnotation(true), instanceArg), t.restart)
	s.AddTool(mcp.NewTool("browser_instance",
		mcp.WithDescription("Manage more browsers, each behind its own stable endpoint: new, list, get (by id or port), close."),
		mcp.WithString("action", mcp.Required(), mcp.Enum("new", "list", "get", "close")),
		mcp.WithString("id", mcp.Description("instance id or endpoint port (get, close)")),
		mcp.WithString("browser", mcp.Description("browser for a new instance: chrome, edge, chromium, brave, or a path")),
		mcp.WithBoolean("headless", mcp.Description("headless for a new instance (default: as configured)")),
		mcp.WithNumber("port", mcp.Description("endpoint port for a new instance (default: from --instance-ports, else any free port)"))), t.instance)
	return s
}

type tools struct {
	c   *actors.Coordinator
	log zerolog.Logger
}

// result is data for the model as structured content plus readable text.
func result(data any, text string) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructured(data, text), nil
}

// failure is an error the model should read and act on.
func failure(err error) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(err.Error()), nil
}

func (t tools) listBrowsers(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	found := chrome.DetectWithVersions(ctx, chrome.HostSystem())
	if len(found) == 0 {
		_, err := chrome.Resolve(chrome.HostSystem(), "")
		return failure(err)
	}
	var b strings.Builder
	for _, br := range found {
		fmt.Fprintf(&b, "%s (%s) %s at %s\n", br.Name, br.Type, br.Version, br.Path)
	}
	return result(map[string]any{"browsers": found}, b.String())
}

func (t tools) status(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st, err := t.c.Status(ctx)
	if err != nil {
		return failure(err)
	}
	var b strings.Builder
	for _, is := range st {
		fmt.Fprintf(&b, "%s: endpoint %s, browser %s", is.ID, is.Endpoint, is.Browser.State)
		if is.Browser.Pid != 0 {
			fmt.Fprintf(&b, " (pid %d, generation %d, up %s)", is.Browser.Pid, is.Browser.Generation, is.Uptime)
		}
		fmt.Fprintf(&b, ", %d client(s), %s %s", is.Clients, is.Browser.Browser.Type, is.Browser.Browser.Version)
		if ex := is.Browser.LastExit; ex != nil {
			fmt.Fprintf(&b, ", last exit: %s", ex.Cause)
		}
		b.WriteString("\n")
	}
	return result(map[string]any{"instances": st}, b.String())
}

func (t tools) launch(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Browser     *string  `json:"browser"`
		Headless    *bool    `json:"headless"`
		UserDataDir *string  `json:"user_data_dir"`
		Args        []string `json:"args"`
		Instance    string   `json:"instance"`
	}
	if err := bind(req, &args); err != nil {
		return failure(err)
	}
	ep, err := t.c.LaunchBrowser(ctx, args.Instance, browser.Change{
		Browser: args.Browser, Headless: args.Headless, UserDataDir: args.UserDataDir, Args: args.Args,
	}, progressOf(ctx, req))
	if err != nil {
		return failure(fmt.Errorf("launch failed: %w", err))
	}
	return endpointResult(ep, "launched")
}

func (t tools) stop(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	inst, err := t.c.StopBrowser(ctx, req.GetString("instance", ""))
	if err != nil {
		return failure(err)
	}
	return result(map[string]any{"instance": inst.ID, "state": "idle"},
		fmt.Sprintf("stopped the browser of %s; %s stays up and the next request launches a browser again", inst.ID, inst.Proxy.Endpoint()))
}

func (t tools) restart(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ep, err := t.c.RestartBrowser(ctx, req.GetString("instance", ""), req.GetBool("force", false), progressOf(ctx, req))
	if err != nil {
		return failure(err)
	}
	return endpointResult(ep, "restarted")
}

func endpointResult(r actors.Relaunched, did string) (*mcp.CallToolResult, error) {
	ep := r.Endpoint
	data := map[string]any{
		"instance": ep.Instance, "generation": ep.Generation, "pid": ep.Pid, "browser": ep.Browser,
		"user_data_dir": ep.UserDataDir, "temporary_profile": ep.TempProfile, "headless": ep.Headless,
		"reconnected_clients": r.Reconnected,
	}
	text := fmt.Sprintf("%s %s %s (pid %d, generation %d) for %s", did, ep.Browser.Name, ep.Browser.Version, ep.Pid, ep.Generation, ep.Instance)
	switch r.Reconnected {
	case 0:
	case 1:
		text += "; 1 connected client was asked to reconnect"
	default:
		text += fmt.Sprintf("; %d connected clients were asked to reconnect", r.Reconnected)
	}
	return result(data, text)
}

func (t tools) instance(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Action   string   `json:"action"`
		ID       string   `json:"id"`
		Browser  *string  `json:"browser"`
		Headless *bool    `json:"headless"`
		Port     *float64 `json:"port"`
	}
	if err := bind(req, &args); err != nil {
		return failure(err)
	}
	switch args.Action {
	case "new":
		return t.newInstance(ctx, args.Browser, args.Headless, args.Port)
	case "list":
		st, err := t.c.Status(ctx)
		if err != nil {
			return failure(err)
		}
		var b strings.Builder
		for _, is := range st {
			fmt.Fprintf(&b, "%s %s (%s)\n", is.ID, is.Endpoint, is.Browser.State)
		}
		return result(map[string]any{"instances": st}, b.String())
	case "get", "close":
		if args.ID == "" {
			return failure(fmt.Errorf("browser_instance %s needs id: an instance id (inst_…) or its endpoint port", args.Action))
		}
		if args.Action == "close" {
			inst, err := t.c.CloseInstance(ctx, args.ID)
			if err != nil {
				return failure(err)
			}
			return result(map[string]any{"closed": inst.ID}, fmt.Sprintf("closed %s; its endpoint %s is gone", inst.ID, inst.Proxy.Endpoint()))
		}
		inst, err := t.c.Instance(ctx, args.ID)
		if err != nil {
			return failure(err)
		}
		for _, is := range mustStatus(ctx, t.c) {
			if is.ID == inst.ID {
				return result(is, fmt.Sprintf("%s: endpoint %s, browser %s", is.ID, is.Endpoint, is.Browser.State))
			}
		}
		return failure(fmt.Errorf("instance %s closed meanwhile", inst.ID))
	}
	return failure(fmt.Errorf("unknown action %q: want new, list, get or close", args.Action))
}

func (t tools) newInstance(ctx context.Context, b *string, headless *bool, port *float64) (*mcp.CallToolResult, error) {
	req := actors.InstanceRequest{Change: browser.Change{Browser: b, Headless: headless}}
	if port != nil {
		if *port < 1 || *port > 65535 || *port != float64(int(*port)) {
			return failure(fmt.Errorf("port %v: want an integer from 1 to 65535", *port))
		}
		req.Port = int(*port)
	}
	inst, err := t.c.NewInstance(ctx, req)
	if err != nil {
		return failure(err)
	}
	data := map[string]any{"id": inst.ID, "endpoint": inst.Proxy.Endpoint(), "port": inst.Proxy.Port(), "ws": inst.Proxy.BrowserWS()}
	return result(data, fmt.Sprintf("created %s with endpoint %s (its browser starts on the first request)", inst.ID, inst.Proxy.Endpoint()))
}

func mustStatus(ctx context.Context, c *actors.Coordinator) []actors.InstanceStatus {
	st, _ := c.Status(ctx)
	return st
}

// bind decodes the arguments, saying which one is wrong.
func bind(req mcp.CallToolRequest, v any) error {
	raw, err := json.Marshal(req.GetArguments())
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("argument %q must be a %s, not a %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("bad arguments: %w", err)
	}
	return nil
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
