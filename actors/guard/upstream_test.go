package guard

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

const testPass = "pa55-w0rd-never-logged"

func TestParseUpstreamReadsEachFormAndRedacts(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:3128":                   "http://127.0.0.1:3128",
		"HTTP://proxy.example:8080/":              "http://proxy.example:8080",
		"http://user:" + testPass + "@[::1]:3128": "http://***@[::1]:3128",
		"socks5://127.0.0.1:1080":                 "socks5://127.0.0.1:1080",
		"socks5://user:" + testPass + "@h:1080":   "socks5://***@h:1080",
		"http://user@h:1":                         "http://***@h:1",
	} {
		u, err := ParseUpstream(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if u.Redacted() != want || u.String() != want {
			t.Errorf("%s: redacted %q, want %q", in, u.Redacted(), want)
		}
	}
}

func TestParseUpstreamRefusesWhatItCannotUse(t *testing.T) {
	for in, says := range map[string]string{
		"https://h:443":                   `scheme "https" is not supported`,
		"socks4://h:1080":                 `scheme "socks4" is not supported`,
		"127.0.0.1:3128":                  "scheme",
		"http://h":                        "has no port",
		"http://h:0":                      "not 1-65535",
		"http://h:99999":                  "not 1-65535",
		"http://h:3128/path":              "no path",
		"http://user:" + testPass + "@h":  "has no port",
		"http://us er:" + testPass + "@h": "cannot be read",
		"http://:3128":                    "no host",
	} {
		_, err := ParseUpstream(in)
		if !errors.Is(err, ErrBadUpstream) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want %q", in, err, says)
			continue
		}
		if strings.Contains(err.Error(), testPass) {
			t.Errorf("%s: the error holds the password: %v", in, err)
		}
		if !strings.Contains(err.Error(), UpstreamForms) && !strings.Contains(err.Error(), "1-65535") {
			t.Errorf("%s: the error does not say the forms: %v", in, err)
		}
	}
}

func TestUpstreamCheckNamesAnUnreachableProxy(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	u, err := ParseUpstream("http://user:" + testPass + "@" + addr)
	if err != nil {
		t.Fatal(err)
	}
	err = u.Check(t.Context())
	if !errors.Is(err, ErrUpstreamUnreachable) || !strings.Contains(err.Error(), "http://***@"+addr) || strings.Contains(err.Error(), testPass) {
		t.Fatalf("check: %v", err)
	}
	up := actortest.StartHTTPProxy(t, "", "")
	u, _ = ParseUpstream(up.URL("http"))
	if err := u.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// startVia starts a guard with a policy (nil allow and deny: none) sending
// the world's traffic through upstream, its log in logs.
func startVia(t *testing.T, pol *Policy, upstream string, logs *syncBuffer) *Proxy {
	t.Helper()
	u, err := ParseUpstream(upstream)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(Spec{World: "w", Policy: pol, Upstream: u, Log: zerolog.New(logs).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// Plain HTTP and CONNECT go through an HTTP upstream, with and without
// Basic credentials; with a world with no policy, loopback is reached (only
// a policy makes private addresses opt-in).
func TestProxyThroughHTTPUpstream(t *testing.T) {
	for _, user := range []string{"", "agent"} {
		t.Run("user="+user, func(t *testing.T) {
			a := newServer(t, "A")
			up := actortest.StartHTTPProxy(t, user, testPass)
			var logs syncBuffer
			p := startVia(t, nil, up.URL("http"), &logs)
			if body, err := get(p, a.URL+"/page"); err != nil || body != "A" {
				t.Fatalf("plain: %q %v", body, err)
			}
			if code, body := connect(t, p, a.HostPort()); code != 200 || body != "A" {
				t.Fatalf("tunnel: %d %q", code, body)
			}
			if !up.Saw("GET "+a.URL+"/page") || !up.Saw("CONNECT "+a.HostPort()) {
				t.Fatalf("the upstream's log: %q", up.Log())
			}
			if strings.Contains(logs.String(), testPass) {
				t.Fatalf("the guard's log holds the password:\n%s", logs.String())
			}
		})
	}
}

// A wrong password: the upstream refuses, the world's request fails (a
// 502, never the upstream's 407, which the browser would take as the
// guard asking it to sign in), and no log holds the password.
func TestProxyThroughHTTPUpstreamWithWrongPassword(t *testing.T) {
	a := newServer(t, "A")
	up := actortest.StartHTTPProxy(t, "agent", "the-right-one")
	var logs syncBuffer
	p := startVia(t, nil, "http://agent:"+testPass+"@"+up.Addr(), &logs)
	if _, err := get(p, a.URL+"/"); err == nil || !strings.Contains(err.Error(), "status 502") {
		t.Fatalf("plain: %v", err)
	}
	if code, _ := connect(t, p, a.HostPort()); code != http.StatusBadGateway {
		t.Fatalf("tunnel: %d", code)
	}
	if n := a.Conns.Load(); n != 0 {
		t.Fatalf("A got %d connections", n)
	}
	if !up.Saw("407 GET") || !up.Saw("407 CONNECT") {
		t.Fatalf("the upstream's log: %q", up.Log())
	}
	if out := logs.String(); strings.Contains(out, testPass) || !strings.Contains(out, "credentials are missing or wrong") {
		t.Fatalf("the guard's log:\n%s", out)
	}
}

func TestProxyThroughSOCKS5Upstream(t *testing.T) {
	for _, user := range []string{"", "agent"} {
		t.Run("user="+user, func(t *testing.T) {
			a := newServer(t, "A")
			up := actortest.StartSOCKS5Proxy(t, user, testPass)
			var logs syncBuffer
			p := startVia(t, nil, up.URL("socks5"), &logs)
			if body, err := get(p, a.URL+"/"); err != nil || body != "A" {
				t.Fatalf("plain: %q %v", body, err)
			}
			if code, body := connect(t, p, a.HostPort()); code != 200 || body != "A" {
				t.Fatalf("tunnel: %d %q", code, body)
			}
			if n := len(up.Log()); n != 2 || !up.Saw("CONNECT "+a.HostPort()) {
				t.Fatalf("the upstream's log: %q", up.Log())
			}
		})
	}
	t.Run("wrong password", func(t *testing.T) {
		a := newServer(t, "A")
		up := actortest.StartSOCKS5Proxy(t, "agent", "the-right-one")
		var logs syncBuffer
		p := startVia(t, nil, "socks5://agent:"+testPass+"@"+up.Addr(), &logs)
		if code, _ := connect(t, p, a.HostPort()); code != http.StatusBadGateway {
			t.Fatalf("tunnel: %d", code)
		}
		if _, err := get(p, a.URL+"/"); err == nil {
			t.Fatal("plain passed")
		}
		if n := a.Conns.Load(); n != 0 {
			t.Fatalf("A got %d connections", n)
		}
		if out := logs.String(); strings.Contains(out, testPass) || !strings.Contains(out, "credentials are wrong") {
			t.Fatalf("the guard's log:\n%s", out)
		}
	})
}

// With a policy and an upstream the policy judges first: a denied host
// never reaches the upstream; a name resolving here to a private address
// is denied unless named, as without an upstream; an allowed one goes
// through it.
func TestProxyPolicyBeforeUpstream(t *testing.T) {
	for _, scheme := range []string{"http", "socks5"} {
		t.Run(scheme, func(t *testing.T) {
			a := newServer(t, "A")
			var up *actortest.UpstreamProxy
			if scheme == "http" {
				up = actortest.StartHTTPProxy(t, "agent", testPass)
			} else {
				up = actortest.StartSOCKS5Proxy(t, "agent", testPass)
			}
			pol, err := ParsePolicy([]string{"127.0.0.1:" + fmt.Sprint(portOf(a)), "public.example"}, []string{"denied.example"})
			if err != nil {
				t.Fatal(err)
			}
			u, _ := ParseUpstream(up.URL(scheme))
			var logs syncBuffer
			p, err := Start(Spec{World: "w", Policy: pol, Upstream: u, Resolver: names{"rebound.example": "127.0.0.1", "public.example": "93.184.215.14"},
				Log: zerolog.New(&logs).Level(zerolog.DebugLevel)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if body, err := get(p, a.URL+"/"); err != nil || body != "A" {
				t.Fatalf("allowed: %q %v", body, err)
			}
			seen := len(up.Log())
			for _, host := range []string{"denied.example:80", "rebound.example:" + strings.Split(a.HostPort(), ":")[1]} {
				if _, err := get(p, "http://"+host+"/"); err == nil {
					t.Fatalf("%s passed", host)
				}
				if code, _ := connect(t, p, host); code != http.StatusForbidden {
					t.Fatalf("%s tunnel: %d", host, code)
				}
			}
			if got := up.Log(); len(got) != seen {
				t.Fatalf("denied requests reached the upstream: %q", got[seen:])
			}
		})
	}
}

// A proxy's host in capitals is the proxy still: plain requests go to it
// as proxy requests, not through a tunnel to itself.
func TestProxyThroughHTTPUpstreamNamedInCapitals(t *testing.T) {
	a := newServer(t, "A")
	up := actortest.StartHTTPProxy(t, "", "")
	_, port, _ := net.SplitHostPort(up.Addr())
	var logs syncBuffer
	p := startVia(t, nil, "http://LocalHost:"+port, &logs)
	if body, err := get(p, a.URL+"/caps"); err != nil || body != "A" {
		t.Fatalf("plain: %q %v", body, err)
	}
	if got := up.Log(); len(got) != 1 || got[0] != "GET "+a.URL+"/caps" {
		t.Fatalf("the upstream's log: %q", got)
	}
}
