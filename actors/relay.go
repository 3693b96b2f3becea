package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// RelaySpec configures a RelayActor.
type RelaySpec struct {
	ID         int64
	Instance   string
	Client     *websocket.Conn
	Browser    *websocket.Conn
	Generation int
	MaxMessage int64
	Log        zerolog.Logger
}

// RelayActor owns both ends of one client connection and forwards frames
// between them, message by message, without decoding them.
type RelayActor struct {
	spec RelaySpec
	log  zerolog.Logger
}

// NewRelayActor makes a relay for a client and browser connection it owns.
func NewRelayActor(spec RelaySpec) *RelayActor {
	return &RelayActor{spec: spec, log: spec.Log.With().Int64("relay", spec.ID).Logger()}
}

func (r *RelayActor) String() string { return fmt.Sprintf("relay %d", r.spec.ID) }

// Close ends the relay from outside: the client gets code and reason.
// Safe from any goroutine.
func (r *RelayActor) Close(code int, reason string) {
	transport.CloseWith(r.spec.Client, code, reason)
	r.spec.Browser.Close()
}

// Serve forwards until either side ends or ctx is done, then closes both
// ends and waits for its two pumps.
func (r *RelayActor) Serve(ctx context.Context) error {
	r.log.Debug().Int("generation", r.spec.Generation).Msg("relay connected")
	ends := make(chan error, 2)
	go func() {
		ends <- transport.CopyMessages(r.spec.Browser, r.spec.Client, transport.ClientSide, transport.BrowserSide)
	}()
	go func() {
		ends <- transport.CopyMessages(r.spec.Client, r.spec.Browser, transport.BrowserSide, transport.ClientSide)
	}()
	pending := 2
	select {
	case err := <-ends:
		pending--
		r.finish(err)
	case <-ctx.Done():
		r.Close(websocket.CloseGoingAway, "cdpvisor is shutting down")
	}
	for ; pending > 0; pending-- {
		<-ends
	}
	return nil
}

// finish passes the way one side ended on to the other.
func (r *RelayActor) finish(err error) {
	var end *transport.EndError
	if !errors.As(err, &end) {
		r.Close(websocket.CloseInternalServerErr, "relay failure")
		return
	}
	client, browser := r.spec.Client, r.spec.Browser
	switch {
	case transport.TooLarge(end.Err):
		reason := fmt.Sprintf("a message from the %s exceeds the %d-byte limit", end.Side, r.spec.MaxMessage)
		transport.CloseWith(client, websocket.CloseMessageTooBig, reason)
		transport.CloseWith(browser, websocket.CloseMessageTooBig, reason)
	case end.Side == transport.ClientSide:
		if code, text, ok := transport.PeerClose(end.Err); ok {
			transport.CloseWith(browser, code, text)
		} else {
			browser.Close()
		}
		client.Close()
	default:
		if code, text, ok := transport.PeerClose(end.Err); ok {
			transport.CloseWith(client, code, text)
		} else {
			transport.CloseWith(client, websocket.CloseGoingAway, "the browser connection was lost")
		}
		browser.Close()
	}
	r.log.Debug().Str("side", string(end.Side)).Err(end.Err).Msg("relay ended")
}
