package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/crowdflags"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
)

// commandDoc is what a command's --help says besides its flags.
type commandDoc struct {
	purpose  string
	usage    []string // after "cdpvisor "
	about    string   // a paragraph or two
	groups   []flagGroup
	sections []section
	examples []string
}

type flagGroup struct {
	title string
	flags []string
}

type section struct{ title, body string }

// placeholders name the value a flag takes.
var placeholders = map[string]string{
	"port": "PORT", "browser": "NAME|PATH", "user-data-dir": "DIR", "browser-arg": "ARG", "allow-origin": "ORIGIN",
	"state-dir": "DIR", "hang-timeout": "DURATION", "idle-stop": "DURATION", "launch-timeout": "DURATION", "drain-timeout": "DURATION",
	"log-level": "LEVEL", "log-format": "FORMAT", "instance-ports": "LO-HI", "max-instances": "N", "max-worlds": "N", "instance": "ID", "listen": "ADDR:PORT", "token-file": "FILE", "allow-host": "NAME", "deny-host": "NAME", "proxy": "URL", "allow-file": "DIR",
	"timeout": "DURATION", "state": "FILE", "download-dir": "DIR",
	"channel": "NAME", "dir": "DIR", "mirror": "URL", "protocol": "PROTOCOL",
	"storage-state": "FILE", "from-user-browser": "ORIGINS", "from-world": "NAME", "origin": "ORIGIN", "output": "FILE", "since": "SEQ|TIME",
	"record-cap": "SIZE", "max-loads": "N", "record-total-cap": "SIZE", "format": "trace|webm",
}

// seedFlags seed a world when it is made (world open, wrap --isolate).
var seedFlags = flagGroup{"Seed the world (its sign-ins)", []string{"storage-state", "from-user-browser", "from-world", "origin"}}

// policyFlags give a world its network policy and upstream proxy when it is made.
var policyFlags = flagGroup{"The world's network policy", []string{"allow-host", "deny-host", "proxy", "allow-file", "replace"}}

// shownDefaults replace defaults that depend on the machine, so help reads
// the same everywhere.
var shownDefaults = map[string]string{
	"state-dir":    "$XDG_RUNTIME_DIR/cdpvisor, else $TMPDIR/cdpvisor-<uid>",
	"download-dir": "$XDG_DOWNLOAD_DIR/cdpvisor, else ~/Downloads/cdpvisor",
	"channel":      "stable",
	"dir":          "$XDG_CACHE_HOME/cdpvisor/browsers (~/.cache, ~/Library/Caches, %LOCALAPPDATA%)",
}

var (
	endpointFlags = flagGroup{"Endpoint", []string{"port", "allow-origin", "state-dir"}}
	browserFlags  = flagGroup{"Browser", []string{"browser", "windows", "headless", "headed", "user-data-dir", "attach", "download-dir", "browser-arg", "launch-timeout"}}
	healthFlags   = flagGroup{"Health", []string{"hang-timeout", "idle-stop", "debug-pprof"}}
	worldsFlags   = flagGroup{"Worlds", []string{"max-worlds", "journal"}}
	recordFlags   = flagGroup{"Recording (world trace)", recordflags.Names}
	crowdFlags    = flagGroup{"A crowd of agents (GET /cdpvisor/pressure)", crowdflags.Names}
	logFlags      = flagGroup{"Logs (stderr)", []string{"log-level", "log-format"}}
)

var docs = map[string]commandDoc{
	"serve": {
		purpose: "run the supervisor in the foreground behind a stable CDP endpoint",
		usage:   []string{"serve [flags]"},
		about: "Prints the endpoint (http://127.0.0.1:PORT) as the one line on stdout. The browser starts on the first\n" +
			"request, is relaunched when it dies, and everything it started is removed when cdpvisor stops.",
		groups: []flagGroup{endpointFlags, browserFlags, healthFlags, worldsFlags, recordFlags, crowdFlags,
			{"Beyond loopback (a fleet's replica)", []string{"listen", "token-file", "allow-host", "drain-timeout"}}, logFlags},
		examples: []string{
			"cdpvisor serve --port 9222",
			"CDPVISOR_TOKEN=… cdpvisor serve --listen 0.0.0.0:9222 --allow-host cdpvisor.agents.svc",
			"cdpvisor serve --browser chrome --headed --user-data-dir ~/profiles/agent",
			"cdpvisor serve --hang-timeout 30s --idle-stop 15m",
			"cdpvisor serve --max-worlds 8",
			"CDPVISOR_BROWSER_ARG='--lang=fr \"--user-agent=My Agent\"' cdpvisor serve",
		},
	},
	"mcp": {
		purpose: "the supervisor plus an MCP server on stdin/stdout, for AI hosts",
		usage:   []string{"mcp [flags]"},
		about: "Speaks MCP on stdio (its lifecycle tools: coordinator_status, coordinator_launch_browser, …) and owns a\n" +
			"stable CDP endpoint on loopback; exits when stdin closes or its host goes.",
		groups: []flagGroup{endpointFlags, browserFlags, healthFlags, worldsFlags, recordFlags, crowdFlags,
			{"Instances", []string{"instance-ports", "max-instances"}}, logFlags},
		examples: []string{
			`{"mcpServers": {"browser": {"command": "cdpvisor", "args": ["mcp"]}}}`,
			"cdpvisor mcp --port 9222 --idle-stop 30m",
			"cdpvisor mcp --instance-ports 3301-3399 --max-instances 5",
		},
	},
	"wrap": {
		purpose: "run a child MCP server against the running coordinator's endpoint",
		usage:   []string{"wrap [flags] -- CMD ARGS…"},
		about: "Finds the running coordinator (an explicit --state file; else the one started by the same parent, as\n" +
			"an AI host starts both; else the most recent), fills the placeholders into CMD ARGS…, runs CMD with\n" +
			"this process's stdin, stdout and stderr, passes SIGINT, SIGTERM and SIGHUP on, and exits with its code.",
		groups: []flagGroup{
			{"Wrap", []string{"instance", "isolate", "record", "timeout", "state", "state-dir", "standalone"}}, seedFlags, policyFlags,
			{"Standalone coordinator (with --standalone)", []string{"port", "browser", "windows", "headless", "headed", "user-data-dir", "attach",
				"download-dir", "browser-arg", "launch-timeout", "allow-origin", "hang-timeout", "idle-stop"}},
			logFlags,
		},
		sections: []section{
			{"Placeholders in CMD ARGS…", "{cdp_endpoint}   http://127.0.0.1:PORT, the stable endpoint (for --browserUrl, --cdp-endpoint)\n" +
				"{cdp_port}       PORT\n" +
				"{cdp_ws}         ws://127.0.0.1:PORT/devtools/browser, the browser websocket that survives restarts\n" +
				"{bidi_endpoint}  ws://127.0.0.1:PORT/session, the WebDriver BiDi socket of an instance that runs Firefox\n" +
				"The CDP ones are empty when the instance runs Firefox, {bidi_endpoint} when it runs a Chromium-family\n" +
				"browser; wrap warns on stderr when the command uses one that is empty.\n" +
				"With --isolate, all three are the world's, on its own port: {cdp_endpoint} http://127.0.0.1:WPORT,\n" +
				"{cdp_port} WPORT, {cdp_ws} ws://127.0.0.1:WPORT/devtools/browser. However a client spells its URL\n" +
				"(--browserUrl, --port, a websocket), it reaches the world alone."},
			{"Environment of the child", "CDP_ENDPOINT, CDP_PORT, CDP_WS and BIDI_ENDPOINT, with the same values (set, empty or not)"},
		},
		examples: []string{
			"cdpvisor wrap -- npx chrome-devtools-mcp --browserUrl={cdp_endpoint}",
			"cdpvisor wrap -- npx @playwright/mcp --cdp-endpoint={cdp_endpoint}",
			"cdpvisor wrap --instance inst_1732350000000_a1b2c3 -- node my-mcp.js --port {cdp_port}",
			"cdpvisor wrap --standalone -- npx chrome-devtools-mcp --browserUrl={cdp_endpoint}",
			"cdpvisor wrap --isolate -- npx chrome-devtools-mcp --browserUrl={cdp_endpoint}",
			"cdpvisor wrap --isolate=shop-agent -- npx @playwright/mcp --cdp-endpoint={cdp_endpoint}",
			"cdpvisor wrap --isolate=shop --storage-state shop.json -- npx @playwright/mcp --cdp-endpoint={cdp_endpoint}",
			"cdpvisor wrap --isolate --record -- npx @playwright/mcp --cdp-endpoint={cdp_endpoint}",
			"cdpvisor wrap --instance inst_1732350000000_f4e5d6 -- node my-bidi-client.js {bidi_endpoint}",
		},
	},
	"world": {
		purpose: "open, list, close and export the running coordinator's worlds, each with a loopback port of its own, and read their journals and recordings",
		usage: []string{"world open NAME [--storage-state FILE | --from-user-browser=ORIGIN[,…] | --from-world NAME [--origin O]…] [flags]",
			"world list [--json] [flags]", "world close NAME [--forget] [flags]", "world export NAME [--output FILE] [flags]",
			"world journal NAME [--since SEQ|TIME] [--follow] [flags]", "world trace NAME [--since TIME|10m] [--output FILE|-] [--format trace|webm] [flags]"},
		about: "open makes the world NAME (a browser context of its own on the shared browser), or finds it, launching\n" +
			"nothing, and prints its own endpoint http://127.0.0.1:WPORT alone on stdout, for any CDP client; a seed\n" +
			"gives it sign-ins first, whole or not at all. A named world keeps its cookies and localStorage across\n" +
			"restarts, and its network policy (--allow-host, --deny-host, --proxy, --allow-file): opened again by anyone\n" +
			"it is guarded as before, and another policy needs --replace. close closes its clients, pages and port,\n" +
			"--forget also deletes what it keeps. export prints its Playwright storage state. journal prints what the\n" +
			"world's clients did (JSON lines: each command's method, target and answer, navigations' URLs, hosts\n" +
			"reached and denied; no other parameter), --follow then each new entry until interrupted. trace writes a\n" +
			"recorded world's recording (open --record, or a coordinator's --record) as a Playwright trace, whole or\n" +
			"not at all, and prints its file. Exits 2 for a bad name, seed or flag, no coordinator, or a Firefox instance.",
		groups: []flagGroup{{"Coordinator", []string{"instance", "state", "state-dir", "timeout"}}, seedFlags, policyFlags,
			{"Record", []string{"record"}}, {"Close, export and trace", []string{"forget", "output"}}, {"Journal and trace", []string{"since", "follow", "format"}},
			{"Output", []string{"json"}}, logFlags},
		examples: []string{
			"ENDPOINT=$(cdpvisor world open alice)",
			"cdpvisor world open shop --storage-state shop.json",
			"cdpvisor world open mail --from-user-browser=https://mail.example.com",
			"cdpvisor world open shop --allow-host shop.example.com --allow-file ~/to-upload",
			"cdpvisor world list --json",
			"cdpvisor world export shop --output shop.json",
			"cdpvisor world close alice --forget",
			"cdpvisor world journal shop --follow",
			"cdpvisor world open shop --record",
			"cdpvisor world trace shop --since 10m && npx playwright show-trace shop-*.zip",
		},
	},
	"browsers": {
		purpose: "list the browsers installed here: the Chromium family (CDP) and Firefox (WebDriver BiDi)",
		usage:   []string{"browsers [--protocol cdp|bidi] [--json]"},
		about: "In the order --browser picks them: Chrome, Edge, Chromium, Brave, Firefox; within each the stable release\n" +
			"first, then ESR, builds of no channel, beta, dev (Developer Edition), canary and nightly, headless shells\n" +
			"last. Firefox (protocol bidi) is never picked by default; with --browser firefox the endpoint serves\n" +
			"WebDriver BiDi at /session.\n" +
			"Exits 1 when there is none (of --protocol's, when given), with --json too (after printing []), and\n" +
			"says on stderr what to install; a script asks 'is there one?' with the exit status alone.",
		groups: []flagGroup{{"Which", []string{"protocol"}}, {"Output", []string{"json"}}},
		sections: []section{
			{"Where it looks", "the installers' own places (/usr/bin, /opt, /snap/bin; /Applications, ~/Applications; Program Files,\n" +
				"%LOCALAPPDATA%), every channel; commands on $PATH; and the download caches: 'cdpvisor install'\n" +
				"(" + detect.InstallDirEnv + ", else $XDG_CACHE_HOME/cdpvisor/browsers), Playwright (PLAYWRIGHT_BROWSERS_PATH,\n" +
				"else ms-playwright in the user cache) and Puppeteer (PUPPETEER_CACHE_DIR, else ~/.cache/puppeteer).\n" +
				detect.DetectRootEnv + "=DIR looks for the installers' places under DIR instead of /, to try what\n" +
				"happens on a machine without them."},
			{"Fields (--json)", "name, type (chrome, edge, chromium, brave, firefox), protocol (cdp, bidi), channel (stable, esr,\n" +
				"beta, dev, devedition, canary, nightly, snapshot; \"\" when the build follows none), source (system, path,\n" +
				"cdpvisor, playwright, puppeteer), version, path"},
		},
		examples: []string{
			"cdpvisor browsers",
			"cdpvisor browsers --json | jq -r '.[] | select(.channel == \"beta\") | .path'",
			"cdpvisor browsers --protocol cdp > /dev/null || cdpvisor install chrome",
		},
	},
	"install": {
		purpose: "download a browser into your user cache, where browsers and --browser find it",
		usage:   []string{"install [chrome|chromium|chrome-headless-shell] [--channel stable|beta|dev|canary] [--dir DIR]"},
		about: "chrome                  Google Chrome for Testing (the default): the version the channel's last-known-good\n" +
			"                        entry names in Google's index, for this OS and CPU\n" +
			"chrome-headless-shell   Chrome for Testing's headless-only shell: smaller, cannot run --headed\n" +
			"chromium                the newest Chromium snapshot build, as Puppeteer's chromium: tip of tree, untested\n" +
			"                        between releases (Chromium has no release builds and Chrome for Testing has no\n" +
			"                        Chromium); no --channel. Prefer chrome unless you need an unbranded build.\n" +
			"\n" +
			"The zip goes to a temporary name in the cache, is checked (its length, every file's CRC-32), unzipped\n" +
			"there and renamed into DIR/<browser>/<channel>-<version>/ only when complete: an interrupted or failed\n" +
			"install leaves nothing. Progress goes to stderr (a bar on a terminal, plain lines otherwise); the\n" +
			"installed executable's path is the one line on stdout. Installing what is there already downloads nothing.\n" +
			"On Linux the browser needs the libraries Chrome depends on (Debian: the ones apt-get install chromium pulls in).",
		groups: []flagGroup{{"Install", []string{"channel", "dir", "mirror"}}},
		sections: []section{
			{"A mirror serves Google's layout", "chrome, chrome-headless-shell: URL/last-known-good-versions-with-downloads.json and the zips under\n" +
				"  URL/<version>/<platform>/chrome-<platform>.zip (the index's storage.googleapis.com URLs are moved there)\n" +
				"chromium: URL/<Platform>/LAST_CHANGE and URL/<Platform>/<revision>/chrome-<os>.zip (Linux_x64, Mac_Arm, …)"},
		},
		examples: []string{
			"cdpvisor install",
			"cdpvisor install chrome --channel beta",
			"cdpvisor install chrome-headless-shell",
			"cdpvisor serve --browser \"$(cdpvisor install chromium)\"",
			"CDPVISOR_BROWSER_MIRROR=https://mirror.example/chrome-for-testing cdpvisor install",
		},
	},
	"status": {
		purpose: "show running coordinators, their instances, browsers and ports",
		usage:   []string{"status [--json] [--state-dir DIR]"},
		about: "Asks each coordinator in the state dir how it is, without launching anything. Exits 1 when every\n" +
			"state file it finds is stale or corrupt.",
		groups: []flagGroup{{"Output", []string{"json", "state-dir"}}, logFlags},
		examples: []string{
			"cdpvisor status",
			"cdpvisor status --json | jq '.[0].instances[0].endpoint'",
		},
	},
}

// printHelp writes a command's help: purpose, usage, flags in groups with
// placeholder, environment variable and default, sections, examples.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	doc := docs[fs.Name()]
	fmt.Fprintf(w, "cdpvisor %s: %s\n\nUsage:\n", fs.Name(), doc.purpose)
	for _, u := range doc.usage {
		fmt.Fprintf(w, "  cdpvisor %s\n", u)
	}
	if doc.about != "" {
		fmt.Fprintf(w, "\n%s\n", doc.about)
	}
	groups := doc.groups
	if len(groups) == 0 { // a command without a doc (internal): every flag
		var all []string
		fs.VisitAll(func(f *flag.Flag) { all = append(all, f.Name) })
		groups = []flagGroup{{"Flags", all}}
	}
	for _, g := range groups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.flags {
			if f := fs.Lookup(name); f != nil {
				printFlag(w, f)
			}
		}
	}
	for _, s := range doc.sections {
		fmt.Fprintf(w, "\n%s:\n  %s\n", s.title, strings.ReplaceAll(s.body, "\n", "\n  "))
	}
	if len(doc.examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, e := range doc.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	every := "Every flag"
	fs.VisitAll(func(f *flag.Flag) {
		if onlyOnCommandLine(f) {
			every = "Every flag but those of the command line only"
		}
	})
	fmt.Fprintf(w, "\n%s can also be set by its environment variable; a flag given on the command line wins.\n", every)
}

func printFlag(w io.Writer, f *flag.Flag) {
	left := "--" + f.Name
	if p := placeholders[f.Name]; p != "" {
		left += " " + p
	}
	fmt.Fprintf(w, "  %-26s %s\n", left, f.Usage)
	meta := "env " + envName(f.Name)
	if onlyOnCommandLine(f) {
		meta = "command line only"
	}
	def := f.DefValue
	if s, ok := shownDefaults[f.Name]; ok {
		def = s
	}
	if def != "" && def != "false" && def != "[]" {
		meta += ", default " + def
	}
	fmt.Fprintf(w, "  %-26s %s\n", "", meta)
}
