package relay

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// cdp is the Chrome DevTools Protocol's dialect.
type cdp struct{}

// internalIDBase starts the relay's own CDP id space: internal requests
// count down from here, far from the ids clients use (small positive
// counters; Playwright's -9999).
const internalIDBase = -2_000_000_000

func (cdp) firstOwnID() int64   { return internalIDBase }
func (cdp) ownID(id int64) bool { return id <= internalIDBase }

func (cdp) kept(h *transport.Head) bool { return isSubscription(h) || isExtensionRequest(h) }

func (cdp) noted(h *transport.Head) bool { return fsm.IsWeakSignal(h.Method) || isBookEvent(h) }

func (cdp) closesBrowser(h *transport.Head) bool {
	return h.HasID && h.Is("Browser.close") && len(h.SessionID) == 0
}

func (cdp) success(dst []byte, h *transport.Head) []byte {
	return appendSession(fmt.Appendf(dst, `{"id":%d,"result":{}`, h.ID), h.SessionID)
}

func (cdp) bootstrapTimeout() time.Duration { return 10 * time.Second }

func (cdp) newSetup(log zerolog.Logger, onExtension func(extensionNews)) clientSetup {
	return &cdpSetup{subscribed: map[string][]byte{}, book: newTargetBook(), extensions: extensionRequests{}, onExtension: onExtension, log: log}
}

// Browser-level requests a client makes to subscribe: replayed after a
// recovery so the new browser sends what the client expects.
var subscriptionMethods = []string{"Target.setDiscoverTargets", "Target.setAutoAttach", "Browser.setDownloadBehavior"}

func isSubscription(h *transport.Head) bool {
	if len(h.SessionID) > 0 || !h.HasID {
		return false
	}
	for _, m := range subscriptionMethods {
		if h.Is(m) {
			return true
		}
	}
	return false
}

// cdpSetup keeps the client's subscriptions and its book of targets and
// sessions. The bootstrap is target auto-attach, then the subscriptions.
// Extensions the client loaded are not loaded again: an extension is the
// whole browser's, not one client's setup (another client may have
// uninstalled it), and Chromium itself forgets them when it exits.
type cdpSetup struct {
	subscribed   map[string][]byte // the client's last subscription request per method
	book         *targetBook       // the client's view of targets and sessions
	extensions   extensionRequests // extension requests awaiting their answers
	onExtension  func(extensionNews)
	autoAttachID int64    // the bootstrap's own auto-attach in this attempt
	replay       [][]byte // subscriptions still to replay in this bootstrap
	log          zerolog.Logger
}

// queued records a subscription at once: a client's own auto-attach, held
// for the next browser, is that browser's bootstrap.
func (s *cdpSetup) queued(h *transport.Head, msg []byte) {
	if isSubscription(h) {
		s.subscribed[string(h.Method)] = append([]byte(nil), msg...)
	}
}

func (s *cdpSetup) sent(h *transport.Head, msg *transport.Message) watching {
	if isExtensionRequest(h) {
		return s.extensions.sent(h, msg.B)
	}
	if isSubscription(h) {
		s.subscribed[string(h.Method)] = append(s.subscribed[string(h.Method)][:0], msg.B...)
	}
	return unwatched
}

func (s *cdpSetup) answered(h *transport.Head, msg []byte) {
	if news, ok := s.extensions.answered(h, msg); ok && s.onExtension != nil {
		s.onExtension(news)
	}
}

func (s *cdpSetup) event(h *transport.Head, msg []byte) {
	if isBookEvent(h) {
		s.book.note(h, msg)
	}
}

// answeredWhileGone: a Browser.close right after a weak signal closed the
// browser; anything else waits for the next one.
func (*cdpSetup) answeredWhileGone(h *transport.Head, likely bool) bool {
	return likely && cdp{}.closesBrowser(h)
}

// farewell: a CDP client's sessions end with its connection.
func (*cdpSetup) farewell(int64) []byte { return nil }

func (s *cdpSetup) gone() [][]byte { return s.book.goneEvents() }

func (s *cdpSetup) bootstrap(next func() int64) []ownRequest {
	s.replay = s.replay[:0]
	for _, m := range subscriptionMethods {
		if msg, ok := s.subscribed[m]; ok {
			s.replay = append(s.replay, msg)
		}
	}
	if _, own := s.subscribed["Target.setAutoAttach"]; own {
		// The client's own auto-attach, with its filter, is the bootstrap: the
		// relay's (no filter: Chromium then attaches pages directly, not
		// through their tab) would attach the new browser's pages as the
		// client never asked, and Puppeteer, which attaches pages through tab
		// targets, would keep page targets with no tab. The subscriptions go
		// in the order the client made them, as on a fresh connection
		// (discovery, then auto-attach).
		s.autoAttachID = 0
		return s.replayed(next)
	}
	s.autoAttachID = next()
	return []ownRequest{{id: s.autoAttachID, msg: fmt.Appendf(nil,
		`{"id":%d,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}}`, s.autoAttachID)}}
}

// replayed is the client's subscriptions again, with the relay's ids; the
// client's own Target.setAutoAttach among them stands for the bootstrap
// (its refusal fails the recovery).
func (s *cdpSetup) replayed(next func() int64) []ownRequest {
	var out []ownRequest
	for _, sub := range s.replay {
		sh, err := transport.ScanHead(sub)
		if err != nil || !sh.HasID {
			continue
		}
		id := next()
		if sh.Is("Target.setAutoAttach") && s.autoAttachID == 0 {
			s.autoAttachID = id
		}
		out = append(out, ownRequest{id: id, msg: sh.WithID(nil, sub, id)})
	}
	s.replay = s.replay[:0]
	return out
}

// bootstrapAnswer moves the bootstrap on: auto-attach first, then the
// client's subscriptions.
func (s *cdpSetup) bootstrapAnswer(h *transport.Head, msg []byte, next func() int64) ([]ownRequest, error) {
	autoAttach := h.ID == s.autoAttachID
	if h.HasError {
		if autoAttach {
			return nil, fmt.Errorf("the browser refused the bootstrap: %s", truncate(msg, 200))
		}
		s.log.Warn().Str("answer", string(truncate(msg, 200))).Msg("a replayed subscription failed")
	}
	if autoAttach {
		return s.replayed(next), nil // nothing left when the client's auto-attach was the bootstrap
	}
	return nil, nil
}
