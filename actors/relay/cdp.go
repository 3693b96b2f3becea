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
	return transport.AppendSession(fmt.Appendf(dst, `{"id":%d,"result":{}`, h.ID), h.SessionID)
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
// sessions. The bootstrap is the client's own subscriptions, nothing else.
// Extensions the client loaded are not loaded again: an extension is the
// whole browser's, not one client's setup (another client may have
// uninstalled it), and Chromium itself forgets them when it exits.
type cdpSetup struct {
	subscribed   map[string][]byte // the client's last subscription request per method
	book         *targetBook       // the client's view of targets and sessions
	extensions   extensionRequests // extension requests awaiting their answers
	onExtension  func(extensionNews)
	autoAttachID int64 // the replay of the client's auto-attach in this attempt
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

// bootstrap replays the client's subscriptions in the order of
// subscriptionMethods (discovery, then auto-attach, as a fresh connection
// makes them), each with the client's own parameters, and nothing the
// client did not ask for: an auto-attach of the relay's own would attach
// every new page to a client that never asked (chromedp, rod, a raw
// client, chromedriver), and with waitForDebuggerOnStart hold each page,
// whoever made it, until that client resumes it, which it never does.
// A client that subscribed to nothing gets a browser as a fresh connection
// does: the queue goes at once.
func (s *cdpSetup) bootstrap(next func() int64) []ownRequest {
	s.autoAttachID = 0
	var out []ownRequest
	for _, m := range subscriptionMethods {
		sub, ok := s.subscribed[m]
		if !ok {
			continue
		}
		sh, err := transport.ScanHead(sub)
		if err != nil || !sh.HasID {
			continue
		}
		id := next()
		if sh.Is("Target.setAutoAttach") {
			s.autoAttachID = id
		}
		out = append(out, ownRequest{id: id, msg: sh.WithID(nil, sub, id)})
	}
	return out
}

// bootstrapAnswer: a refused replay of the client's auto-attach fails the
// recovery (the client would miss every target); another refused
// subscription is logged.
func (s *cdpSetup) bootstrapAnswer(h *transport.Head, msg []byte, _ func() int64) ([]ownRequest, error) {
	if !h.HasError {
		return nil, nil
	}
	if h.ID == s.autoAttachID {
		return nil, fmt.Errorf("the browser refused the client's auto-attach again: %s", truncate(msg, 200))
	}
	s.log.Warn().Str("answer", string(truncate(msg, 200))).Msg("a replayed subscription failed")
	return nil, nil
}
