package proxy

import (
	"net/http"
	"strings"
)

// Mount is a feature's HTTP surface on the endpoint (the live view, the
// metrics, the runtime's profiles): the proxy checks the Host and the
// token, then hands the mount the requests for its path. The proxy names
// no feature; the coordinator gives it their mounts.
type Mount struct {
	// Path is the path served; with Under, every path below it too.
	Path  string
	Under bool
	// Public, when set, says a path of the mount is served without the
	// token (the live view's static files, which its page asks for
	// without it). The Host is checked all the same.
	Public  func(path string) bool
	Handler http.Handler
}

// serves says the mount takes path.
func (m Mount) serves(path string) bool {
	return path == m.Path || (m.Under && strings.HasPrefix(path, strings.TrimSuffix(m.Path, "/")+"/"))
}

// mountFor is the mount that takes path; public asks for one that serves
// it without the token.
func (p *Actor) mountFor(path string, public bool) (Mount, bool) {
	for _, m := range p.spec.Mounts {
		if m.serves(path) && (!public || (m.Public != nil && m.Public(path))) {
			return m, true
		}
	}
	return Mount{}, false
}
