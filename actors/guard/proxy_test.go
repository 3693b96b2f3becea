package guard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/rs/zerolog"
)

// newServer is a local server answering body, counting its connections.
func newServer(t *testing.T, body string) *actortest.CountingServer {
	return actortest.StartCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, body)
	}))
}

// portOf is a server's port.
func portOf(s *actortest.CountingServer) int { return s.Listener.Addr().(*net.TCPAddr).Port }

// names is a resolver of fixed answers.
type names map[string]string

func (n names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := n[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func startProxy(t *testing.T, allow, deny []string, r Resolver) *Proxy {
	t.Helper()
	pol, err := ParsePolicy(allow, deny)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(Spec{World: "test", Policy: pol, Resolver: r, Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// get fetches url through the proxy: the body, or the error.
func get(p *Proxy, target string) (string, error) {
	u, _ := url.Parse(p.URL())
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u), DisableKeepAlives: true}, Timeout: 5 * time.Second}
	resp, err := c.Get(target)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return string(b), nil
}

// connect asks the proxy for a tunnel to hostport, then sends a plain GET
// through it: the status of the CONNECT and the body.
func connect(t *testing.T, p *Proxy, hostport string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", hostport, hostport)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, ""
	}
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", hostport)
	r2, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r2.Body)
	return resp.StatusCode, string(b)
}

func TestProxyAllowsNamedAndDeniedServerSeesNoConnection(t *testing.T) {
	a, b := newServer(t, "A"), newServer(t, "B")
	p := startProxy(t, []string{"127.0.0.1:" + fmt.Sprint(portOf(a))}, nil, nil)
	if body, err := get(p, a.URL+"/x?secret=1"); err != nil || body != "A" {
		t.Fatalf("plain HTTP to A: %q %v", body, err)
	}
	if code, body := connect(t, p, a.HostPort()); code != 200 || body != "A" {
		t.Fatalf("CONNECT to A: %d %q", code, body)
	}
	if _, err := get(p, b.URL+"/"); err == nil {
		t.Fatal("plain HTTP to B passed")
	}
	if code, _ := connect(t, p, b.HostPort()); code != http.StatusForbidden {
		t.Fatalf("CONNECT to B: %d, want 403", code)
	}
	if n := b.Conns.Load(); n != 0 {
		t.Fatalf("B saw %d connections", n)
	}
	counts := p.Counts()
	if counts[a.HostPort()].Reached != 2 || counts[b.HostPort()].Denied != 2 {
		t.Fatalf("counts %+v", counts)
	}
}

func TestProxyDeniesPrivateAddressesOfPublicNames(t *testing.T) {
	a := newServer(t, "A")
	port := fmt.Sprint(portOf(a))
	r := names{"rebind.example": "127.0.0.1", "intranet.example": "127.0.0.1", "meta.example": "169.254.169.254"}
	// An empty allow list: all but the denied, private addresses not.
	p := startProxy(t, nil, nil, r)
	for _, h := range []string{"rebind.example:" + port, "127.0.0.1:" + port, "[::1]:" + port, "meta.example:80"} {
		if code, _ := connect(t, p, h); code != http.StatusForbidden {
			t.Errorf("CONNECT %s: %d, want 403", h, code)
		}
	}
	if _, err := get(p, "http://rebind.example:"+port+"/"); err == nil {
		t.Error("plain HTTP to a name resolving to loopback passed")
	}
	if n := a.Conns.Load(); n != 0 {
		t.Fatalf("the loopback server saw %d connections", n)
	}
	// Named, the same address is reached: resolved once, dialled as checked.
	named := startProxy(t, []string{"intranet.example"}, nil, r)
	if code, body := connect(t, named, "intranet.example:"+port); code != 200 || body != "A" {
		t.Fatalf("CONNECT to a named private host: %d %q", code, body)
	}
	if code, _ := connect(t, named, "rebind.example:"+port); code != http.StatusForbidden {
		t.Fatalf("a name not allowed: %d", code)
	}
}

func TestProxyDenyWinsAndPolicyChanges(t *testing.T) {
	a := newServer(t, "A")
	port := fmt.Sprint(portOf(a))
	p := startProxy(t, []string{"127.0.0.1"}, []string{"127.0.0.1:" + port}, nil)
	if code, _ := connect(t, p, a.HostPort()); code != http.StatusForbidden {
		t.Fatalf("deny must win: %d", code)
	}
	pol, _ := ParsePolicy([]string{"127.0.0.1"}, nil)
	p.SetPolicy(pol, nil)
	if code, body := connect(t, p, a.HostPort()); code != 200 || body != "A" {
		t.Fatalf("after the change: %d %q", code, body)
	}
}

func TestProxyCloseEndsTunnels(t *testing.T) {
	// A server that holds its connection open.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			_, _ = io.Copy(io.Discard, c)
			c.Close()
		}
	}()
	p := startProxy(t, []string{"127.0.0.1"}, nil, nil)
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: x\r\n\r\n", ln.Addr())
	resp, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	done := make(chan struct{})
	go func() { _ = p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end an open tunnel")
	}
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatal("the tunnel's client side is still open")
	}
	if _, err := net.Dial("tcp", p.Addr()); err == nil {
		t.Fatal("the proxy still listens")
	}
}

func TestProxyRefusesRequestsNotForAProxy(t *testing.T) {
	p := startProxy(t, nil, nil, nil)
	resp, err := http.Get(p.URL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("%d", resp.StatusCode)
	}
}

// syncBuffer is a log written by the proxy's goroutines and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A denial is logged with its host alone: the path and query (which may
// hold a token) never; a host's first denial at info, the rest at debug.
func TestProxyLogsHostsNotURLs(t *testing.T) {
	b := newServer(t, "B")
	var logs syncBuffer
	pol, _ := ParsePolicy([]string{"example.com"}, nil)
	p, err := Start(Spec{World: "w", Policy: pol, Log: zerolog.New(&logs).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for range 2 {
		if _, err := get(p, b.URL+"/path?token=s3cret"); err == nil {
			t.Fatal("B passed")
		}
	}
	out := logs.String()
	if strings.Contains(out, "s3cret") || strings.Contains(out, "/path") {
		t.Fatalf("the log holds the URL:\n%s", out)
	}
	if !strings.Contains(out, `"level":"info","world":"w","host":"`+b.HostPort()+`"`) || strings.Count(out, "guard: request denied") != 2 ||
		!strings.Contains(out, `"level":"debug","world":"w","host":"`+b.HostPort()+`"`) {
		t.Fatalf("the denials' log:\n%s", out)
	}
}
