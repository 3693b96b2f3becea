package windows

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
	"github.com/cdpvisor/cdpvisor/transport"
)

// WindowsReach reaches a Windows browser's debugging port from the Windows
// side, for WSL's NAT networking (WSL's 127.0.0.1 is not Windows'): each
// HTTP request runs http.ps1, each websocket is a relay.ps1 that holds the
// browser's websocket and passes its messages over its stdio, NUL-delimited
// like Chromium's debugging pipe. Nothing to configure on Windows.
type Reach struct{ ps wsl.PowerShell }

// NewWindowsReach is the helper path through ps.
func NewReach(ps wsl.PowerShell) Reach { return Reach{ps: ps} }

// Name is the path's name in logs and status.
func (Reach) Name() string { return "windows-helper" }

// maxHelperBody bounds a request body sent as a script parameter: it
// crosses on powershell.exe's command line (32767 UTF-16 characters).
const maxHelperBody = 8 << 10

// RoundTrip runs http.ps1 for req and reads its answer back.
func (r Reach) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(io.LimitReader(req.Body, maxHelperBody+1))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > maxHelperBody {
			return nil, fmt.Errorf("a request body over %d bytes cannot go through the Windows helper", maxHelperBody)
		}
	}
	timeout := launch.ReachTimeout
	if d, ok := req.Context().Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	out, err := r.ps.Run(req.Context(), wsl.ScriptHTTP,
		wsl.Param{Name: "Method", Value: req.Method},
		wsl.Param{Name: "Url", Value: req.URL.String()},
		wsl.Param{Name: "Body", Value: base64.StdEncoding.EncodeToString(body)},
		wsl.Param{Name: "ContentType", Value: req.Header.Get("Content-Type")},
		wsl.Param{Name: "Accept", Value: req.Header.Get("Accept")},
		wsl.Param{Name: "TimeoutMs", Value: max(int(timeout/time.Millisecond), 1)})
	if err != nil {
		return nil, err
	}
	var answer struct {
		Status      int
		ContentType string
		Body        string
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil || answer.Status == 0 {
		return nil, fmt.Errorf("powershell.exe %s printed what is not an HTTP answer: %.200q", wsl.ScriptHTTP, out)
	}
	data, err := base64.StdEncoding.DecodeString(answer.Body)
	if err != nil {
		return nil, fmt.Errorf("powershell.exe %s: unreadable body: %w", wsl.ScriptHTTP, err)
	}
	resp := &http.Response{
		Status: fmt.Sprintf("%d %s", answer.Status, http.StatusText(answer.Status)), StatusCode: answer.Status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{},
		Body: io.NopCloser(bytes.NewReader(data)), ContentLength: int64(len(data)), Request: req,
	}
	if answer.ContentType != "" {
		resp.Header.Set("Content-Type", answer.ContentType)
	}
	return resp, nil
}

// relayOpen is the first message relay.ps1 writes, once the websocket is open.
const relayOpen = `{"relay":"open"}`

// DialWebSocket starts a relay.ps1 for url and returns once it holds the
// browser's websocket. Closing the connection ends the relay.
func (r Reach) DialWebSocket(ctx context.Context, url string, limit int64) (transport.Conn, error) {
	h, err := startHelper(r.ps, url)
	if err != nil {
		return nil, &transport.DialError{URL: url, Err: err}
	}
	conn := transport.NewPipeConn(h.stdout, h.stdin, h.close)
	first := make(chan error, 1)
	go func() { // ends with the helper's first message, or its end
		m := transport.NewMessage()
		defer m.Release()
		err := conn.Read(m)
		if err == nil && string(m.B) != relayOpen {
			err = fmt.Errorf("the relay's first message is %.100q, not %s", m.B, relayOpen)
		}
		first <- err
	}()
	wait := time.NewTimer(transport.HandshakeTimeout + launch.ReachTimeout)
	defer wait.Stop()
	read := false // the first message's reader has reported
	select {
	case err = <-first:
		read = true
	case <-wait.C:
		err = errors.New("the Windows helper did not open the websocket in time")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		conn.Close(0, "") // ends the helper, and with it a reader still waiting
		if !read {
			<-first
		}
		return nil, &transport.DialError{URL: url, Err: h.failure(err)}
	}
	_ = limit // the browser's messages are bounded by the pipe's own cap
	return conn, nil
}

// failure says why a helper ended: its stderr when it wrote one.
func (h *helper) failure(err error) error {
	if msg := strings.TrimSpace(h.stderr.String()); msg != "" {
		return fmt.Errorf("through the Windows helper (powershell.exe %s): %s", wsl.ScriptRelay, msg)
	}
	return fmt.Errorf("through the Windows helper (powershell.exe %s): %w", wsl.ScriptRelay, err)
}
