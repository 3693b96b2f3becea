package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// nodeRoundTripResult is the round trip as the clients users run see it: a
// Node `ws` client (the language of Puppeteer, Playwright and the MCP
// servers), sequential Runtime.evaluate "1" on one flattened session per
// side, the sides interleaved in slices: direct, cdpvisor, a plain Node
// relay and a minimal Go relay, each relay in its own process. Direct and
// the relays stand in front of cdpvisor's own browser, on the page the
// cdpvisor side uses, when it has a debugging port; else (issue 27: the
// pipe) in front of the bare browser, on a page of its own.
type nodeRoundTripResult struct {
	Upstream string             `json:"upstream"` // upstreamCdpvisorBrowser or upstreamBareBrowser
	Rounds   int                `json:"rounds"`
	Calls    int                `json:"calls_per_side_and_round"`
	Slice    int                `json:"slice"`
	Sides    map[string]summary `json:"sides"`
	// Overheads over direct of each relay, µs, by percentile.
	Overhead map[string]overhead `json:"overhead_us"`
	// RatioP50/RatioP99: cdpvisor's overhead over the Node relay's (0 when
	// the Node relay's is not positive: noise; then MetP50/MetP99 compare
	// the overheads as they are).
	RatioP50 float64 `json:"cdpvisor_over_node_relay_p50"`
	RatioP99 float64 `json:"cdpvisor_over_node_relay_p99"`
	MetP50   bool    `json:"met_p50"`
	MetP99   bool    `json:"met_p99"`
}

type overhead struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
}

// The sides of the Node round trip, in the order they take turns.
const (
	nodeSideDirect   = "direct"
	nodeSideCdpvisor = "cdpvisor"
	nodeSideNode     = "node_relay"
	nodeSideGo       = "go_relay"
)

var nodeSides = []string{nodeSideDirect, nodeSideCdpvisor, nodeSideNode, nodeSideGo}

// What the Node round trip's direct side and relays stand in front of.
const (
	upstreamCdpvisorBrowser = "cdpvisor's browser"
	upstreamBareBrowser     = "bare browser"
)

// nodeUpstream is the browser the direct side and both relays use and the
// page their sessions attach to.
type nodeUpstream struct {
	label, ws, target string
}

// chooseNodeUpstream: cdpvisor's own browser (control, a session on the
// cdpvisor side's page) when there is one, so every side is the same
// browser and the same page; else the bare browser d on its own page,
// made like the cdpvisor side's (Target.createTarget about:blank).
func chooseNodeUpstream(d, p, control *endpointSide) nodeUpstream {
	if control != nil {
		return nodeUpstream{label: upstreamCdpvisorBrowser, ws: control.ws, target: p.target}
	}
	return nodeUpstream{label: upstreamBareBrowser, ws: d.ws, target: d.target}
}

// Targets of the Node round trip (issue 15): cdpvisor's overhead against
// the Node relay's, same run.
const (
	targetNodeRatioP50 = 1.0
	targetNodeRatioP99 = 1.5
)

// measureNodeRoundTrip starts both yardstick relays in front of the
// upstream (chooseNodeUpstream), runs the Node client over all four sides
// and summarizes what it timed.
func (b *bench) measureNodeRoundTrip(ctx context.Context, d, p, control *endpointSide) (*nodeRoundTripResult, error) {
	clients, err := clientsDir()
	if err != nil {
		return nil, err
	}
	up := chooseNodeUpstream(d, p, control)
	progress("Node round trip: direct side and relays on the %s", up.label)
	nodeRelay, err := b.startRelay(ctx, "node relay", exec.Command("node", filepath.Join(clients, "bench_relay.mjs"), up.ws))
	if err != nil {
		return nil, err
	}
	defer nodeRelay.stop()
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	goRelay, err := b.startRelay(ctx, "go relay", exec.Command(self, goRelayCommand, up.ws))
	if err != nil {
		return nil, err
	}
	defer goRelay.stop()
	arg, err := nodeClientConfig(up, p, nodeRelay.port, goRelay.port, b.cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "node", filepath.Join(clients, "bench_roundtrip.mjs"), string(arg))
	cmd.Dir = clients
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node bench_roundtrip.mjs: %w\n%s", err, tail(stderr.String(), 2000))
	}
	var out struct {
		Sides map[string][]float64 `json:"sides"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("node bench_roundtrip.mjs printed no result: %w", err)
	}
	r := summarizeNode(out.Sides, b.cfg)
	r.Upstream = up.label
	return r, nil
}

// nodeClientConfig is bench_roundtrip.mjs's argument: every side's
// websocket and the page its session attaches to (the cdpvisor side's
// own page, the others the upstream's).
func nodeClientConfig(up nodeUpstream, p *endpointSide, nodePort, goPort int, cfg config) ([]byte, error) {
	path, err := wsPath(up.ws)
	if err != nil {
		return nil, err
	}
	side := func(name, ws, target string) map[string]string {
		return map[string]string{"name": name, "ws": ws, "target": target}
	}
	return json.Marshal(map[string]any{
		"sides": []map[string]string{
			side(nodeSideDirect, up.ws, up.target),
			side(nodeSideCdpvisor, p.ws, p.target),
			side(nodeSideNode, fmt.Sprintf("ws://127.0.0.1:%d%s", nodePort, path), up.target),
			side(nodeSideGo, fmt.Sprintf("ws://127.0.0.1:%d%s", goPort, path), up.target),
		},
		"target": up.target,
		"rounds": cfg.NodeRounds, "calls": cfg.NodeCalls, "slice": cfg.NodeSlice, "warmup": cfg.RTWarmup,
	})
}

// summarizeNode turns every side's latencies (µs) into the result.
func summarizeNode(latencies map[string][]float64, cfg config) *nodeRoundTripResult {
	r := &nodeRoundTripResult{Rounds: cfg.NodeRounds, Calls: cfg.NodeCalls, Slice: cfg.NodeSlice,
		Sides: map[string]summary{}, Overhead: map[string]overhead{}}
	for _, name := range nodeSides {
		r.Sides[name] = summarize(usDurations(latencies[name]))
	}
	d := r.Sides[nodeSideDirect]
	for _, name := range nodeSides[1:] {
		s := r.Sides[name]
		r.Overhead[name] = overhead{P50: s.P50 - d.P50, P90: s.P90 - d.P90, P99: s.P99 - d.P99}
	}
	cv, node := r.Overhead[nodeSideCdpvisor], r.Overhead[nodeSideNode]
	r.RatioP50, r.MetP50 = overheadRatio(cv.P50, node.P50, targetNodeRatioP50)
	r.RatioP99, r.MetP99 = overheadRatio(cv.P99, node.P99, targetNodeRatioP99)
	return r
}

// overheadRatio is cdpvisor's overhead over the Node relay's, and whether
// it is within limit. A Node relay overhead of zero or less (a percentile
// lost in noise, p99 mostly) has no meaningful ratio: then cdpvisor meets
// the target when its overhead is no larger.
func overheadRatio(cv, node, limit float64) (float64, bool) {
	if node <= 0 {
		return 0, cv <= node
	}
	return cv / node, cv <= limit*node
}

// relayProc is one of the yardstick relays, in its own process group.
type relayProc struct {
	*child
	port  int
	stdin io.Closer
}

// startRelay starts cmd, a relay that prints {"port":N} when it listens
// and exits when its stdin closes.
func (b *bench) startRelay(ctx context.Context, name string, cmd *exec.Cmd) (*relayProc, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	ports := make(chan int, 1)
	stdout := newLineWriter(5, func(line string) {
		var v struct{ Port int }
		if json.Unmarshal([]byte(line), &v) == nil && v.Port > 0 {
			select {
			case ports <- v.Port:
			default:
			}
		}
	})
	stderr := newLineWriter(20, nil)
	ch, err := startChild(name, cmd, stdout, stderr, b.root)
	if err != nil {
		stdin.Close()
		return nil, err
	}
	r := &relayProc{child: ch, stdin: stdin}
	b.cl.add(r.stop)
	select {
	case r.port = <-ports:
		return r, nil
	case <-ch.exited:
		err = fmt.Errorf("%s exited before it listened; last stderr:\n%s", name, stderr.tail())
	case <-time.After(15 * time.Second):
		err = fmt.Errorf("%s did not listen within 15 s; last stderr:\n%s", name, stderr.tail())
	case <-ctx.Done():
		err = ctx.Err()
	}
	r.stop()
	return nil, err
}

// stop closes the relay's stdin (it exits), then ends its group.
func (r *relayProc) stop() {
	r.stdin.Close()
	if !r.waitExit(2 * time.Second) {
		r.killAll()
	}
}

// clientsDir is testdata/clients of the module, with its npm packages.
func clientsDir() (string, error) {
	root := moduleRoot()
	if root == "" {
		return "", errors.New("the Node round trip runs inside the cdpvisor module (it uses testdata/clients)")
	}
	dir := filepath.Join(root, "testdata", "clients")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ws")); err != nil {
		return "", fmt.Errorf("no ws package in %s: run .ci/setup (npm ci) first", dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", errors.New("node not found on PATH: install Node.js 20+")
	}
	return dir, nil
}

// wsPath is the path of a websocket URL (/devtools/browser/<id>).
func wsPath(ws string) (string, error) {
	u, err := url.Parse(ws)
	if err != nil {
		return "", err
	}
	return u.Path, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return strings.TrimRight(s, "\n")
}

// nodeRows are the Node round trip's lines of the main table: cdpvisor
// against direct, and its overhead against the Node relay's.
func nodeRows(r *nodeRoundTripResult) []row {
	d, cv := r.Sides[nodeSideDirect], r.Sides[nodeSideCdpvisor]
	ov, node := r.Overhead[nodeSideCdpvisor], r.Overhead[nodeSideNode]
	in := fmt.Sprintf(" (%s)", r.Upstream)
	return []row{
		{"round trip, Node client, p50 (µs)", f1(d.P50) + in, f1(cv.P50), signed(ov.P50, "µs", 1), notApplicable, notApplicable},
		{"round trip, Node client, p99 (µs)", f1(d.P99) + in, f1(cv.P99), signed(ov.P99, "µs", 1), notApplicable, notApplicable},
		{"p50 overhead ÷ Node relay's", notApplicable, signed(ov.P50, "µs", 1), ratioCell(r.RatioP50, node.P50),
			fmt.Sprintf("≤ %.1f×", targetNodeRatioP50), met(r.MetP50)},
		{"p99 overhead ÷ Node relay's", notApplicable, signed(ov.P99, "µs", 1), ratioCell(r.RatioP99, node.P99),
			fmt.Sprintf("≤ %.1f×", targetNodeRatioP99), met(r.MetP99)},
	}
}

func ratioCell(ratio, node float64) string {
	if node <= 0 {
		return fmt.Sprintf("Node relay's %s: compared as is", signed(node, "µs", 1))
	}
	return fmt.Sprintf("×%.2f of %s", ratio, signed(node, "µs", 1))
}

// formatNodeSides is the Node round trip's own table: every side's
// percentiles and its overhead over direct.
func formatNodeSides(r *nodeRoundTripResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "round trip, Node ws client, %d rounds × %d calls per side in slices of %d (µs); direct and relays: %s\n",
		r.Rounds, r.Calls, r.Slice, r.Upstream)
	fmt.Fprintf(&b, "%-11s %9s %9s %9s %14s %14s %14s\n", "side", "p50", "p90", "p99", "p50 overhead", "p90 overhead", "p99 overhead")
	for _, name := range nodeSides {
		s, o := r.Sides[name], r.Overhead[name]
		fmt.Fprintf(&b, "%-11s %9.1f %9.1f %9.1f", name, s.P50, s.P90, s.P99)
		if name != nodeSideDirect {
			fmt.Fprintf(&b, " %14s %14s %14s", fmt.Sprintf("%+.1f", o.P50), fmt.Sprintf("%+.1f", o.P90), fmt.Sprintf("%+.1f", o.P99))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "cdpvisor's overhead ÷ the Node relay's: p50 %s, p99 %s\n",
		ratioCell(r.RatioP50, r.Overhead[nodeSideNode].P50), ratioCell(r.RatioP99, r.Overhead[nodeSideNode].P99))
	return b.String()
}
