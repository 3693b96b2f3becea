package proxy_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// lateToHear is a BrowserActor that has not heard yet that its browser was
// killed: until something asks it to replace that browser, it answers the
// endpoint of the dead one, as the real actor does in the instant between
// a kill -9 and the exit it is told of.
type lateToHear struct {
	*browser.Actor
	mu       sync.Mutex
	dead     *browser.Endpoint
	replaced int // Replace asked for the dead one
}

func (l *lateToHear) EnsureRunning(ctx context.Context) (browser.Endpoint, error) {
	l.mu.Lock()
	dead := l.dead
	l.mu.Unlock()
	if dead != nil {
		return *dead, nil
	}
	return l.Actor.EnsureRunning(ctx)
}

func (l *lateToHear) Replace(ctx context.Context, gen int) (browser.Endpoint, error) {
	l.mu.Lock()
	if l.dead != nil && l.dead.Generation == gen {
		l.dead = nil
		l.replaced++
	}
	l.mu.Unlock()
	return l.Actor.Replace(ctx, gen)
}

// kill kills the running browser and waits until it is gone, while the
// proxy still hears of it as running.
func (l *lateToHear) kill(t *testing.T) {
	t.Helper()
	ep, err := l.Actor.EnsureRunning(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(ep.Pid)
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Kill()
	for end := time.Now().Add(10 * time.Second); actortest.Alive(ep.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("browser %d alive 10 s after its kill", ep.Pid)
		}
	}
	l.mu.Lock()
	l.dead = &ep
	l.mu.Unlock()
}

// Every request that meets a browser killed a moment ago (on record still,
// its pipe closed) waits for the next browser: each /json request and
// websocket upgrade, on the whole endpoint and in a world.
func TestRequestsMeetingADeadBrowserWaitForTheNextOne(t *testing.T) {
	var late *lateToHear
	inst := served.StartInstanceSeenAs(t, served.FakeLaunch(t), proxy.Spec{}, func(b *browser.Actor) relay.BrowserSource {
		late = &lateToHear{Actor: b}
		return late
	})
	for _, req := range []struct {
		method, path string
		// Answered from what the pipe's connection knows (a world's, when
		// the worlds actor has not heard of the exit either): the dead
		// browser may not be asked.
		known bool
	}{
		{http.MethodGet, "/json/list", false},
		{http.MethodPut, "/json/new?about:blank", false},
		{http.MethodGet, "/json/version", true},
		{"ws", "/devtools/browser", false},
		{http.MethodGet, "/context/late/json/list", false},
		{http.MethodPut, "/context/late/json/new?about:blank", false},
		{http.MethodGet, "/context/late/json/version", true},
		{"ws", "/context/late/devtools/browser", false},
	} {
		late.kill(t)
		before := late.replaced
		var code int
		var body string
		if req.method == "ws" {
			c, resp, err := websocket.DefaultDialer.Dial(inst.WS()+req.path, nil)
			if err == nil {
				c.Close()
				code = resp.StatusCode
			} else if resp != nil {
				b, _ := io.ReadAll(resp.Body)
				code, body = resp.StatusCode, string(b)
			}
		} else {
			code, body = httpDo(t, req.method, inst.Proxy.Endpoint()+req.path, "")
		}
		if code/100 != 2 && code != http.StatusSwitchingProtocols {
			t.Errorf("%s %s on a browser killed a moment ago: %d %s, want it answered by the next browser", req.method, req.path, code, strings.TrimSpace(body))
		}
		if !req.known && late.replaced == before {
			t.Errorf("%s %s: answered without asking for the next browser", req.method, req.path)
		}
	}
}
