package main

import (
	"os"
	"slices"
	"time"
)

// browserMethods are the commands a browser-level connection understands;
// anything else is "wasn't found", as in Chromium.
var browserMethods = map[string]func(*browser, *conn, *request){
	"Browser.getVersion":           (*browser).getVersion,
	"Browser.close":                (*browser).closeBrowser,
	"Browser.setDownloadBehavior":  (*browser).accept,
	"Browser.grantPermissions":     (*browser).accept,
	"Browser.resetPermissions":     (*browser).accept,
	"Browser.setPermission":        (*browser).accept,
	"Target.setDiscoverTargets":    (*browser).setDiscoverTargets,
	"Target.setAutoAttach":         (*browser).setAutoAttach,
	"Target.getTargets":            (*browser).getTargets,
	"Target.createTarget":          (*browser).createTarget,
	"Target.attachToTarget":        (*browser).attachToTarget,
	"Target.attachToBrowserTarget": (*browser).attachToBrowserTarget,
	"Target.detachFromTarget":      (*browser).detachFromTarget,
	"Target.activateTarget":        (*browser).activateTarget,
	"Target.closeTarget":           (*browser).closeTarget,
	"Target.createBrowserContext":  (*browser).createBrowserContext,
	"Target.disposeBrowserContext": (*browser).disposeBrowserContext,
	"Target.getBrowserContexts":    (*browser).getBrowserContexts,
	"Target.setRemoteLocations":    (*browser).accept,
	"Target.getTargetInfo":         (*browser).getTargetInfo,
	"Storage.getCookies":           (*browser).getCookies,
	"Storage.setCookies":           (*browser).setCookies,
	"Storage.clearCookies":         (*browser).clearCookies,
}

const (
	product   = "FakeChrome/156.0.0.0"
	userAgent = "Mozilla/5.0 FakeChrome"
	v8Version = "15.6"
)

var version = struct {
	ProtocolVersion string `json:"protocolVersion"`
	Product         string `json:"product"`
	Revision        string `json:"revision"`
	UserAgent       string `json:"userAgent"`
	JSVersion       string `json:"jsVersion"`
}{"1.3", product, "@0", userAgent, v8Version}

const errNoTarget = "No target with given id found"

func (b *browser) getVersion(c *conn, req *request) { c.reply(req, version) }

func (b *browser) accept(c *conn, req *request) { c.reply(req, empty{}) }

// closeBrowser answers, then exits 0 like Chromium after Browser.close.
func (b *browser) closeBrowser(c *conn, req *request) {
	c.reply(req, empty{})
	b.exit(0)
}

func (b *browser) setDiscoverTargets(c *conn, req *request) {
	var p struct {
		Discover bool `json:"discover"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	if p.Discover && !c.discover {
		for _, t := range b.targets {
			c.event("Target.targetCreated", targetInfoParams{b.info(t)})
		}
	}
	c.discover = p.Discover
	b.mu.Unlock()
	c.reply(req, empty{})
}

// setAutoAttach attaches to every target not yet attached on c, sending the
// events before the answer as Chromium does (browser_ui targets included).
func (b *browser) setAutoAttach(c *conn, req *request) {
	var p struct {
		AutoAttach             bool `json:"autoAttach"`
		WaitForDebuggerOnStart bool `json:"waitForDebuggerOnStart"`
		Flatten                bool `json:"flatten"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	if b.opts.autoAttachFail || b.failAutoAttachOnce() {
		c.fail(req, -32000, "fake auto-attach failure")
		return
	}
	if p.AutoAttach && !p.Flatten {
		c.fail(req, -32602, "Only flatten protocol is supported with browser level auto-attach")
		return
	}
	b.mu.Lock()
	c.autoAttach, c.waitForDebugger = p.AutoAttach, p.WaitForDebuggerOnStart
	if p.AutoAttach {
		for _, t := range b.targets {
			if !c.hasSessionOn(t) {
				b.attach(c, t, false)
			}
		}
	}
	b.mu.Unlock()
	c.reply(req, empty{})
}

func (b *browser) getTargets(c *conn, req *request) {
	b.mu.Lock()
	infos := b.infos()
	b.mu.Unlock()
	c.reply(req, struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}{infos})
}

func (b *browser) createTarget(c *conn, req *request) {
	var p struct {
		URL              string `json:"url"`
		BrowserContextID string `json:"browserContextId"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	contextID := b.defaultContext
	if p.BrowserContextID != "" {
		if !slices.Contains(b.contexts, p.BrowserContextID) {
			b.mu.Unlock()
			c.fail(req, -32000, "Failed to find browser context with id %s", p.BrowserContextID)
			return
		}
		contextID = p.BrowserContextID
	}
	t := b.addTarget(p.URL, contextID)
	b.mu.Unlock()
	c.reply(req, targetIDParams{t.id})
}

func (b *browser) attachToTarget(c *conn, req *request) {
	var p targetIDParams
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	t := b.findTarget(p.TargetID)
	if t == nil {
		b.mu.Unlock()
		c.fail(req, -32602, errNoTarget)
		return
	}
	sessionID := b.attach(c, t, false)
	b.mu.Unlock()
	c.reply(req, struct {
		SessionID string `json:"sessionId"`
	}{sessionID})
}

func (b *browser) detachFromTarget(c *conn, req *request) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	switch {
	case c.sessions[p.SessionID] != nil:
		b.detach(c, p.SessionID)
	case c.browserSessions[p.SessionID] != nil:
		b.detachBrowserSession(c, p.SessionID)
	default:
		b.mu.Unlock()
		c.fail(req, -32602, "No session with given id")
		return
	}
	b.mu.Unlock()
	c.reply(req, empty{})
}

func (b *browser) activateTarget(c *conn, req *request) {
	if b.requestedTarget(c, req) != nil {
		c.reply(req, empty{})
	}
}

// requestedTarget finds the target a request names, answering the request
// with Chromium's error when there is none.
func (b *browser) requestedTarget(c *conn, req *request) *target {
	var p targetIDParams
	if !c.decodeParams(req, &p) {
		return nil
	}
	b.mu.Lock()
	t := b.findTarget(p.TargetID)
	b.mu.Unlock()
	if t == nil {
		c.fail(req, -32602, errNoTarget)
	}
	return t
}

// closeTarget answers first and closes afterwards: in Chromium the close
// itself is asynchronous (--fake-close-delay draws it out).
func (b *browser) closeTarget(c *conn, req *request) {
	t := b.requestedTarget(c, req)
	if t == nil {
		return
	}
	c.reply(req, struct {
		Success bool `json:"success"`
	}{true})
	remove := func() {
		b.mu.Lock()
		b.removeTarget(t)
		b.mu.Unlock()
	}
	if b.opts.closeDelay > 0 {
		time.AfterFunc(b.opts.closeDelay, remove)
		return
	}
	remove()
}

// createBrowserContext makes a context; with disposeOnDetach it goes when
// the connection or browser session that made it does.
func (b *browser) createBrowserContext(c *conn, req *request) {
	var p struct {
		DisposeOnDetach bool `json:"disposeOnDetach"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	id := newID()
	b.contexts = append(b.contexts, id)
	if p.DisposeOnDetach {
		c.ownContexts = append(c.ownContexts, id)
	}
	b.mu.Unlock()
	c.reply(req, struct {
		BrowserContextID string `json:"browserContextId"`
	}{id})
}

func (b *browser) disposeBrowserContext(c *conn, req *request) {
	var p struct {
		BrowserContextID string `json:"browserContextId"`
	}
	if !c.decodeParams(req, &p) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.disposeContext(p.BrowserContextID) {
		c.fail(req, -32000, "Failed to find context with id %s", p.BrowserContextID)
		return
	}
	c.reply(req, empty{})
}

// disposeContext forgets a context, its cookies and its targets. It reports
// whether there was such a context. b.mu is held.
func (b *browser) disposeContext(id string) bool {
	i := slices.Index(b.contexts, id)
	if i < 0 {
		return false
	}
	b.contexts = slices.Delete(b.contexts, i, i+1)
	delete(b.cookies, id)
	for _, t := range slices.Clone(b.targets) {
		if t.contextID == id {
			b.removeTarget(t)
		}
	}
	return true
}

func (b *browser) getBrowserContexts(c *conn, req *request) {
	b.mu.Lock()
	ids := append([]string{}, b.contexts...)
	b.mu.Unlock()
	c.reply(req, struct {
		BrowserContextIDs       []string `json:"browserContextIds"`
		DefaultBrowserContextID string   `json:"defaultBrowserContextId"`
	}{ids, b.defaultContext})
}

// failAutoAttachOnce fails auto-attach in the first fake process of a test
// (the marker file does not exist yet) and never after.
func (b *browser) failAutoAttachOnce() bool {
	if b.opts.autoAttachFailAt == "" {
		return false
	}
	f, err := os.OpenFile(b.opts.autoAttachFailAt, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
