// Command rod_connect is go-rod, unchanged, connecting to a CDP endpoint:
// MustConnect (its websocket sends the key "nil"), then a page that
// navigates to a URL and reads its text.
//
//	rod_connect ENDPOINT PAGE_URL
//
// ENDPOINT is an http:// endpoint (its /json/version, as
// launcher.ResolveURL reads it, gives the websocket) or a ws:// URL taken
// as it is (a world's: ResolveURL asks /json/version of the host's root).
// It prints one line, {"text": "<the page's body text>"}, and exits 0; a
// failure panics (exit 2).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: rod_connect ENDPOINT PAGE_URL")
		os.Exit(64)
	}
	endpoint, pageURL := os.Args[1], os.Args[2]
	timeout := time.Minute
	if ms, err := strconv.Atoi(os.Getenv("CLIENT_TIMEOUT_MS")); err == nil && ms > 0 {
		timeout = time.Duration(ms) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ws := endpoint
	if !strings.HasPrefix(endpoint, "ws") {
		ws = launcher.MustResolveURL(endpoint)
	}
	browser := rod.New().Context(ctx).ControlURL(ws).MustConnect()
	page := browser.MustPage(pageURL).MustWaitLoad()
	text := page.MustElement("body").MustText()
	out, _ := json.Marshal(map[string]string{"text": text})
	fmt.Println(string(out))
}
