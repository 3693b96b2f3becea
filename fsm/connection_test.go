package fsm

import (
	"testing"
	"time"
)

func TestConnectionMachinePaths(t *testing.T) {
	paths := [][]string{
		{ConnConnect, ConnBrowserLost, ConnRecover, ConnRecovered, ConnBrowserLost},
		{ConnConnect, ConnBrowserLost, ConnRecover, ConnRecoveryFailed, ConnRecover, ConnClose},
		{ConnClose},
		{ConnConnect, ConnClose},
		{ConnConnect, ConnBrowserLost, ConnClose},
	}
	for _, events := range paths {
		m := NewConnectionMachine(nil)
		for _, ev := range events {
			if err := m.Fire(ev); err != nil {
				t.Fatalf("%v: %v", events, err)
			}
		}
	}
	m := NewConnectionMachine(nil)
	_ = m.Fire(ConnClose)
	for _, ev := range []string{ConnConnect, ConnBrowserLost, ConnRecover, ConnClose} {
		if err := m.Fire(ev); err == nil && ev != ConnClose {
			t.Errorf("%s accepted after closing", ev)
		}
	}
}

func TestCorrelator(t *testing.T) {
	now := time.Unix(1000, 0)
	c := NewCorrelator(func() time.Time { return now })
	if likely, signals := c.Strong("ConnectionClosedPrematurely"); likely || signals != "ConnectionClosedPrematurely" {
		t.Fatalf("strong alone: %v %q", likely, signals)
	}
	c.Weak([]byte("Inspector.detached"), []byte(`{"method":"Inspector.detached"}`))
	now = now.Add(1500 * time.Millisecond)
	if likely, signals := c.Strong("READER_CLOSE"); !likely || signals != "Inspector.detached,READER_CLOSE" {
		t.Fatalf("weak 1.5 s before: %v %q", likely, signals)
	}
	now = now.Add(time.Second)
	if likely, _ := c.Strong("READER_CLOSE"); likely {
		t.Fatal("a weak signal 2.5 s old still counts")
	}
	for i := 0; i < 25; i++ {
		c.Weak([]byte("Target.detachedFromTarget"), []byte(`{}`))
	}
	if n := len(c.Events()); n != ringSize {
		t.Fatalf("ring holds %d, want %d", n, ringSize)
	}
	if !IsWeakSignal([]byte("Target.detachedFromTarget")) || IsWeakSignal([]byte("Target.attachedToTarget")) {
		t.Fatal("IsWeakSignal")
	}
	c.Reset()
	if len(c.Events()) != 0 {
		t.Fatal("reset kept events")
	}
}
