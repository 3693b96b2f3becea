package main

import (
	"net/url"
	"slices"
)

// cookie is a stored cookie: the fields Chromium's Storage.getCookies
// answers that tests look at.
type cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	Size     int     `json:"size"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	Session  bool    `json:"session"`
}

// cookieParam is Storage.setCookies' CookieParam, as far as the fake goes.
type cookieParam struct {
	Name     string   `json:"name"`
	Value    string   `json:"value"`
	URL      string   `json:"url"`
	Domain   string   `json:"domain"`
	Path     string   `json:"path"`
	Expires  *float64 `json:"expires"`
	HTTPOnly bool     `json:"httpOnly"`
	Secure   bool     `json:"secure"`
}

type contextParams struct {
	BrowserContextID string `json:"browserContextId"`
}

// cookieContext finds the context a Storage command names, answering
// Chromium's error when it names none the browser has. No context: the
// default one, as in Chromium (on a page's session too). b.mu is held.
func (b *browser) cookieContext(c *conn, req *request, id string) (string, bool) {
	if id == "" {
		return b.defaultContext, true
	}
	if id != b.defaultContext && !slices.Contains(b.contexts, id) {
		c.fail(req, -32602, "Failed to find browser context for id %s", id)
		return "", false
	}
	return id, true
}

func (b *browser) getCookies(c *conn, req *request) {
	var p contextParams
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.cookieContext(c, req, p.BrowserContextID)
	if !ok {
		return
	}
	c.reply(req, cookiesResult{b.jar(id)})
}

type cookiesResult struct {
	Cookies []cookie `json:"cookies"`
}

func (b *browser) jar(context string) []cookie {
	out := []cookie{}
	out = append(out, b.cookies[context]...)
	return out
}

func (b *browser) setCookies(c *conn, req *request) {
	var p struct {
		BrowserContextID string        `json:"browserContextId"`
		Cookies          []cookieParam `json:"cookies"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.cookieContext(c, req, p.BrowserContextID)
	if !ok {
		return
	}
	for _, cp := range p.Cookies {
		ck := cookie{Name: cp.Name, Value: cp.Value, Domain: cp.Domain, Path: cp.Path, HTTPOnly: cp.HTTPOnly, Secure: cp.Secure,
			Expires: -1, Session: true, Size: len(cp.Name) + len(cp.Value)}
		if u, err := url.Parse(cp.URL); err == nil && cp.URL != "" {
			ck.Domain = u.Hostname()
			if ck.Path == "" {
				ck.Path = "/"
			}
		}
		if cp.Expires != nil && *cp.Expires > 0 {
			ck.Expires, ck.Session = *cp.Expires, false
		}
		jar := slices.DeleteFunc(b.cookies[id], func(o cookie) bool {
			return o.Name == ck.Name && o.Domain == ck.Domain && o.Path == ck.Path
		})
		b.cookies[id] = append(jar, ck)
	}
	c.reply(req, empty{})
}

func (b *browser) clearCookies(c *conn, req *request) {
	var p contextParams
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.cookieContext(c, req, p.BrowserContextID)
	if !ok {
		return
	}
	delete(b.cookies, id)
	c.reply(req, empty{})
}

// sessionCookies answers Network.getAllCookies on a page's session: the
// cookies of the page's context.
func (b *browser) sessionCookies(c *conn, req *request, t *target) {
	b.mu.Lock()
	jar := b.jar(t.contextID)
	b.mu.Unlock()
	c.reply(req, cookiesResult{jar})
}

// getTargetInfo with no targetId answers the browser target, as Chromium
// does on a browser-level connection or browser session.
func (b *browser) getTargetInfo(c *conn, req *request) {
	var p targetIDParams
	if !c.decodeParams(req, &p) {
		return
	}
	if p.TargetID == "" {
		c.reply(req, targetInfoParams{b.browserInfo()})
		return
	}
	t := b.requestedTarget(c, req)
	if t == nil {
		return
	}
	b.mu.Lock()
	info := b.info(t)
	b.mu.Unlock()
	c.reply(req, targetInfoParams{info})
}
