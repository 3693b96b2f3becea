package proxy_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// fixedBrowser is a browser source whose browser is an HTTP server.
type fixedBrowser struct{ ep browser.Endpoint }

func (f fixedBrowser) EnsureRunning(context.Context) (browser.Endpoint, error) { return f.ep, nil }
func (f fixedBrowser) Replace(context.Context, int) (browser.Endpoint, error)  { return f.ep, nil }

// chromiumSurface answers like Chromium's DevTools HTTP handler: /json/list
// with devtoolsFrontendUrl in each of its forms, and the frontend's pages
// and assets (inspector.html served, worker_app.html not).
func chromiumSurface(t *testing.T) (*httptest.Server, string) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	hp := srv.Listener.Addr().String()
	mux.HandleFunc("/json/list", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		fmt.Fprintf(w, `[ {
   "devtoolsFrontendUrl": "https://chrome-devtools-frontend.appspot.com/serve_rev/@a21ce95c/inspector.html?ws=%[1]s/devtools/page/A",
   "id": "A", "type": "page", "webSocketDebuggerUrl": "ws://%[1]s/devtools/page/A"
}, {
   "devtoolsFrontendUrl": "/devtools/inspector.html?ws=%[1]s/devtools/page/B",
   "id": "B", "type": "page", "webSocketDebuggerUrl": "ws://%[1]s/devtools/page/B"
}, {
   "devtoolsFrontendUrl": "https://chrome-devtools-frontend.appspot.com/serve_rev/@a21ce95c/worker_app.html?ws=%[1]s/devtools/page/C",
   "id": "C", "type": "service_worker", "webSocketDebuggerUrl": "ws://%[1]s/devtools/page/C"
}, {
   "devtoolsFrontendUrl": "https://frontend.example/inspector.html?ws=%[1]s/devtools/page/D",
   "id": "D", "type": "page", "webSocketDebuggerUrl": "ws://%[1]s/devtools/page/D"
} ]`, hp)
	})
	mux.HandleFunc("/devtools/inspector.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><script type="module" src="./entrypoints/inspector/inspector.js"></script>`)
	})
	return srv, hp
}

func proxyFor(t *testing.T, hp string) (*proxy.Actor, string) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := proxy.New(proxy.Spec{Instance: "test", Browser: fixedBrowser{browser.Endpoint{Generation: 1, HostPort: hp}}, Log: zerolog.Nop()}, l)
	t.Cleanup(func() { l.Close() })
	return p, l.Addr().String()
}

// devtoolsFrontendUrl leads to the frontend the browser serves, through the
// endpoint, in whichever form the browser gave it; a frontend the browser
// does not serve, or a custom one, is left as it was.
func TestDevtoolsFrontendURLPointsAtTheEndpoint(t *testing.T) {
	_, hp := chromiumSurface(t)
	p, host := proxyFor(t, hp)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "http://"+host+"/json/list", nil)
	p.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Fatalf("/json/list: %d, Content-Length %q for %d bytes", rec.Code, rec.Header().Get("Content-Length"), len(body))
	}
	for _, want := range []string{
		`"devtoolsFrontendUrl": "http://` + host + `/devtools/inspector.html?ws=` + host + `/devtools/page/A"`,
		`"devtoolsFrontendUrl": "http://` + host + `/devtools/inspector.html?ws=` + host + `/devtools/page/B"`,
		`"devtoolsFrontendUrl": "https://chrome-devtools-frontend.appspot.com/serve_rev/@a21ce95c/worker_app.html?ws=` + host + `/devtools/page/C"`,
		`"devtoolsFrontendUrl": "https://frontend.example/inspector.html?ws=` + host + `/devtools/page/D"`,
		`"webSocketDebuggerUrl": "ws://` + host + `/devtools/page/A"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/json/list lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, hp) {
		t.Errorf("/json/list still names the browser's own %s:\n%s", hp, body)
	}
}

// The frontend's assets are passed on as they came: type, length and
// bytes, even one that happens to contain the browser's host:port, and one
// larger than a /json answer may be.
func TestFrontendAssetsAreForwardedUntouched(t *testing.T) {
	srv, hp := chromiumSurface(t)
	p, host := proxyFor(t, hp)
	for _, asset := range [][]byte{
		[]byte(`export const where = "` + srv.Listener.Addr().String() + `";`),
		[]byte(strings.Repeat("x", 33<<20)),
	} {
		srv.Config.Handler.(*http.ServeMux).HandleFunc(fmt.Sprintf("/devtools/a%d.js", len(asset)), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			w.Header().Set("Content-Length", strconv.Itoa(len(asset))) // as Chromium says it
			_, _ = w.Write(asset)
		})
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("http://%s/devtools/a%d.js", host, len(asset)), nil))
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/javascript" ||
			rec.Header().Get("Content-Length") != strconv.Itoa(len(asset)) || rec.Body.String() != string(asset) {
			t.Fatalf("asset of %d bytes: %d %q length %q, %d bytes back (same: %v)", len(asset), rec.Code,
				rec.Header().Get("Content-Type"), rec.Header().Get("Content-Length"), rec.Body.Len(), rec.Body.String() == string(asset))
		}
	}
}
