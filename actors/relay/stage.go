package relay

import "github.com/cdpvisor/cdpvisor/transport"

// A Stage is a feature's part in a relay, living in the feature's room (the
// journal's tap, a human's hold, the world's wall; next the recorder,
// admission). The relay runs the stages it is given in their order and names
// none of them; a relay with no stage runs its fast path as before stages.
//
// The stages are layers around the browser: a client's frames meet them
// from the first to the last on their way to the browser, the browser's
// from the last to the first on their way to the client. From each frame's
// head a stage says what it wants of it (Look):
//   - nothing: the frame passes the stage unseen;
//   - Observe: the stage sees the frame at the client's edge, as the
//     client sent it or as the client gets it, once; on the fast path too,
//     where no actor hears of it (a recorder, a journal);
//   - Claim: the frame goes to the relay's actor, which hands it to the
//     stage's Handle on its way (after the queue that holds a client's
//     frames while no browser is there); the verdict is Pass, Answer, Hold
//     or Drop (a wall, a hold, admission).
//
// The fast path forwards a frame only when no stage claims it. A stage
// that holds frames claims, while it holds them, whatever must not
// overtake them.
type Stage interface {
	// Look says what the stage wants of f, from its head (and, cheaply,
	// its bytes). It is called for every frame both ways: on the fast
	// path, by the readers under its gate, at most one call per direction
	// at a time, and in the actor. It must not block. It may read what the
	// stage changes in Handle and the Line's callbacks without a lock: the
	// actor acts only while the fast path is off.
	Look(f *Frame) Look
	// Observe sees a frame Look said Observe of, before the frame is
	// written on: a client's as it arrived, a frame to the client after
	// every verdict, as the client gets it. On the fast path it runs on the
	// readers, at most one call per direction at a time: it must not
	// block (hand off, don't wait).
	Observe(f *Frame)
	// Handle gives the verdict on a frame Look claimed, in the actor. A
	// stage that rewrites f.Msg.B scans f.Head again. A client's frame
	// meets it again when the relay sends it again to the next browser
	// after one was lost.
	Handle(l *Line, f *Frame) Verdict
	// Close says the relay ended: its readers are done, and so is the work
	// the stage had run (Line.Go). The stage releases what it holds.
	Close()
}

// Direction is the way a frame goes.
type Direction uint8

const (
	ToBrowser Direction = iota // a client's frame, on its way to the browser
	ToClient                   // a frame on its way to the client: the browser's, the relay's or a stage's
)

// Look is what a stage wants of a frame; 0: nothing.
type Look uint8

const (
	// Observe: the stage sees the frame at the client's edge (Observe).
	Observe Look = 1 << iota
	// Claim: the actor hands the frame to the stage (Handle).
	Claim
)

// Verdict is what Handle did with a frame.
type Verdict uint8

const (
	// Pass: the frame goes on its way, as the stage may have rewritten it.
	Pass Verdict = iota
	// Answer: the stage answered the client's request itself (Line.Answer);
	// the request goes no further.
	Answer
	// Hold: the stage keeps the frame and sends it on later, in order
	// (Line.Send); the frame is the stage's until then.
	Hold
	// Drop: the frame goes nowhere.
	Drop
)

// Frame is one message crossing the relay, as a stage sees it. A stage
// keeps no *Frame past the call it was given in; a stage that holds a frame
// keeps its Msg.
type Frame struct {
	Dir Direction
	// Head is the frame's head, scanned once by the relay.
	Head transport.Head
	Msg  *transport.Message
	// Partial: Msg has only the first bytes of a huge browser frame, which
	// is streamed to the client while it arrives (the head is in them).
	Partial bool
	// Made: the relay or a stage made the frame, not the browser: an answer
	// of its own, or what a client is told of a browser that was lost.
	Made bool
	// Refused, on an answer the relay or a stage made, says why it refused
	// the request.
	Refused *Refusal
}

// Refusal is a client request that a stage (the world's wall) refused
// itself: observers keep it with the answer (a journal's denials).
type Refusal struct {
	Method string // the request's
	What   string // what it asked for: a URL, a file's path; "" when nothing in particular
	Rule   string // the rule that refused it
}

// maxStages bounds a relay's stages: the fast path notes its observers in
// one word.
const maxStages = 64
