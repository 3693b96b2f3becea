// Package storagestate is Playwright's storage state, the exchange format
// of a world's sign-ins: the file context.storageState() writes and
// newContext({storageState}) and @playwright/mcp --storage-state read.
// It parses one strictly (a file of another format is refused, never half
// taken), converts its cookies to and from CDP's, and merges and filters
// states by origin.
package storagestate

import "net/url"

// State is a storage state: cookies, and each origin's localStorage.
type State struct {
	Cookies []Cookie `json:"cookies"`
	Origins []Origin `json:"origins"`
}

// Cookie is a cookie as Playwright writes it. Expires is seconds since the
// epoch, -1 for a session cookie.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"`
	// PartitionKey is the top-level site of a partitioned (CHIPS) cookie.
	PartitionKey string `json:"partitionKey,omitempty"`
	// CrossSiteAncestor is Chromium's hasCrossSiteAncestor of a
	// partitioned cookie (Playwright's _crHasCrossSiteAncestor).
	CrossSiteAncestor *bool `json:"_crHasCrossSiteAncestor,omitempty"`
}

// Origin is one origin's localStorage.
type Origin struct {
	Origin       string `json:"origin"`
	LocalStorage []Item `json:"localStorage"`
}

// Item is one localStorage entry.
type Item struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Empty says the state holds nothing.
func (s State) Empty() bool { return len(s.Cookies) == 0 && len(s.Origins) == 0 }

// Counts is what a state holds, for logs and answers (never its values).
func (s State) Counts() (cookies, origins int) { return len(s.Cookies), len(s.Origins) }

// URLOrigin is the origin of a page's URL; an error for a URL that is not
// http or https.
func URLOrigin(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	return CanonicalOrigin(u.Scheme + "://" + u.Host)
}
