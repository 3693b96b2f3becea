package mcptools

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// launchArgs are coordinator_launch_browser's arguments; left out keeps
// the browser's current option.
type launchArgs struct {
	Type        *string  `json:"type"`
	Browser     *string  `json:"browser"`
	Headless    *bool    `json:"headless"`
	UserDataDir *string  `json:"user_data_dir"`
	Args        []string `json:"args"`
	Instance    any      `json:"instance"`
}

// launchBrowser is coordinator_launch_browser: launch an instance's
// browser, or switch it to other options, behind the same endpoint.
func launchBrowser(d deps) server.ServerTool {
	def := toolDef{
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
	}
	return serverTool(def, func(ctx context.Context, req mcp.CallToolRequest, args launchArgs) (*mcp.CallToolResult, error) {
		b, err := browserOrType(args.Browser, args.Type)
		if err != nil {
			return toolError(def.name, err)
		}
		ref, err := instanceRef("instance", args.Instance)
		if err != nil {
			return toolError(def.name, err)
		}
		change := browser.Change{Browser: b, Headless: args.Headless, UserDataDir: args.UserDataDir, Args: args.Args}
		progress := progressOf(ctx, req)
		r, err := d.c.LaunchBrowser(ctx, ref, change, progress)
		switch {
		case errors.Is(err, actors.ErrFamilySwitch) && args.Instance == nil:
			// Asked of the default instance without naming it: the
			// coordinator launches it behind an endpoint of its own.
			return launchOfFamily(ctx, d, def.name, change, progress)
		case errors.Is(err, actors.ErrUnknownInstance):
			return refError(def.name, "instance", err)
		case errors.Is(err, actors.ErrFamilySwitch):
			return toolError(def.name, err) // nothing was launched or stopped
		case err != nil:
			return toolErrorf(def.name, "launch failed: %w", err)
		}
		return result(relaunchAnswer(r, "launched"))
	})
}

// launchOfFamily asks the coordinator for a browser of the other family
// than the default instance's and says where it runs and what the default
// endpoint keeps serving.
func launchOfFamily(ctx context.Context, d deps, tool string, change browser.Change, progress actors.Progress) (*mcp.CallToolResult, error) {
	fl, err := d.c.LaunchOfFamily(ctx, change, progress)
	switch {
	case err != nil && fl.Instance != "":
		return toolErrorf(tool, "launch failed on %s: %w", fl.Instance, err)
	case err != nil:
		return toolErrorf(tool, "launch failed: %w", err)
	}
	data, text := relaunchAnswer(fl.Launched, "launched")
	data.InstanceCreated = &fl.Created
	how := "in"
	if fl.Created {
		how = "in a new instance,"
	}
	serving := "CDP at " + fl.Default.URL
	if fl.Default.Protocol == launch.ProtocolBiDi {
		serving = "WebDriver BiDi at " + fl.Default.URL
	}
	text += fmt.Sprintf("; it runs %s %s behind its own endpoint, since the default instance %s keeps serving %s for the clients given it",
		how, fl.Instance, fl.Default.Instance, serving)
	return result(data, text)
}
