package downloads

import (
	"context"
	"time"
)

// A world (/context/NAME) is a browser context of its own on the shared
// browser; its downloads land in a folder of its own, WorldDir(Dir, NAME).
// The actor learns a context from target discovery like any context a
// client made, then asks the instance's WorldsActor (Spec.WorldOf) whose it
// is, and sets the context's download behaviour once it knows the folder.

// worldLookupTimeout bounds one question to the WorldsActor, which may be
// waiting for the browser itself.
const worldLookupTimeout = 10 * time.Second

// worldAnswer is the answer to askWorld, on the actor's goroutine.
type worldAnswer struct {
	gen     int
	context string
	world   string // "" when the context is no world's
	err     error
}

// askWorld asks, off the actor's goroutine, which world the context made in
// the running browser is; the answer comes back as a worldAnswer.
func (r *run) askWorld(contextID string) {
	gen := r.sess.Gen()
	r.lookups.Add(1)
	go func() {
		defer r.lookups.Done()
		ctx, cancel := context.WithTimeout(r.lookupCtx, worldLookupTimeout)
		defer cancel()
		world, err := r.a.spec.WorldOf(ctx, contextID)
		select {
		case r.fromSession <- worldAnswer{gen: gen, context: contextID, world: world, err: err}:
		case <-r.lookupCtx.Done():
		}
	}()
}

// worldKnown sets the download behaviour of a context whose world (or
// none) is known now.
func (r *run) worldKnown(m worldAnswer) {
	if !r.ctxs.created[m.context] {
		return
	}
	if m.err != nil {
		// Its downloads land in the instance's folder, and are listed as no
		// world's.
		r.log.Warn().Err(m.err).Str("context", m.context).Msg("could not tell whether a browser context is a world's")
	}
	if m.world != "" {
		r.ctxs.worlds[m.context] = m.world
		r.log.Debug().Str("context", m.context).Str("world", m.world).Msg("a world's browser context: its downloads go to its folder")
	}
	if !r.a.clients.held(m.context) {
		r.setBehaviour(m.context)
	}
}
