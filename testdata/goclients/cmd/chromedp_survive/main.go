// Command chromedp_survive checks that ONE chromedp browser context survives
// kill -9 of the browser behind cdpvisor (the Go test kills it between
// cycles):
//
//	chromedp_survive <http://127.0.0.1:PORT> <page URL> <cycles>
//
// It connects a remote allocator to the browser websocket of /json/version
// and reads the text of the local page in the browser's first tab; then, for
// N = 1..cycles, it prints {"ready":N}, waits for a line on stdin, and in a
// NEW tab of the SAME browser context navigates to the page showing
// "cycle N" and reads it back. The final line is
// {"ok":true,"cycles":N,"disconnected":false}; a lost connection is a
// failure. The protocol is the node scripts' (testdata/clients/cycles.mjs).
package main

import (
	"context"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/cdpvisor/cdpvisor/testdata/goclients/internal/lines"
)

// stepTimeout bounds one tab's navigation and read: a page held by the
// browser (issue 33) shows as this timeout, not as the whole run's.
const stepTimeout = 20 * time.Second

func main() {
	p := lines.Start("chromedp_survive", 60*time.Second)
	run := p.Args()
	page, cycles, ws := run.Page, run.Cycles, run.WS
	allocCtx, cancelAlloc := remote.NewAllocator(context.Background(), ws)
	defer cancelAlloc()
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()

	// The first run connects and attaches to the browser's first tab, bound
	// to the context it runs on: the browser context itself, not a
	// shorter-lived one derived from it (chromedp's documented rule).
	if err := chromedp.Do(browserCtx); err != nil {
		p.Fail("connect to %s: %v", ws, err)
	}
	if got, err := readPage(browserCtx, page, "start"); err != nil || got != "start" {
		p.Fail("first tab: text %q, error %v; want \"start\"", got, err)
	}
	lost := chromedp.FromContext(browserCtx).Browser.LostConnection
	for n := 1; n <= cycles; n++ {
		p.Ready(n)
		want := "cycle " + strconv.Itoa(n)
		got, err := inNewTab(browserCtx, page, want)
		if err != nil || got != want {
			p.Fail("cycle %d: new tab: text %q, error %v; want %q", n, got, err, want)
		}
		if closed(lost) {
			p.Fail("cycle %d: the browser connection was lost", n)
		}
	}
	p.Done(cycles, closed(lost))
}

// inNewTab reads the page in a new tab of the browser context, and closes
// the tab.
func inNewTab(browserCtx context.Context, page, text string) (string, error) {
	ctx, cancel := context.WithTimeout(browserCtx, stepTimeout)
	defer cancel()
	tab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	return readPage(tab, page, text)
}

// readPage navigates ctx's tab to the page showing text and reads it back.
func readPage(ctx context.Context, page, text string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(lines.PageURL(page, text))); err != nil {
		return "", err
	}
	return chromedp.Run(ctx, chromedp.Text("p"))
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
