package proxy

import (
	"errors"
	"net/http"

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
