package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// config is everything the command line decides.
type config struct {
	Direct       string `json:"direct"`        // http://host:port of a bare browser (without --launch)
	Proxy        string `json:"proxy"`         // http://host:port of a cdpvisor endpoint (without --launch)
	Launch       bool   `json:"launch"`        // start a bare Chromium and `cdpvisor serve` ourselves
	Browser      string `json:"browser"`       // browser executable for --launch
	CdpvisorBin  string `json:"cdpvisor_bin"`  // cdpvisor binary for --launch ("" = build or PATH)
	BaselineBin  string `json:"baseline_bin"`  // a second cdpvisor ("today's") for cold start and recovery ("" = none)
	Control      bool   `json:"control"`       // use cdpvisor's browser reached directly when it has a port
	JSONFile     string `json:"json_file"`     // where to write the JSON report ("" = nowhere)
	MarkdownFile string `json:"markdown_file"` // where to write the table as Markdown ("" = nowhere)
	Quick        bool   `json:"quick"`

	Only string `json:"only"` // comma-separated subset of figures to run ("" = all)

	RTCalls    int `json:"rt_calls"`        // round trip: calls per side
	RTBatch    int `json:"rt_batch"`        // round trip: calls per batch before switching sides
	RTWarmup   int `json:"rt_warmup"`       // round trip: warm-up calls per side
	NodeRounds int `json:"node_rounds"`     // Node round trip: rounds
	NodeCalls  int `json:"node_calls"`      // Node round trip: calls per side and round
	NodeSlice  int `json:"node_slice"`      // Node round trip: calls per side before the next side
	LargeRuns  int `json:"large_rounds"`    // large messages: transfers per size and side
	FaninRuns  int `json:"fanin_rounds"`    // fan-in: phases per side
	FaninCli   int `json:"fanin_clients"`   // fan-in: concurrent clients
	FaninReq   int `json:"fanin_requests"`  // fan-in: requests per client
	ColdRuns   int `json:"cold_rounds"`     // cold start: launches per side
	RecovRuns  int `json:"recovery_rounds"` // recovery: kills (and bare launches) per round
	MemCli     int `json:"mem_clients"`     // memory: clients connected for the "with clients" figure

	WorldsAgents     int           `json:"worlds_agents"`        // worlds: agents (worlds, browsers)
	WorldsPages      int           `json:"worlds_pages"`         // worlds: pages per agent
	WorldsRounds     int           `json:"worlds_rounds"`        // worlds: rounds, every side once each
	WorldsSettle     time.Duration `json:"worlds_settle_ns"`     // worlds: wait after the pages loaded
	WorldsRTCalls    int           `json:"worlds_rt_calls"`      // worlds: round trip calls per side and round
	WorldsContexts   bool          `json:"worlds_contexts_side"` // worlds: also Chromium's own contexts
	WorldScaleCounts string        `json:"worldscale_counts"`    // worldscale: counts of worlds
	WorldScaleCalls  int           `json:"worldscale_calls"`     // worldscale: round trips per agent
	WorldTimeSamples int           `json:"worldtime_samples"`    // worldtime: fresh contexts per side
	RestoreSamples   int           `json:"restore_samples"`      // restore: samples per side
	RestoreCookies   int           `json:"restore_cookies"`      // restore: cookies in the kept state
	RestoreOrigins   int           `json:"restore_origins"`      // restore: origins with localStorage
	RestoreKeys      int           `json:"restore_keys"`         // restore: localStorage keys per origin
	JournalRounds    int           `json:"journal_rounds"`       // journal: rounds of --node-calls per side

	SoakDuration       time.Duration `json:"soak_duration_ns"`            // soak: how long agents loop
	SoakAgents         int           `json:"soak_agents"`                 // soak: agents at once
	SoakLoops          int           `json:"soak_loops"`                  // soak: loops per run of an agent
	SoakSample         time.Duration `json:"soak_sample_ns"`              // soak: sampling period
	SoakSettle         time.Duration `json:"soak_settle_ns"`              // soak: samples before this are not in the spreads
	SoakKillEvery      time.Duration `json:"soak_kill_every_ns"`          // soak: kill -9 of the browser
	SoakHangEvery      time.Duration `json:"soak_hang_every_ns"`          // soak: SIGSTOP of the browser
	SoakAgentKillEvery time.Duration `json:"soak_agent_kill_every_ns"`    // soak: one agent killed
	SoakIdleAt         time.Duration `json:"soak_idle_at_ns"`             // soak: when the idle stop is crossed (0: never)
	SoakIdleStop       time.Duration `json:"soak_idle_stop_ns"`           // soak: cdpvisor's --idle-stop
	SoakRunLimit       time.Duration `json:"soak_run_limit_ns"`           // soak: one run of an agent at most
	SoakThink          time.Duration `json:"soak_think_ns"`               // soak: an agent's pause after each loop
	SoakCSV            string        `json:"soak_csv"`                    // soak: samples as CSV ("" = beside the PNG)
	SoakPNG            string        `json:"soak_png"`                    // soak: the plot ("" = none)
	SoakRecord         bool          `json:"soak_record"`                 // soak: serve --record (every world recorded)
	SoakRecordCap      byteSize      `json:"soak_record_cap_bytes"`       // soak: serve --record-cap
	SoakRecordTotalCap byteSize      `json:"soak_record_total_cap_bytes"` // soak: serve --record-total-cap

	CrowdCounts string `json:"crowd_counts"`     // crowd: counts of agents ("" = 8,16,32,64; quick 4,8)
	CrowdSides  string `json:"crowd_sides"`      // crowd: sides, of crowdSideNames
	CrowdLoops  int    `json:"crowd_loops"`      // crowd: loops per agent (0 = by N)
	CrowdProcs  int    `json:"crowd_node_procs"` // crowd: Node processes a side's agents share
	CrowdData   string `json:"crowd_data"`       // crowd: the plot's data ("" = beside --crowd-png)
	CrowdPNG    string `json:"crowd_png"`        // crowd: the plot ("" = none)

	Timeout time.Duration `json:"timeout_ns"` // one CDP request

	CvLogLevel string `json:"cdpvisor_log_level"` // --log-level of the cdpvisor started
	CvLogFile  string `json:"cdpvisor_log_file"`  // append their stderr here ("" = nowhere)
}

func (c config) wants(figure string) bool {
	if c.Only == "" {
		return !contains(optInFigures, figure)
	}
	for _, f := range splitComma(c.Only) {
		if f == figure {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// figureNames are the values --only accepts.
var figureNames = []string{"roundtrip", "roundtrip-node", "large", "fanin", "coldstart", "recovery", "memory", "worlds", "worldtime", "worldscale", "liveview", "restore", "journal", "soak", "recording", "crowd"}

// optInFigures run only when --only names them: worlds starts a dozen
// browsers and does not compare cdpvisor with a bare browser.
var optInFigures = []string{"worlds", "worldtime", "worldscale", "liveview", "restore", "journal", "soak", "recording", "crowd"}

// pairFigures are those measured on the long-lived pair: a bare browser
// and a cdpvisor.
func (c config) wantsPair() bool {
	for _, f := range figureNames {
		if !contains(optInFigures, f) && c.wants(f) {
			return true
		}
	}
	return false
}

// parseConfig reads the flags; -1 means "not given" for the counts, so
// --quick can shrink only what was not set explicitly.
func parseConfig(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("cdpbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Direct, "direct", "", "direct CDP endpoint of a bare browser, http://host:port")
	fs.StringVar(&c.Proxy, "proxy", "", "cdpvisor endpoint, http://host:port")
	fs.BoolVar(&c.Launch, "launch", false, "start a bare Chromium and `cdpvisor serve` here (needed for cold start, recovery, memory)")
	fs.StringVar(&c.Browser, "browser", "/usr/bin/chromium", "browser executable for --launch")
	fs.StringVar(&c.CdpvisorBin, "cdpvisor-bin", "", "cdpvisor binary for --launch (default: go build ./cmd/cdpvisor into a temp dir when run in the module, else `cdpvisor` on PATH)")
	fs.StringVar(&c.BaselineBin, "baseline-bin", "", "a second cdpvisor binary (\"today's\" build) that cold start and recovery also measure, interleaved, against the target cdpvisor − baseline ≤ +50 ms (--launch)")
	fs.BoolVar(&c.Control, "control", true, "reach cdpvisor's own browser directly when it has a debugging port (the \"same browser\" sides, the Node round trip's upstream); false runs as if it had none")
	fs.StringVar(&c.JSONFile, "json", "", "write every number as JSON to this file")
	fs.StringVar(&c.MarkdownFile, "markdown", "", "write the table as Markdown to this file (for docs/performance.md)")
	fs.BoolVar(&c.Quick, "quick", false, "fewer rounds everywhere (about a minute)")
	fs.StringVar(&c.Only, "only", "", "comma-separated figures to run: roundtrip,roundtrip-node,large,fanin,coldstart,recovery,memory,worlds,worldtime,worldscale,liveview,restore,journal,soak,recording,crowd (default all but worlds, worldtime, worldscale, liveview, restore, journal, soak, recording and crowd)")
	fs.IntVar(&c.RTCalls, "rt-calls", -1, "round trip: calls per side (default 4000, quick 1000)")
	fs.IntVar(&c.RTBatch, "rt-batch", 50, "round trip: calls per batch before switching sides")
	fs.IntVar(&c.RTWarmup, "rt-warmup", 200, "round trip: warm-up calls per side")
	fs.IntVar(&c.NodeRounds, "node-rounds", -1, "Node round trip: rounds (default 3, quick 1)")
	fs.IntVar(&c.NodeCalls, "node-calls", 2000, "Node round trip: calls per side and round")
	fs.IntVar(&c.NodeSlice, "node-slice", 100, "Node round trip: calls per side before the next side takes its turn")
	fs.IntVar(&c.LargeRuns, "large-rounds", -1, "large messages: transfers per size and side (default 8, quick 5)")
	fs.IntVar(&c.FaninRuns, "fanin-rounds", -1, "fan-in: phases per side (default 2, quick 1)")
	fs.IntVar(&c.FaninCli, "fanin-clients", 100, "fan-in: concurrent clients")
	fs.IntVar(&c.FaninReq, "fanin-requests", 500, "fan-in: requests per client")
	fs.IntVar(&c.ColdRuns, "cold-rounds", -1, "cold start: launches per side (default 9, quick 3)")
	fs.IntVar(&c.RecovRuns, "recovery-rounds", -1, "recovery: kill -9 rounds (default 9, quick 3)")
	fs.IntVar(&c.MemCli, "mem-clients", 100, "memory: websocket clients connected for the second figure")
	fs.IntVar(&c.WorldsAgents, "worlds-agents", 5, "worlds: agents, as worlds of one cdpvisor and as separate browsers")
	fs.IntVar(&c.WorldsPages, "worlds-pages", 2, "worlds: pages of the local page per agent")
	fs.IntVar(&c.WorldsRounds, "worlds-rounds", -1, "worlds: rounds, each side once per round (default 3, quick 1)")
	fs.DurationVar(&c.WorldsSettle, "worlds-settle", 3*time.Second, "worlds: wait after the pages loaded before reading memory")
	fs.IntVar(&c.WorldsRTCalls, "worlds-rt-calls", -1, "worlds: round trip calls per side and round (default 2000, quick 500)")
	fs.StringVar(&c.WorldScaleCounts, "worldscale-counts", "1,10,25,50", "worldscale: counts of worlds, each on a fresh cdpvisor")
	fs.IntVar(&c.WorldScaleCalls, "worldscale-calls", 200, "worldscale: round trips per world's agent, all agents at once")
	fs.IntVar(&c.WorldTimeSamples, "worldtime-samples", 50, "worldtime: fresh worlds (and fresh browsers, and Chromium contexts) to time, interleaved")
	fs.IntVar(&c.RestoreSamples, "restore-samples", -1, "restore: samples per side, interleaved (default 40, quick 10)")
	fs.IntVar(&c.RestoreCookies, "restore-cookies", 200, "restore: cookies in the kept world's state")
	fs.IntVar(&c.RestoreOrigins, "restore-origins", 20, "restore: origins with localStorage in the kept world's state (each a loopback port)")
	fs.IntVar(&c.RestoreKeys, "restore-keys", 10, "restore: localStorage keys per origin (the token and 200-byte others)")
	fs.IntVar(&c.JournalRounds, "journal-rounds", -1, "journal: rounds of --node-calls calls per side, journal on, off and direct interleaved (default 5, quick 1)")
	fs.BoolVar(&c.WorldsContexts, "worlds-contexts", true, "worlds: also measure Chromium's own contexts (one cdpvisor, Target.createBrowserContext per agent)")
	fs.DurationVar(&c.SoakDuration, "soak-duration", 60*time.Minute, "soak: how long the agents loop (then each finishes its run)")
	fs.IntVar(&c.SoakAgents, "soak-agents", 20, "soak: agents at once (two MCP hosts, then Puppeteer, Playwright, chrome-remote-interface and chromedp in turn)")
	fs.IntVar(&c.SoakLoops, "soak-loops", 10, "soak: loops of work per run of an agent")
	fs.DurationVar(&c.SoakSample, "soak-sample", 10*time.Second, "soak: sampling period")
	fs.DurationVar(&c.SoakSettle, "soak-settle", 5*time.Minute, "soak: samples before this are left out of the spreads")
	fs.DurationVar(&c.SoakKillEvery, "soak-kill-every", 2*time.Minute, "soak: kill -9 of the browser this often (0: never)")
	fs.DurationVar(&c.SoakHangEvery, "soak-hang-every", 10*time.Minute, "soak: SIGSTOP of the browser this often (0: never)")
	fs.DurationVar(&c.SoakAgentKillEvery, "soak-agent-kill-every", 5*time.Minute, "soak: one agent killed (and started again) this often (0: never)")
	fs.DurationVar(&c.SoakIdleAt, "soak-idle-at", -1, "soak: when every agent pauses until the browser's idle stop (default half the duration; 0: never)")
	fs.DurationVar(&c.SoakIdleStop, "soak-idle-stop", 20*time.Second, "soak: cdpvisor's --idle-stop")
	fs.DurationVar(&c.SoakRunLimit, "soak-run-limit", 10*time.Minute, "soak: one run of an agent at most")
	fs.DurationVar(&c.SoakThink, "soak-think", 15*time.Second, "soak: each agent's pause after a loop, as an agent's model thinks between tasks (20 agents looping without one keep 2 vCPUs at a load of 50: every client's own timeouts fire)")
	fs.StringVar(&c.SoakCSV, "soak-csv", "", "soak: write the samples as CSV here (default: beside --soak-png)")
	fs.StringVar(&c.SoakPNG, "soak-png", "", "soak: plot RSS, goroutines and fds here with gnuplot (cmd/cdpbench/soak.gp)")
	fs.BoolVar(&c.SoakRecord, "soak-record", true, "soak: cdpvisor records every world (serve --record); --soak-record=false for none")
	c.SoakRecordCap, c.SoakRecordTotalCap = 2<<20, 24<<20
	// The 20 agents record about 2.8 MB a minute together, a busy world
	// up to 0.4 MB (measured 2026-12-07): these caps are reached in 10 min.
	fs.Var(&c.SoakRecordCap, "soak-record-cap", "soak: serve --record-cap, one world's recording at most, small for the soak to reach it (a size: 2MB, 1GB, or bytes; K, M, G are 1024s)")
	fs.Var(&c.SoakRecordTotalCap, "soak-record-total-cap", "soak: serve --record-total-cap, all recordings together at most, small for the soak to reach it (a size, as --soak-record-cap)")
	fs.StringVar(&c.CrowdCounts, "crowd-counts", "", "crowd: counts of agents at once, each side once per count (default 8,16,32,64; quick 4,8)")
	fs.StringVar(&c.CrowdSides, "crowd-sides", strings.Join(crowdSideNames, ","), "crowd: sides, interleaved: chromium (a bare Chromium, a context per agent), cdpvisor (a world per agent), cdpvisor-unpaced (serve --max-loads 0)")
	fs.IntVar(&c.CrowdLoops, "crowd-loops", 0, "crowd: loops per agent (default max(3, 240/N); quick max(3, 48/N))")
	fs.IntVar(&c.CrowdProcs, "crowd-node-procs", 1, "crowd: Node processes that share a side's agents (more if one process's CPU nears a core)")
	fs.StringVar(&c.CrowdData, "crowd-data", "", "crowd: write the plot's data here (default: beside --crowd-png)")
	fs.StringVar(&c.CrowdPNG, "crowd-png", "", "crowd: plot loops/s and loop time against N here with gnuplot (cmd/cdpbench/crowd.gp)")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Second, "limit for one CDP request")
	fs.StringVar(&c.CvLogLevel, "cdpvisor-log-level", "warn", "--log-level of the cdpvisor instances started (--launch); debug logging costs time")
	fs.StringVar(&c.CvLogFile, "cdpvisor-log", "", "append the stderr of the cdpvisor instances started to this file (--launch)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if !c.Launch && (c.Direct == "" || c.Proxy == "") {
		return c, errors.New("give --direct URL and --proxy URL, or --launch")
	}
	if !c.Launch && c.BaselineBin != "" {
		return c, errors.New("--baseline-bin needs --launch (it starts the baseline cdpvisor itself)")
	}
	if c.Launch && (c.Direct != "" || c.Proxy != "") {
		return c, errors.New("--launch starts both endpoints itself: drop --direct/--proxy")
	}
	for _, f := range splitComma(c.Only) {
		if !contains(figureNames, f) {
			return c, fmt.Errorf("--only: unknown figure %q (know %v)", f, figureNames)
		}
	}
	c.applyDefaults()
	if c.RTBatch <= 0 || c.RTCalls <= 0 || c.LargeRuns <= 0 || c.FaninRuns <= 0 || c.FaninCli <= 0 ||
		c.FaninReq <= 0 || c.ColdRuns <= 0 || c.RecovRuns <= 0 || c.NodeRounds <= 0 || c.NodeCalls <= 0 || c.NodeSlice <= 0 || c.MemCli < 0 || c.RTWarmup < 0 || c.Timeout <= 0 ||
		c.WorldsPages <= 0 || c.WorldsRounds <= 0 || c.WorldsRTCalls <= 0 || c.WorldsSettle < 0 ||
		c.RestoreSamples <= 0 || c.RestoreCookies < 0 || c.RestoreOrigins <= 0 || c.RestoreKeys <= 0 || c.JournalRounds <= 0 {
		return c, errors.New("counts and --timeout must be positive")
	}
	if c.SoakIdleAt < 0 {
		c.SoakIdleAt = c.SoakDuration / 2
	}
	if c.SoakDuration <= 0 || c.SoakAgents < 1 || c.SoakLoops < 1 || c.SoakSample <= 0 || c.SoakRunLimit <= 0 || c.SoakThink < 0 {
		return c, errors.New("--soak-duration, --soak-agents, --soak-loops, --soak-sample and --soak-run-limit must be positive")
	}
	if err := c.checkCrowd(); err != nil {
		return c, err
	}
	if c.WorldsAgents < 2 {
		return c, errors.New("--worlds-agents: at least 2 (the marginal agent is the difference from one)")
	}
	return c, nil
}

func (c *config) applyDefaults() {
	pick := func(v *int, full, quick int) {
		if *v >= 0 {
			return
		}
		if c.Quick {
			*v = quick
		} else {
			*v = full
		}
	}
	pick(&c.RTCalls, 4000, 1000)
	pick(&c.NodeRounds, 3, 1)
	pick(&c.LargeRuns, 8, 5)
	pick(&c.FaninRuns, 2, 1)
	pick(&c.ColdRuns, 9, 3)
	pick(&c.RecovRuns, 9, 3)
	pick(&c.WorldsRounds, 3, 1)
	pick(&c.WorldsRTCalls, 2000, 500)
	pick(&c.RestoreSamples, 40, 10)
	pick(&c.JournalRounds, 5, 1)
	if c.CrowdCounts == "" {
		c.CrowdCounts = "8,16,32,64"
		if c.Quick {
			c.CrowdCounts = "4,8"
		}
	}
}

// checkCrowd checks the crowd's flags.
func (c config) checkCrowd() error {
	if _, err := crowdCounts(c.CrowdCounts); err != nil {
		return err
	}
	sides := splitComma(c.CrowdSides)
	if len(sides) == 0 {
		return errors.New("--crowd-sides: no side")
	}
	for _, s := range sides {
		if !contains(crowdSideNames, s) {
			return fmt.Errorf("--crowd-sides: unknown side %q (know %v)", s, crowdSideNames)
		}
	}
	if c.CrowdLoops < 0 || c.CrowdProcs < 1 {
		return errors.New("--crowd-loops must be ≥ 0 and --crowd-node-procs ≥ 1")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
