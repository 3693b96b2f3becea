package relay

import "github.com/cdpvisor/cdpvisor/transport"

// worldRule is what a world relay does with a client request, by method.
// Chromium takes these on any session, a page's included (there
// Target.createTarget and Storage.getCookies without a context mean the
// default context, and Browser.close closes the browser), so the rule is
// the method's wherever it is sent.
type worldRule uint8

const (
	worldPasses          worldRule = iota // not the wall's business
	worldListsTargets                     // Target.getTargets: the answer lists the world's targets only
	worldListsContexts                    // Target.getBrowserContexts: the contexts its clients made; the world's own is the default
	worldMakesContext                     // Target.createBrowserContext: the new context is the world's
	worldDisposesContext                  // Target.disposeBrowserContext: only a context its clients made
	worldCreatesTarget                    // Target.createTarget: in the world's context unless one of its own is named
	worldNamesTarget                      // a request naming a target (targetId): only the world's
	worldNamesContext                     // a request taking a browserContextId: the world's unless one of its own is named
	worldClosesBrowser                    // Browser.close: the world's pages close, the browser stays
	worldBrowserWide                      // Extensions.loadUnpacked, uninstall: the whole browser's, refused
	worldRawChannel                       // a channel to the browser the wall does not see: refused
	worldLoadsURL                         // Page.navigate, Network.loadNetworkResource: a guarded world's URL doors
	worldGoesBack                         // Page.navigateToHistoryEntry: the entry's URL, judged as a navigation's
	worldHandsFiles                       // DOM.setFileInputFiles, Input.dispatchDragEvent: a guarded world's file doors
	worldSavesFiles                       // Page.setDownloadBehavior: a guarded world's downloads stay in its folders
	worldReadsMachine                     // the browser's command line, the machine's processes: refused in a guarded world
)

var worldRules = map[string]worldRule{
	"Target.getTargets":            worldListsTargets,
	"Target.getBrowserContexts":    worldListsContexts,
	"Target.createBrowserContext":  worldMakesContext,
	"Target.disposeBrowserContext": worldDisposesContext,
	"Target.createTarget":          worldCreatesTarget,
	"Target.attachToTarget":        worldNamesTarget,
	"Target.activateTarget":        worldNamesTarget,
	"Target.closeTarget":           worldNamesTarget,
	"Target.getTargetInfo":         worldNamesTarget,
	"Target.autoAttachRelated":     worldNamesTarget,
	"Target.detachFromTarget":      worldNamesTarget,
	"Browser.getWindowForTarget":   worldNamesTarget,
	"Storage.getCookies":           worldNamesContext,
	"Storage.setCookies":           worldNamesContext,
	"Storage.clearCookies":         worldNamesContext,
	"Browser.setDownloadBehavior":  worldNamesContext,
	"Browser.cancelDownload":       worldNamesContext,
	"Browser.grantPermissions":     worldNamesContext,
	"Browser.resetPermissions":     worldNamesContext,
	"Browser.setPermission":        worldNamesContext,
	"Browser.close":                worldClosesBrowser,
	// An extension is the whole browser's: its service worker lives outside
	// every world's context.
	"Extensions.loadUnpacked":       worldBrowserWide,
	"Extensions.uninstall":          worldBrowserWide,
	"Extensions.getStorageItems":    worldBrowserWide,
	"Extensions.setStorageItems":    worldBrowserWide,
	"Extensions.removeStorageItems": worldBrowserWide,
	"Extensions.clearStorageItems":  worldBrowserWide,
	// Channels the wall does not see: a page given the raw protocol
	// (chromedriver's BiDi mapper) sends its commands straight to the
	// browser, its new tabs in the default context; the messages inside
	// sendMessageToTarget and the DevTools window's are not the relay's;
	// Tethering opens a port of the machine.
	"Target.exposeDevToolsProtocol": worldRawChannel,
	"Target.sendMessageToTarget":    worldRawChannel,
	"Target.openDevTools":           worldRawChannel,
	"Tethering.bind":                worldRawChannel,
	// A guarded world's doors to the machine (world_doors.go); a world
	// without a guard lets them pass.
	"Page.navigate":               worldLoadsURL,
	"Network.loadNetworkResource": worldLoadsURL,
	"Fetch.continueRequest":       worldLoadsURL, // its url, when given, is where the request goes
	"Page.navigateToHistoryEntry": worldGoesBack,
	"DOM.setFileInputFiles":       worldHandsFiles,
	"Input.dispatchDragEvent":     worldHandsFiles,
	"Page.setDownloadBehavior":    worldSavesFiles,
	// What chrome://version shows: the command line, the profile's path.
	"Browser.getBrowserCommandLine": worldReadsMachine,
	"SystemInfo.getInfo":            worldReadsMachine,
	"SystemInfo.getProcessInfo":     worldReadsMachine,
}

// worldRuleOf is the rule of a client request; a message that is not a
// request passes. It reads only the head: the fast path calls it.
func worldRuleOf(h *transport.Head) worldRule {
	if !h.HasID {
		return worldPasses
	}
	return worldRules[string(h.Method)] // no allocation: the compiler looks up bytes as a string
}

// guardedOnly says the rule is a guarded world's door alone: a world
// without a guard lets such a request pass (world_doors.go).
func (r worldRule) guardedOnly() bool {
	switch r {
	case worldLoadsURL, worldGoesBack, worldHandsFiles, worldSavesFiles, worldReadsMachine:
		return true
	}
	return false
}

// isWorldTargetEvent says a browser event tells of a target or session,
// which the wall shows only when it is the world's.
func isWorldTargetEvent(h *transport.Head) bool {
	if h.HasID {
		return false
	}
	switch string(h.Method) {
	case "Target.targetCreated", "Target.targetInfoChanged", "Target.targetDestroyed", "Target.targetCrashed",
		"Target.attachedToTarget", "Target.detachedFromTarget", "Target.receivedMessageFromTarget":
		return true
	}
	return false
}
