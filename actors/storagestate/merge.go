package storagestate

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// cookieKey is what makes a cookie another one (RFC 6265, and the
// partition of a CHIPS cookie).
type cookieKey struct{ name, domain, path, partition string }

func (c Cookie) key() cookieKey { return cookieKey{c.Name, c.Domain, c.Path, c.PartitionKey} }

// Merge is base with over laid on it: over's cookies replace base's of the
// same name, domain and path; over's localStorage keys replace base's of
// the same origin and name; the rest of both stays. Neither is changed.
func Merge(base, over State) State {
	cookies := map[cookieKey]Cookie{}
	for _, c := range base.Cookies {
		cookies[c.key()] = c
	}
	for _, c := range over.Cookies {
		cookies[c.key()] = c
	}
	origins := map[string]map[string]string{}
	for _, s := range []State{base, over} {
		for _, o := range s.Origins {
			items := origins[o.Origin]
			if items == nil {
				items = map[string]string{}
				origins[o.Origin] = items
			}
			for _, it := range o.LocalStorage {
				items[it.Name] = it.Value
			}
		}
	}
	out := State{Cookies: make([]Cookie, 0, len(cookies)), Origins: make([]Origin, 0, len(origins))}
	for _, c := range cookies {
		out.Cookies = append(out.Cookies, c)
	}
	for origin, items := range origins {
		out.Origins = append(out.Origins, OriginOf(origin, items))
	}
	out.Sort()
	return out
}

// OriginOf is an origin's entry from its items.
func OriginOf(origin string, items map[string]string) Origin {
	o := Origin{Origin: origin, LocalStorage: make([]Item, 0, len(items))}
	for name, value := range items {
		o.LocalStorage = append(o.LocalStorage, Item{Name: name, Value: value})
	}
	slices.SortFunc(o.LocalStorage, func(a, b Item) int { return cmp.Compare(a.Name, b.Name) })
	return o
}

// Sort puts cookies and origins in a fixed order, so equal states are
// equal bytes.
func (s State) Sort() {
	slices.SortFunc(s.Cookies, func(a, b Cookie) int {
		return cmp.Or(cmp.Compare(a.Domain, b.Domain), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Name, b.Name), cmp.Compare(a.PartitionKey, b.PartitionKey))
	})
	slices.SortFunc(s.Origins, func(a, b Origin) int { return cmp.Compare(a.Origin, b.Origin) })
}

// ForOrigins keeps of s what belongs to the given origins: the cookies a
// request to one of them would send by domain (RFC 6265 domain-match;
// ports and schemes aside, as cookies do) and those origins' localStorage.
func (s State) ForOrigins(origins []string) State {
	hosts := make([]string, 0, len(origins))
	want := map[string]bool{}
	for _, o := range origins {
		want[o] = true
		if u, err := url.Parse(o); err == nil {
			hosts = append(hosts, strings.ToLower(u.Hostname()))
		}
	}
	out := State{Cookies: []Cookie{}, Origins: []Origin{}}
	for _, c := range s.Cookies {
		if slices.ContainsFunc(hosts, c.MatchesHost) {
			out.Cookies = append(out.Cookies, c)
		}
	}
	for _, o := range s.Origins {
		if want[o.Origin] {
			out.Origins = append(out.Origins, o)
		}
	}
	return out
}

// MatchesHost says a request to host would carry the cookie by its
// domain: a host-only cookie (no leading dot) to its host alone, a domain
// cookie to its domain and every host under it.
func (c Cookie) MatchesHost(host string) bool {
	domain := strings.ToLower(c.Domain)
	if d, ok := strings.CutPrefix(domain, "."); ok {
		return host == d || strings.HasSuffix(host, "."+d)
	}
	return host == domain
}
