// Package lines is the line protocol of the kill-cycle client programs, as
// testdata/clients/cycles.mjs is for the node scripts: an overall timeout,
// failure on stderr with the program's name, {"ready":N} on stdout and a
// line on stdin (the test kills the browser, then writes "go"), and the
// final line that counts the cycles.
package lines

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

// Program is one kill-cycle client program.
type Program struct {
	Name    string
	Timeout time.Duration // the whole run's: env CLIENT_TIMEOUT_MS, else the default
	stdin   *bufio.Scanner
}

// Start sets the program up: past its timeout it exits 2.
func Start(name string, defaultTimeout time.Duration) *Program {
	p := &Program{Name: name, Timeout: defaultTimeout, stdin: bufio.NewScanner(os.Stdin)}
	if ms, err := strconv.Atoi(os.Getenv("CLIENT_TIMEOUT_MS")); err == nil && ms > 0 {
		p.Timeout = time.Duration(ms) * time.Millisecond
	}
	time.AfterFunc(p.Timeout, func() {
		fmt.Fprintf(os.Stderr, "%s: timed out after %v\n", name, p.Timeout)
		os.Exit(2)
	})
	return p
}

// Fail ends the program with exit code 1.
func (p *Program) Fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s: %s\n", p.Name, fmt.Sprintf(format, args...))
	os.Exit(1)
}

// Ready says cycle n may begin and waits for the test's line; stdin's end
// is a failure.
func (p *Program) Ready(n int) {
	p.print(map[string]int{"ready": n})
	if !p.stdin.Scan() {
		p.Fail("stdin closed while waiting for cycle %d", n)
	}
}

// Done prints the final line.
func (p *Program) Done(cycles int, disconnected bool) {
	p.print(map[string]any{"ok": true, "cycles": cycles, "disconnected": disconnected})
}

func (p *Program) print(v any) {
	b, _ := json.Marshal(v)
	fmt.Printf("%s\n", b)
}

// Run is what a kill-cycle program is given: the endpoint, the browser
// websocket its /json/version names, the local page to read and how many
// cycles to go.
type Run struct {
	Endpoint, WS, Page string
	Cycles             int
}

// Args reads `<endpoint> <page URL> <cycles>` and finds the browser
// websocket, or fails the program saying what is wrong.
func (p *Program) Args() Run {
	if len(os.Args) != 4 {
		p.Fail("usage: %s <endpoint> <page URL> <cycles>", p.Name)
	}
	r := Run{Endpoint: os.Args[1], Page: os.Args[2]}
	var err error
	if r.Cycles, err = strconv.Atoi(os.Args[3]); err != nil || r.Cycles < 0 {
		p.Fail("bad cycles %q", os.Args[3])
	}
	if r.WS, err = BrowserWebSocket(r.Endpoint); err != nil {
		p.Fail("%v", err)
	}
	return r
}
