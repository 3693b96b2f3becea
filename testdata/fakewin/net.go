package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/transport"
)

// windowsLoopback is where Windows' 127.0.0.1 is on this machine: WSL's
// own, or 127.0.0.2 in NAT mode (where the browser listens then).
func (w *windows) windowsLoopback(u *url.URL) (*url.URL, error) {
	host := u.Hostname()
	if host != "127.0.0.1" && host != "localhost" {
		return nil, fmt.Errorf("the fake Windows side reaches only its loopback, not %s", u.Host)
	}
	out := *u
	if w.nat && !w.netns {
		out.Host = "127.0.0.2:" + u.Port()
	}
	return &out, nil
}

// httpRequest is http.ps1: one request on Windows' loopback, its answer
// as JSON with the body in base64. The Host header stays what the URL
// names, as a request made on Windows would send it.
func httpRequest(w *windows, p map[string]string) (string, error) {
	u, err := url.Parse(p["Url"])
	if err != nil {
		return "", err
	}
	target, err := w.windowsLoopback(u)
	if err != nil {
		return "", err
	}
	body, err := base64.StdEncoding.DecodeString(p["Body"])
	if err != nil {
		return "", err
	}
	timeout, _ := strconv.Atoi(p["TimeoutMs"])
	req, err := http.NewRequest(p["Method"], target.String(), bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Host = u.Host
	for _, h := range []string{"Content-Type", "Accept"} {
		if v := p[strings.ReplaceAll(h, "-", "")]; v != "" {
			req.Header.Set(h, v)
		}
	}
	client := &http.Client{Timeout: time.Duration(max(timeout, 1)) * time.Millisecond, Transport: &http.Transport{DialContext: w.dial}}
	resp, err := client.Do(req)
	if err != nil {
		// As HttpWebRequest says it with no answer at all.
		return "", fmt.Errorf("Unable to connect to the remote server (%v)", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(map[string]any{"Status": resp.StatusCode, "ContentType": resp.Header.Get("Content-Type"), "Body": base64.StdEncoding.EncodeToString(data)})
	return string(out), err
}

// relay is relay.ps1: the browser's websocket over stdio, NUL-delimited,
// {"relay":"open"} first; it ends when either side ends. It runs until
// then, so it prints nothing of its own.
func relay(w *windows, p map[string]string) (string, error) {
	u, err := url.Parse(p["Url"])
	if err != nil {
		return "", err
	}
	target, err := w.windowsLoopback(u)
	if err != nil {
		return "", err
	}
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: 10 * time.Second, NetDialContext: w.dial}).Dial(target.String(), http.Header{"Host": {u.Host}})
	if err != nil {
		return "", fmt.Errorf("cannot open the websocket %s: %v", p["Url"], err)
	}
	defer ws.Close()
	pipe := transport.NewPipeConn(os.Stdin, os.Stdout, nil)
	if err := pipe.Write([]byte(`{"relay":"open"}`), false); err != nil {
		return "", err
	}
	stdinDone := make(chan struct{})
	go func() { // ends at stdin's EOF, or with the process
		defer close(stdinDone)
		m := transport.NewMessage()
		for pipe.Read(m) == nil {
			if ws.WriteMessage(websocket.TextMessage, m.B) != nil {
				return
			}
		}
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	}()
	browserDone := make(chan struct{})
	go func() {
		defer close(browserDone)
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil || pipe.Write(msg, false) != nil {
				return
			}
		}
	}()
	select {
	case <-stdinDone:
	case <-browserDone:
	}
	return "", nil
}
