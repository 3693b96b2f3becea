// Command rod_survive checks that ONE go-rod Browser survives kill -9 of the
// browser behind cdpvisor (the Go test kills it between cycles):
//
//	rod_survive <http://127.0.0.1:PORT> <page URL> <cycles>
//
// It connects to the browser websocket of /json/version and reads the text
// of the local page in a new page; then, for N = 1..cycles, it prints
// {"ready":N}, waits for a line on stdin, and with MustPage on the SAME
// Browser opens the page showing "cycle N" and reads it back. The final
// line is {"ok":true,"cycles":N,"disconnected":false}; the end of the
// connection's events is a failure. The protocol is the node scripts'
// (testdata/clients/cycles.mjs).
package main

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-rod/rod"

	"github.com/cdpvisor/cdpvisor/testdata/goclients/internal/lines"
)

// stepTimeout bounds one page's creation, navigation and read: a page held
// by the browser (issue 33) shows as this timeout, not as the whole run's.
const stepTimeout = 20 * time.Second

func main() {
	p := lines.Start("rod_survive", 60*time.Second)
	run := p.Args()
	page, cycles, ws := run.Page, run.Cycles, run.WS
	browser := rod.New().ControlURL(ws)
	if err := browser.Connect(); err != nil {
		p.Fail("connect to %s: %v", ws, err)
	}
	var disconnected atomic.Bool
	go func() {
		// The browser's events end when its websocket does.
		for range browser.Event() {
		}
		disconnected.Store(true)
	}()

	for n := 0; n <= cycles; n++ {
		want := "start"
		if n > 0 {
			p.Ready(n)
			want = "cycle " + strconv.Itoa(n)
		}
		got, err := readPage(browser, lines.PageURL(page, want))
		if err != nil || got != want {
			p.Fail("cycle %d: MustPage: text %q, error %v; want %q", n, got, err, want)
		}
		if disconnected.Load() {
			p.Fail("cycle %d: the browser connection was lost", n)
		}
	}
	p.Done(cycles, disconnected.Load())
}

// readPage opens url in a new page of browser and reads its <p>.
func readPage(browser *rod.Browser, url string) (text string, err error) {
	err = rod.Try(func() {
		text = browser.Timeout(stepTimeout).MustPage(url).MustElement("p").MustText()
	})
	if te, ok := err.(*rod.TryError); ok {
		err = fmt.Errorf("%v", te.Value) // the panic, without rod's stack dump
	}
	return text, err
}
