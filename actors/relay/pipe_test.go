package relay_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// The same relay serves a pipe client; when the browser goes, the pipe
// closes, as a real browser's would, so the tool relaunches as usual.
func TestPipeClientClosesWithTheBrowser(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	browser, err := relay.DialBrowser(ctx, ep, 0)
	if err != nil {
		t.Fatal(err)
	}
	toRelayR, toRelayW, _ := os.Pipe()
	fromRelayR, fromRelayW, _ := os.Pipe()
	defer toRelayW.Close()
	defer fromRelayR.Close()
	client := transport.NewPipeConn(toRelayR, fromRelayW, func() error {
		toRelayR.Close()
		return fromRelayW.Close()
	})
	relay := relay.New(relay.Spec{ID: 1, Client: client, Browser: browser, Endpoint: ep, Source: inst.Browser,
		Resilient: false, Log: zerolog.New(zerolog.NewTestWriter(t))})
	served := make(chan struct{})
	go func() { _ = relay.Serve(context.Background()); close(served) }()

	test := transport.NewPipeConn(fromRelayR, toRelayW, nil)
	if err := test.Write([]byte(`{"id":1,"method":"Browser.getVersion"}`), false); err != nil {
		t.Fatal(err)
	}
	m := transport.NewMessage()
	if err := test.Read(m); err != nil || !strings.Contains(string(m.B), `"id":1`) || !strings.Contains(string(m.B), "FakeChrome") {
		t.Fatalf("answer over the pipe: %q %v", m.B, err)
	}
	actortest.KillPid(t, ep.Pid)
	if err := test.Read(m); err != io.EOF {
		t.Fatalf("after the browser died the pipe gave %v %q, want EOF", err, m.B)
	}
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the relay did not end")
	}
}
