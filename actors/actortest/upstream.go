package actortest

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// UpstreamProxy is a test's upstream proxy on loopback: HTTP (plain
// requests in absolute form and CONNECT) or SOCKS5 (RFC 1928, with RFC
// 1929's user and password when User is set). It logs each request it
// relays ("GET http://host:port/path", "CONNECT host:port") and each it
// refused for its credentials ("407 ..."), and closes with the test.
type UpstreamProxy struct {
	User, Pass string // "": no credentials asked

	ln    net.Listener
	mu    sync.Mutex
	log   []string
	conns map[net.Conn]struct{} // closed by the cleanup, both ends of each relay
	wg    sync.WaitGroup
}

// StartHTTPProxy starts an HTTP upstream proxy asking for Basic
// credentials user:pass ("" user: none).
func StartHTTPProxy(t testing.TB, user, pass string) *UpstreamProxy {
	return startUpstream(t, user, pass, (*UpstreamProxy).serveHTTP)
}

// StartSOCKS5Proxy starts a SOCKS5 upstream proxy asking for user:pass
// ("" user: none).
func StartSOCKS5Proxy(t testing.TB, user, pass string) *UpstreamProxy {
	return startUpstream(t, user, pass, (*UpstreamProxy).serveSOCKS5)
}

func startUpstream(t testing.TB, user, pass string, serve func(*UpstreamProxy, net.Conn)) *UpstreamProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := &UpstreamProxy{User: user, Pass: pass, ln: ln, conns: map[net.Conn]struct{}{}}
	u.wg.Add(1)
	go func() { // owned by the proxy: ended by the test's cleanup
		defer u.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u.track(c)
			u.wg.Add(1)
			go func() {
				defer u.wg.Done()
				serve(u, c)
				u.untrack(c)
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		u.mu.Lock()
		for c := range u.conns {
			_ = c.Close()
		}
		u.mu.Unlock()
		u.wg.Wait()
	})
	return u
}

func (u *UpstreamProxy) track(c net.Conn) {
	u.mu.Lock()
	u.conns[c] = struct{}{}
	u.mu.Unlock()
}

func (u *UpstreamProxy) untrack(c net.Conn) {
	_ = c.Close()
	u.mu.Lock()
	delete(u.conns, c)
	u.mu.Unlock()
}

// dial connects to a target for a relay, tracked for the cleanup.
func (u *UpstreamProxy) dial(target string) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", target, 5*time.Second)
	if err == nil {
		u.track(c)
	}
	return c, err
}

// Addr is the proxy's host:port.
func (u *UpstreamProxy) Addr() string { return u.ln.Addr().String() }

// URL is the proxy's URL with its credentials, scheme "http" or "socks5".
func (u *UpstreamProxy) URL(scheme string) string {
	if u.User == "" {
		return scheme + "://" + u.Addr()
	}
	return scheme + "://" + u.User + ":" + u.Pass + "@" + u.Addr()
}

// Log is what the proxy relayed and refused so far.
func (u *UpstreamProxy) Log() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.log...)
}

// Saw says some line of the log holds s.
func (u *UpstreamProxy) Saw(s string) bool {
	for _, l := range u.Log() {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func (u *UpstreamProxy) record(format string, args ...any) {
	u.mu.Lock()
	u.log = append(u.log, fmt.Sprintf(format, args...))
	u.mu.Unlock()
}

func (u *UpstreamProxy) serveHTTP(c net.Conn) {
	br := bufio.NewReader(c)
	for {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_ = c.SetReadDeadline(time.Time{})
		if u.User != "" && req.Header.Get("Proxy-Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User+":"+u.Pass)) {
			u.record("407 %s %s", req.Method, req.Host)
			_, _ = io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n")
			continue
		}
		if req.Method == http.MethodConnect {
			u.record("CONNECT %s", req.Host)
			up, err := u.dial(req.Host)
			if err != nil {
				_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
				return
			}
			_, _ = io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n")
			if n := br.Buffered(); n > 0 {
				head, _ := br.Peek(n)
				_, _ = up.Write(head)
			}
			pipe(c, up)
			u.untrack(up)
			return
		}
		if !req.URL.IsAbs() {
			_, _ = io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
			return
		}
		u.record("%s %s", req.Method, req.URL.String())
		req.RequestURI = ""
		req.Header.Del("Proxy-Authorization")
		// No keep-alive: no idle connection outlives the request.
		tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
		resp, err := tr.RoundTrip(req)
		if err != nil {
			_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
			return
		}
		err = resp.Write(c)
		_ = resp.Body.Close()
		if err != nil || req.Close || resp.Close {
			return
		}
	}
}

func (u *UpstreamProxy) serveSOCKS5(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	var head [2]byte
	if _, err := io.ReadFull(c, head[:]); err != nil || head[0] != 5 {
		return
	}
	methods := make([]byte, head[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return
	}
	want := byte(0)
	if u.User != "" {
		want = 2
	}
	if !strings.ContainsRune(string(methods), rune(want)) {
		_, _ = c.Write([]byte{5, 0xff})
		return
	}
	_, _ = c.Write([]byte{5, want})
	if want == 2 {
		var ver [2]byte
		if _, err := io.ReadFull(c, ver[:]); err != nil {
			return
		}
		user := make([]byte, ver[1])
		_, _ = io.ReadFull(c, user)
		var n [1]byte
		_, _ = io.ReadFull(c, n[:])
		pass := make([]byte, n[0])
		if _, err := io.ReadFull(c, pass); err != nil {
			return
		}
		if string(user) != u.User || string(pass) != u.Pass {
			u.record("407 SOCKS5 sign-in refused")
			_, _ = c.Write([]byte{1, 1})
			return
		}
		_, _ = c.Write([]byte{1, 0})
	}
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil || req[1] != 1 {
		return
	}
	var host string
	switch req[3] {
	case 1, 4:
		ip := make([]byte, map[byte]int{1: 4, 4: 16}[req[3]])
		if _, err := io.ReadFull(c, ip); err != nil {
			return
		}
		host = net.IP(ip).String()
	case 3:
		var n [1]byte
		_, _ = io.ReadFull(c, n[:])
		name := make([]byte, n[0])
		if _, err := io.ReadFull(c, name); err != nil {
			return
		}
		host = string(name)
	default:
		return
	}
	var port [2]byte
	if _, err := io.ReadFull(c, port[:]); err != nil {
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port[:]))))
	u.record("CONNECT %s", target)
	up, err := u.dial(target)
	if err != nil {
		_, _ = c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	_, _ = c.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
	_ = c.SetDeadline(time.Time{})
	pipe(c, up)
	u.untrack(up)
}

// pipe copies both ways until both ends are done.
func pipe(c, up net.Conn) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(c, up)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	_, _ = io.Copy(up, c)
	if tc, ok := up.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	<-done
}
