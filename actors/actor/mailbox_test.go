package actor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

type request interface{ isTestRequest() }

type (
	ping  struct{ reply chan string }
	stray struct{} // a request its actor has no case for
)

func (ping) isTestRequest()  {}
func (stray) isTestRequest() {}

// Ask is typed by the mailbox: the request is one of the actor's set.
func TestAskAnswersThroughTheMailbox(t *testing.T) {
	mailbox := make(chan request)
	go func() {
		m := (<-mailbox).(ping)
		m.reply <- "pong"
	}()
	got, err := actor.Ask(context.Background(), mailbox, func(r chan string) request { return ping{reply: r} })
	if err != nil || got != "pong" {
		t.Fatalf("Ask: %q, %v; want pong", got, err)
	}
}

// Unknown logs the message's type at error level, then panics with it.
func TestUnknownLogsAndPanicsNamingTheType(t *testing.T) {
	var logs bytes.Buffer
	u := actortest.CatchUnknown(t, func() { actor.Unknown(zerolog.New(&logs), "test", stray{}) })
	if u.Actor != "test" || u.Type != "actor_test.stray" {
		t.Fatalf("panic %+v, want the actor test and the type actor_test.stray", u)
	}
	var line struct{ Level, Actor, MessageType string }
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil || line.Level != "error" || line.MessageType != "actor_test.stray" {
		t.Fatalf("log %q (%v), want an error naming actor_test.stray", logs.String(), err)
	}
}
