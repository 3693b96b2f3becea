package extensions

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// strayRequest is of the actor's set but has no case in handle: a message
// added without its handling.
type strayRequest struct{}

func (strayRequest) isExtensionsRequest() {}

// runningBrowser tells every subscriber that generation 1 runs, as a
// BrowserActor tells a late one.
type runningBrowser struct{}

func (runningBrowser) Subscribe(_ context.Context, ch chan<- browser.Event, _ browser.Delivery) (func(), error) {
	ch <- browser.Ready{Endpoint: browser.Endpoint{Generation: 1}}
	return func() {}, nil
}

// A message sent through the mailbox that handle has no case for is not
// dropped: the actor logs an error naming its type and panics, suture logs
// the panic and restarts the actor, which answers again.
func TestUnknownRequestFailsLoudlyAndTheActorRestarts(t *testing.T) {
	var logs actortest.SyncBuffer
	log := zerolog.New(&logs)
	a := New(Spec{Instance: "test", Browser: runningBrowser{}, Log: log})
	sup := suture.New("test", suture.Spec{EventHook: actor.SupervisorHook(log)})
	sup.Add(a)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := sup.ServeBackground(ctx)
	defer func() { cancel(); <-done }()

	if err := actor.Send(ctx, a.mailbox, request(strayRequest{})); err != nil {
		t.Fatal(err)
	}
	const id = "abcdefghijklmnopabcdefghijklmnop"
	// The restarted actor takes the load and answers; before the restart
	// the mailbox has nobody to read it.
	for !a.AllowsOrigin(ctx, "chrome-extension://"+id) {
		if err := a.Loaded(ctx, id, 1); err != nil {
			t.Fatalf("the actor did not come back: %v\n%s", err, logs.String())
		}
	}
	// suture's hook may log the panic after the restarted actor answered.
	const restarted = `"panic_msg":"extensions test: no case for message extensions.strayRequest","restarting":true`
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(logs.String(), restarted) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	got := logs.String()
	for _, want := range []string{
		`"level":"error","actor":"extensions test","messageType":"extensions.strayRequest"`,
		restarted,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the logs lack %s:\n%s", want, got)
		}
	}
}
