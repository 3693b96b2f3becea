package guard

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// handshakeTimeout bounds the exchange with the upstream proxy before a
// tunnel is open (the CONNECT's answer, SOCKS5's replies).
const handshakeTimeout = 30 * time.Second

// dialThrough opens a tunnel to target (host:port, the name as the
// browser asked: the upstream resolves it) through the upstream proxy:
// an HTTP CONNECT or a SOCKS5 CONNECT. The connection returned carries
// the target's bytes.
func (u *Upstream) dialThrough(ctx context.Context, target string) (net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.hostport)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUpstreamUnreachable, u.Redacted(), err)
	}
	deadline := time.Now().Add(handshakeTimeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	_ = conn.SetDeadline(deadline)
	// A context ended mid-handshake ends the handshake.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	var tunnel net.Conn
	if u.scheme == "socks5" {
		tunnel, err = u.socks5Connect(conn, target)
	} else {
		tunnel, err = u.httpConnect(conn, target)
	}
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	if !stop() {
		_ = conn.Close()
		return nil, ctx.Err()
	}
	_ = conn.SetDeadline(time.Time{})
	return tunnel, nil
}

// httpConnect asks an HTTP proxy for a tunnel (Proxy-Authorization:
// Basic with the credentials given).
func (u *Upstream) httpConnect(conn net.Conn, target string) (net.Conn, error) {
	req := "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n"
	if u.hasAuth {
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(u.user+":"+u.pass)) + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		return nil, fmt.Errorf("asking %s for a tunnel to %s: %w", u.Redacted(), target, err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return nil, fmt.Errorf("reading the answer of %s to a tunnel to %s: %w", u.Redacted(), target, err)
	}
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusProxyAuthRequired:
		return nil, fmt.Errorf("%w: %s answered %s: its credentials are missing or wrong", ErrUpstreamRefused, u.Redacted(), resp.Status)
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("%w: %s answered %s to a tunnel to %s", ErrUpstreamRefused, u.Redacted(), resp.Status, target)
	}
	if br.Buffered() > 0 { // the target's first bytes, read with the answer
		return &bufferedConn{Conn: conn, r: br}, nil
	}
	return conn, nil
}

// bufferedConn is a connection whose first bytes were read ahead.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// CloseWrite half-closes the connection beneath.
func (c *bufferedConn) CloseWrite() error {
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		return tc.CloseWrite()
	}
	return c.Conn.Close()
}

// SOCKS5 (RFC 1928) and its user/password method (RFC 1929).
const (
	socksVersion      = 5
	socksNoAuth       = 0x00
	socksUserPass     = 0x02
	socksNoAcceptable = 0xff
	socksConnect      = 0x01
	socksIPv4         = 0x01
	socksDomain       = 0x03
	socksIPv6         = 0x04
)

// socks5Connect asks a SOCKS5 proxy for a connection to target, by name
// (the proxy resolves it).
func (u *Upstream) socks5Connect(conn net.Conn, target string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(target)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", target, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("reading %q: bad port", target)
	}
	methods := []byte{socksNoAuth}
	if u.hasAuth {
		methods = []byte{socksUserPass}
	}
	if _, err := conn.Write(append([]byte{socksVersion, byte(len(methods))}, methods...)); err != nil {
		return nil, u.socksErr("greeting", err)
	}
	var reply [2]byte
	if _, err := io.ReadFull(conn, reply[:]); err != nil {
		return nil, u.socksErr("greeting", err)
	}
	switch {
	case reply[0] != socksVersion:
		return nil, fmt.Errorf("%w: %s is not a SOCKS5 proxy (version %d)", ErrUpstreamRefused, u.Redacted(), reply[0])
	case reply[1] == socksNoAcceptable && u.hasAuth:
		return nil, fmt.Errorf("%w: %s does not take a user name and password", ErrUpstreamRefused, u.Redacted())
	case reply[1] == socksNoAcceptable:
		return nil, fmt.Errorf("%w: %s asks for credentials; give them as socks5://user:pass@host:port", ErrUpstreamRefused, u.Redacted())
	case reply[1] == socksUserPass && u.hasAuth:
		auth := []byte{1, byte(len(u.user))}
		auth = append(auth, u.user...)
		auth = append(auth, byte(len(u.pass)))
		auth = append(auth, u.pass...)
		if _, err := conn.Write(auth); err != nil {
			return nil, u.socksErr("sign-in", err)
		}
		if _, err := io.ReadFull(conn, reply[:]); err != nil {
			return nil, u.socksErr("sign-in", err)
		}
		if reply[1] != 0 {
			return nil, fmt.Errorf("%w: %s: its credentials are wrong", ErrUpstreamRefused, u.Redacted())
		}
	case reply[1] != socksNoAuth:
		return nil, fmt.Errorf("%w: %s chose method %d, which cdpvisor does not speak", ErrUpstreamRefused, u.Redacted(), reply[1])
	}
	req := []byte{socksVersion, socksConnect, 0}
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
		req = append(append(req, socksIPv4), ip.To4()...)
	} else if ip != nil {
		req = append(append(req, socksIPv6), ip.To16()...)
	} else {
		if len(host) > 255 {
			return nil, fmt.Errorf("host name %q is too long for SOCKS5", host)
		}
		req = append(append(req, socksDomain, byte(len(host))), host...)
	}
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	if _, err := conn.Write(req); err != nil {
		return nil, u.socksErr("connect", err)
	}
	var head [4]byte
	if _, err := io.ReadFull(conn, head[:]); err != nil {
		return nil, u.socksErr("connect", err)
	}
	if head[1] != 0 {
		return nil, fmt.Errorf("%w: %s could not connect to %s: %s", ErrUpstreamRefused, u.Redacted(), target, socksReply(head[1]))
	}
	var skip int
	switch head[3] {
	case socksIPv4:
		skip = 4
	case socksIPv6:
		skip = 16
	case socksDomain:
		var n [1]byte
		if _, err := io.ReadFull(conn, n[:]); err != nil {
			return nil, u.socksErr("connect", err)
		}
		skip = int(n[0])
	default:
		return nil, fmt.Errorf("%w: %s answered an address of unknown type %d", ErrUpstreamRefused, u.Redacted(), head[3])
	}
	if _, err := io.CopyN(io.Discard, conn, int64(skip+2)); err != nil { // the bound address and port
		return nil, u.socksErr("connect", err)
	}
	return conn, nil
}

func (u *Upstream) socksErr(step string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("it hung up")
	}
	return fmt.Errorf("SOCKS5 %s with %s: %w", step, u.Redacted(), err)
}

// socksReply words a SOCKS5 reply code (RFC 1928, 6).
func socksReply(code byte) string {
	switch code {
	case 1:
		return "general failure"
	case 2:
		return "not allowed by its rules"
	case 3:
		return "network unreachable"
	case 4:
		return "host unreachable"
	case 5:
		return "connection refused"
	case 6:
		return "TTL expired"
	case 7:
		return "command not supported"
	case 8:
		return "address type not supported"
	}
	return "reply " + strconv.Itoa(int(code))
}
