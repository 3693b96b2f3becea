package proxy

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// Why a request could not be answered, each answered its own way by
// refuse: the handlers only say what failed.
type (
	// noBrowser: no browser could be had (a failed launch, its backoff,
	// the instance closing): 503.
	noBrowser struct{ err error }
	// scopeDown: the scope could not be opened in the browser: 503.
	scopeDown struct {
		name string
		err  error
	}
	// unknownTarget: a target that is not the scope's, answered as
	// Chromium answers an unknown one.
	unknownTarget struct{ id string }
	// browserFailed: the browser's answer failed, answered with status.
	browserFailed struct {
		status int
		err    error
	}
)

func (e *noBrowser) Error() string     { return e.err.Error() }
func (e *noBrowser) Unwrap() error     { return e.err }
func (e *scopeDown) Error() string     { return "world " + e.name + ": " + e.err.Error() }
func (e *scopeDown) Unwrap() error     { return e.err }
func (e *unknownTarget) Error() string { return "No such target id: " + e.id }
func (e *browserFailed) Error() string { return e.err.Error() }
func (e *browserFailed) Unwrap() error { return e.err }

// refuse answers a request that failed with err.
func (p *Actor) refuse(w http.ResponseWriter, r *http.Request, err error) {
	var (
		none    *noBrowser
		scope   *scopeDown
		unknown *unknownTarget
		failed  *browserFailed
	)
	switch {
	case errors.As(err, &none):
		p.browserUnavailable(w, r, none.err)
	case errors.As(err, &unknown):
		writeChromiumText(w, http.StatusNotFound, unknown.Error())
	case errors.As(err, &scope):
		p.scopeUnavailable(w, r, scope.name, scope.err)
	case errors.As(err, &failed):
		http.Error(w, "cdpvisor: "+remedy.Explain(failed.err, p.spec.Words), failed.status)
	default:
		http.Error(w, "cdpvisor: "+remedy.Explain(err, p.spec.Words), http.StatusBadGateway)
	}
}

// ErrNoRoom is what a scope's room says (SaidOf) when it has as many
// scopes open as it allows and a new one was asked for: 429, with
// Retry-After, the room's words and fixes in the answer.
var ErrNoRoom = errors.New("no room for another scope")

// RetryAfter is the seconds a client refused for want of room is asked to
// wait (TooMany): room comes when another agent is done, so a client that
// waits polls a few times a minute, not in a loop.
const RetryAfter = 5

// TooMany answers 429 Too Many Requests with Retry-After and text.
func TooMany(w http.ResponseWriter, text string) {
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
	http.Error(w, text, http.StatusTooManyRequests)
}
