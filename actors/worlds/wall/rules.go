package wall

import "github.com/cdpvisor/cdpvisor/transport"

// rule is what the wall does with a client request, by method.
// Chromium takes these on any session, a page's included (there
// Target.createTarget and Storage.getCookies without a context mean the
// default context, and Browser.close closes the browser), so the rule is
// the method's wherever it is sent.
type rule uint8

const (
	passes          rule = iota // not the wall's business
	listsTargets                // Target.getTargets: the answer lists the world's targets only
	listsContexts               // Target.getBrowserContexts: the contexts its clients made; the world's own is the default
	makesContext                // Target.createBrowserContext: the new context is the world's
	disposesContext             // Target.disposeBrowserContext: only a context its clients made
	createsTarget               // Target.createTarget: in the world's context unless one of its own is named
	namesTarget                 // a request naming a target (targetId): only the world's
	namesContext                // a request taking a browserContextId: the world's unless one of its own is named
	closesBrowser               // Browser.close: the world's pages close, the browser stays
	browserWide                 // Extensions.loadUnpacked, uninstall: the whole browser's, refused
	rawChannel                  // a channel to the browser the wall does not see: refused
	loadsURL                    // Page.navigate, Network.loadNetworkResource: a guarded world's URL doors
	goesBack                    // Page.navigateToHistoryEntry: the entry's URL, judged as a navigation's
	handsFiles                  // DOM.setFileInputFiles, Input.dispatchDragEvent: a guarded world's file doors
	savesFiles                  // Page.setDownloadBehavior: a guarded world's downloads stay in its folders
	readsMachine                // the browser's command line, the machine's processes: refused in a guarded world
)

var rules = map[string]rule{
	"Target.getTargets":            listsTargets,
	"Target.getBrowserContexts":    listsContexts,
	"Target.createBrowserContext":  makesContext,
	"Target.disposeBrowserContext": disposesContext,
	"Target.createTarget":          createsTarget,
	"Target.attachToTarget":        namesTarget,
	"Target.activateTarget":        namesTarget,
	"Target.closeTarget":           namesTarget,
	"Target.getTargetInfo":         namesTarget,
	"Target.autoAttachRelated":     namesTarget,
	"Target.detachFromTarget":      namesTarget,
	"Browser.getWindowForTarget":   namesTarget,
	"Storage.getCookies":           namesContext,
	"Storage.setCookies":           namesContext,
	"Storage.clearCookies":         namesContext,
	"Browser.setDownloadBehavior":  namesContext,
	"Browser.cancelDownload":       namesContext,
	"Browser.grantPermissions":     namesContext,
	"Browser.resetPermissions":     namesContext,
	"Browser.setPermission":        namesContext,
	"Browser.close":                closesBrowser,
	// An extension is the whole browser's: its service worker lives outside
	// every world's context.
	"Extensions.loadUnpacked":       browserWide,
	"Extensions.uninstall":          browserWide,
	"Extensions.getStorageItems":    browserWide,
	"Extensions.setStorageItems":    browserWide,
	"Extensions.removeStorageItems": browserWide,
	"Extensions.clearStorageItems":  browserWide,
	// Channels the wall does not see: a page given the raw protocol
	// (chromedriver's BiDi mapper) sends its commands straight to the
	// browser, its new tabs in the default context; the messages inside
	// sendMessageToTarget and the DevTools window's are not the relay's;
	// Tethering opens a port of the machine.
	"Target.exposeDevToolsProtocol": rawChannel,
	"Target.sendMessageToTarget":    rawChannel,
	"Target.openDevTools":           rawChannel,
	"Tethering.bind":                rawChannel,
	// A guarded world's doors to the machine (doors.go); a world
	// without a guard lets them pass.
	"Page.navigate":               loadsURL,
	"Network.loadNetworkResource": loadsURL,
	"Fetch.continueRequest":       loadsURL, // its url, when given, is where the request goes
	"Page.navigateToHistoryEntry": goesBack,
	"DOM.setFileInputFiles":       handsFiles,
	"Input.dispatchDragEvent":     handsFiles,
	"Page.setDownloadBehavior":    savesFiles,
	// What chrome://version shows: the command line, the profile's path.
	"Browser.getBrowserCommandLine": readsMachine,
	"SystemInfo.getInfo":            readsMachine,
	"SystemInfo.getProcessInfo":     readsMachine,
}

// ruleOf is the rule of a client request; a message that is not a
// request passes. It reads only the head: the fast path calls it.
func ruleOf(h *transport.Head) rule {
	if !h.HasID {
		return passes
	}
	return rules[string(h.Method)] // no allocation: the compiler looks up bytes as a string
}

// guardedOnly says the rule is a guarded world's door alone: a world
// without a guard lets such a request pass (doors.go).
func (r rule) guardedOnly() bool {
	switch r {
	case loadsURL, goesBack, handsFiles, savesFiles, readsMachine:
		return true
	}
	return false
}

// isTargetEvent says a browser event tells of a target or session,
// which the wall shows only when it is the world's.
func isTargetEvent(h *transport.Head) bool {
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
