// Command chromedp_soak is a soak agent on chromedp (cdpbench --only soak;
// the protocol is testdata/clients/soak_loop.mjs's):
//
//	chromedp_soak <http://127.0.0.1:PORT[/context/NAME]> <site> <loops>
//
// Each loop, in a new tab of one remote browser: navigate, type, click,
// evaluate, screenshot, close the tab. A failed loop is tried again on a
// fresh connection, up to 5 times. After each loop it pauses $SOAK_THINK_MS.
// A failure says when the client heard its tab detached (gone), as the
// Node agents do.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

const loopTimeout = 60 * time.Second

// loadTimeout bounds a navigation's wait for its page's load: chromedp
// v0.23.0's Navigate waits for load events with only its context as a way
// out, and a tab detached mid-navigation (its browser killed) sends none,
// so an agent bounds it, as a user's would.
const loadTimeout = 20 * time.Second

func say(v any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: chromedp_soak <endpoint> <site> <loops>")
		os.Exit(1)
	}
	endpoint, site := os.Args[1], os.Args[2]
	loops, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "loops:", err)
		os.Exit(1)
	}
	think, _ := strconv.Atoi(os.Getenv("SOAK_THINK_MS")) // the pause after each loop
	think = max(think, 0)
	var c *conn
	for i := 0; i < loops; i++ {
		for tries := 1; ; tries++ {
			t0 := time.Now()
			if c == nil {
				c, err = dial(endpoint)
			}
			if err == nil {
				err = c.loop(site, i)
			}
			if err == nil {
				say(map[string]int{"loop": i})
				time.Sleep(time.Duration(think) * time.Millisecond)
				break
			}
			fail := map[string]any{"fail": err.Error(), "loop": i, "t0": t0.UnixMilli(), "t1": time.Now().UnixMilli()}
			if c != nil {
				if gone := c.goneAt.Load(); gone >= t0.UnixMilli() {
					fail["gone"] = gone
				}
			}
			say(fail)
			if c != nil {
				c.close()
				c = nil
			}
			if tries >= 5 {
				os.Exit(1)
			}
			time.Sleep(time.Second)
		}
	}
	if c != nil {
		c.close()
	}
	say(map[string]int{"done": loops})
}

// conn is one remote browser connection.
type conn struct {
	browser context.Context
	cancel  func()
	goneAt  atomic.Int64 // when its tab was last detached (epoch ms)
}

func dial(endpoint string) (*conn, error) {
	ws, err := browserWS(endpoint)
	if err != nil {
		return nil, err
	}
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), ws)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	c := &conn{browser: browser, cancel: func() { cancelBrowser(); cancelAlloc() }}
	// The first run connects, bound to the context it runs on: the
	// browser's own (chromedp's rule; a shorter one ends the connection).
	// The timer bounds it instead.
	stall := time.AfterFunc(loopTimeout, c.close)
	defer stall.Stop()
	if err := chromedp.Do(browser); err != nil {
		c.close()
		return nil, fmt.Errorf("connect to %s: %w", ws, err)
	}
	return c, nil
}

func (c *conn) close() { c.cancel() }

// errTabGone: the loop's tab was detached (its browser killed, say).
var errTabGone = errors.New("the tab was detached: its page is gone")

// loop does one loop's work in a tab of its own; the tab's detach ends it.
func (c *conn) loop(site string, i int) (err error) {
	ctx, cancel := context.WithTimeout(c.browser, loopTimeout)
	defer cancel()
	ctx, gone := context.WithCancelCause(ctx)
	defer gone(nil)
	tab, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	defer func() {
		if cause := context.Cause(ctx); err != nil && errors.Is(cause, errTabGone) {
			err = fmt.Errorf("%w (%v)", cause, err)
		}
	}()
	text := "hello " + strconv.Itoa(i)
	if err := chromedp.Do(tab); err != nil { // the tab, bound to the loop's context
		return err
	}
	// chromedp v0.23.0 ends a command of a detached tab, not a query's
	// wait for its node, which retries until its context ends: an agent
	// that hears its tab gone stops waiting on it.
	session := chromedp.FromContext(tab).Target.SessionID
	chromedp.ListenBrowser(tab, func(ev any) {
		if d, ok := ev.(*target.EventDetachedFromTarget); ok && d.SessionID == session {
			c.goneAt.Store(time.Now().UnixMilli())
			gone(errTabGone)
		}
	})
	nav, cancelNav := context.WithTimeout(tab, loadTimeout)
	err = chromedp.Do(nav, chromedp.Navigate(fmt.Sprintf("%s/page?agent=cdp&i=%d", site, i)))
	cancelNav()
	if err != nil {
		return fmt.Errorf("navigate: %w", err)
	}
	if err := chromedp.Do(tab, chromedp.SendKeys("#q", text), chromedp.Click("#b")); err != nil {
		return err
	}
	title, err := chromedp.Run(tab, chromedp.Evaluate[string]("document.title"))
	if err != nil {
		return err
	}
	if _, err := chromedp.Run(tab, chromedp.CaptureScreenshot()); err != nil {
		return err
	}
	if title != "clicked "+text {
		return fmt.Errorf("title %q", title)
	}
	return nil
}

// browserWS reads the browser websocket of endpoint's /json/version.
func browserWS(endpoint string) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(endpoint + "/json/version")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.WS == "" {
		return "", fmt.Errorf("%s/json/version: no webSocketDebuggerUrl (%v)", endpoint, err)
	}
	return v.WS, nil
}
