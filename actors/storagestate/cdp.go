package storagestate

import "encoding/json"

// cdpCookie is the part of CDP's Network.Cookie a storage state keeps.
type cdpCookie struct {
	Name         string  `json:"name"`
	Value        string  `json:"value"`
	Domain       string  `json:"domain"`
	Path         string  `json:"path"`
	Expires      float64 `json:"expires"`
	HTTPOnly     bool    `json:"httpOnly"`
	Secure       bool    `json:"secure"`
	Session      bool    `json:"session"`
	SameSite     string  `json:"sameSite"`
	PartitionKey *struct {
		TopLevelSite         string `json:"topLevelSite"`
		HasCrossSiteAncestor bool   `json:"hasCrossSiteAncestor"`
	} `json:"partitionKey"`
}

// FromCDP turns Storage.getCookies' cookies into a storage state's, as
// Playwright does: a cookie without sameSite is Lax, a session cookie
// expires -1. What is not a cookie is dropped.
func FromCDP(cookies json.RawMessage) []Cookie {
	var in []cdpCookie
	if json.Unmarshal(cookies, &in) != nil {
		return []Cookie{}
	}
	out := make([]Cookie, 0, len(in))
	for _, c := range in {
		if c.Domain == "" || (c.PartitionKey != nil && c.PartitionKey.TopLevelSite == "") {
			continue // not a cookie, or one of an opaque partition nobody can set again
		}
		pc := Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: c.Expires, HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
		if pc.SameSite == "" {
			pc.SameSite = "Lax"
		}
		if c.Session || pc.Expires < 0 {
			pc.Expires = -1
		}
		if c.PartitionKey != nil {
			b := c.PartitionKey.HasCrossSiteAncestor
			pc.PartitionKey, pc.CrossSiteAncestor = c.PartitionKey.TopLevelSite, &b
		}
		out = append(out, pc)
	}
	return out
}

// CDP is the cookie as Storage.setCookies takes it: a session cookie has
// no expires (else it would be set as expired in 1970).
func (c Cookie) CDP() map[string]any {
	out := map[string]any{
		"name": c.Name, "value": c.Value, "domain": c.Domain, "path": c.Path,
		"httpOnly": c.HTTPOnly, "secure": c.Secure, "sameSite": c.SameSite,
	}
	if c.Expires >= 0 {
		out["expires"] = c.Expires
	}
	if c.PartitionKey != "" {
		cross := true // Playwright's default for a partitioned cookie
		if c.CrossSiteAncestor != nil {
			cross = *c.CrossSiteAncestor
		}
		out["partitionKey"] = map[string]any{"topLevelSite": c.PartitionKey, "hasCrossSiteAncestor": cross}
	}
	return out
}

// CDPCookies is the state's cookies for Storage.setCookies.
func (s State) CDPCookies() []map[string]any {
	out := make([]map[string]any, 0, len(s.Cookies))
	for _, c := range s.Cookies {
		out = append(out, c.CDP())
	}
	return out
}
