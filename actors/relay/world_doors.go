package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/transport"
)

// A world's doors out of its wall. Every world refuses a channel to the
// browser the wall does not see (worldRawChannel). A guarded world (one
// with a network policy or an upstream proxy) also touches nothing of the
// machine: the URLs its clients have the browser load, the files they
// hand its pages and where its downloads land are judged by the world
// (World.DoorURL, DoorFile, DoorDownloads); a refusal names its rule and
// is journalled as a denial.

const (
	// errRawChannel: the method, the world.
	errRawChannel = "%s is refused in world %q: it opens a channel to the browser that the world's wall does not see, outside the world (rule: " + ruleRawChannel + "); a client that needs it (chromedriver's BiDi mapper) works on the endpoint without /context/NAME"
	// errDoor: the method, the world, the judge's word.
	errDoor = "%s is refused in world %q: %v (rule: " + ruleDoor + "); open it on the endpoint without /context/NAME, or in a world without allow_hosts, deny_hosts and proxy"
	// errFileDoor: the method, the world, the judge's word.
	errFileDoor = "%s is refused in world %q: %v (rule: " + ruleDoor + "); put the file in the world's uploads folder, or open the world with --allow-file DIR"
)

// errMachine: what the browser tells of the machine (its command line and
// profile, its processes), as chrome://version does.
var errMachine = errors.New("a guarded world reads nothing of the machine through the browser")

// Rules of the journal's denials (ruleDoor is guard.RuleDoors, which the
// relay does not import: the worlds room's).
const (
	ruleRawChannel = "no raw protocol in a world"
	ruleDoor       = "a guarded world touches nothing of the machine"
)

// worldDoors judges a client request at the world's doors before the rest
// of the wall sees it. True: it goes on (perhaps rewritten: a download
// path put in the world's folder); false: the wall answered it or holds it
// for its history entry's URL.
func (run *relayRun) worldDoors(msg *transport.Message, h *transport.Head, rule worldRule) bool {
	w := run.world.w
	if rule == worldRawChannel {
		text := fmt.Sprintf(errRawChannel, h.Method, w.Name())
		if h.Is("Target.exposeDevToolsProtocol") {
			run.worldBindingRefused(msg.B, text)
		}
		run.worldDeny(msg, h, "", ruleRawChannel, text)
		return false
	}
	if !w.Walled() {
		return true
	}
	switch {
	case (rule == worldLoadsURL || rule == worldCreatesTarget) && namesNoURL(msg.B):
		// Nothing to judge, and nothing decoded (Fetch.continueRequest may
		// carry a request's whole body).
	case rule == worldLoadsURL, rule == worldCreatesTarget:
		params, err := readParamMap(msg.B)
		if err != nil {
			run.worldInvalid(msg, h)
			return false
		}
		u, err := stringParam(params, "url")
		if err != nil {
			run.worldInvalid(msg, h)
			return false
		}
		if err := w.DoorURL(deref(u)); err != nil {
			run.worldDeny(msg, h, deref(u), ruleDoor, fmt.Sprintf(errDoor, h.Method, w.Name(), err))
			return false
		}
	case rule == worldReadsMachine:
		run.worldDeny(msg, h, "", ruleDoor, fmt.Sprintf(errDoor, h.Method, w.Name(), errMachine))
		return false
	case rule == worldGoesBack:
		run.worldHistoryLookup(msg, h)
		return false
	case rule == worldHandsFiles:
		return run.worldHandsFiles(msg, h)
	case rule == worldSavesFiles, rule == worldNamesContext && h.Is("Browser.setDownloadBehavior"):
		return run.worldSavesFiles(msg, h)
	}
	return true
}

// worldBindingRefused makes the binding a refused
// Target.exposeDevToolsProtocol would have given the page throw the
// refusal when the page reads it. chromedriver sends its BiDi mapper
// without waiting for the answer; the mapper then fails with the rule's
// words instead of "Cannot read properties of undefined". It is evaluated
// on the client's sessions on that page, before anything the client sends
// after (the browser keeps a session's order).
func (run *relayRun) worldBindingRefused(msg []byte, text string) {
	params, err := readParamMap(msg)
	if err != nil || run.link == nil {
		return
	}
	target, err1 := stringParam(params, "targetId")
	binding, err2 := stringParam(params, "bindingName")
	if target == nil || errors.Join(err1, err2) != nil {
		return
	}
	name := "cdp" // Chromium's default
	if binding != nil && *binding != "" {
		name = *binding
	}
	expr := fmt.Sprintf("Object.defineProperty(globalThis, %s, {configurable: true, get() { throw new Error(%s); }})", jsonString(name), jsonString(text))
	for session, t := range run.world.sessions {
		if t != *target {
			continue
		}
		id := run.internalID()
		run.world.own[id] = worldOwnRequest{} // its answer is the wall's
		q := fmt.Appendf(nil, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":%s},"sessionId":%s}`, id, jsonString(expr), jsonString(session))
		if err := run.link.conn.Write(q, false); err != nil {
			run.browserLost(err)
			return
		}
	}
}

// namesNoURL says msg cannot hold a "url" member: the word is nowhere in
// it, nor a \u escape that could spell it in a key.
func namesNoURL(msg []byte) bool {
	return !bytes.Contains(msg, []byte(`"url"`)) && !bytes.Contains(msg, []byte(`\u`))
}

// worldDeny answers a request the doors refused, with the refusal for the
// stages (the journal's denial).
func (run *relayRun) worldDeny(msg *transport.Message, h *transport.Head, what, rule, text string) {
	run.log.Info().Str("world", run.world.w.Name()).Str("method", string(h.Method)).Str("rule", rule).Msg("a world's client was refused a door out of its wall")
	run.refuseClient(errorAnswer(h.ID, h.SessionID, codeServerError, text), &Refusal{Method: string(h.Method), What: what, Rule: rule})
	msg.Release()
}

// worldHandsFiles lets files reach a page only from the world's folders:
// DOM.setFileInputFiles's files, Input.dispatchDragEvent's data.files.
func (run *relayRun) worldHandsFiles(msg *transport.Message, h *transport.Head) bool {
	params, err := readParamMap(msg.B)
	if err != nil {
		run.worldInvalid(msg, h)
		return false
	}
	if h.Is("Input.dispatchDragEvent") {
		raw, ok := params["data"]
		if !ok || string(raw) == "null" {
			return true
		}
		if err := json.Unmarshal(raw, &params); err != nil {
			run.worldInvalid(msg, h)
			return false
		}
	}
	var files []string
	if raw, ok := params["files"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &files); err != nil {
			run.worldInvalid(msg, h)
			return false
		}
	}
	for _, path := range files {
		if err := run.world.w.DoorFile(path); err != nil {
			run.worldDeny(msg, h, path, ruleDoor, fmt.Sprintf(errFileDoor, h.Method, run.world.w.Name(), err))
			return false
		}
	}
	return true
}

// worldSavesFiles keeps a guarded world's downloads in its folders: a
// client's download path elsewhere (Playwright's artifacts directory, set
// while it connects) becomes the world's own folder, so the client still
// connects and its downloads land where the world's do.
func (run *relayRun) worldSavesFiles(msg *transport.Message, h *transport.Head) bool {
	rewritten, path, err := keptDownloads(run.world.w, msg.B)
	switch {
	case errors.Is(err, errUnreadable):
		run.worldInvalid(msg, h)
		return false
	case err != nil:
		run.worldDeny(msg, h, path, ruleDoor, fmt.Sprintf(errDoor, h.Method, run.world.w.Name(), err))
		return false
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return true
}

// errUnreadable: parameters the wall cannot read.
var errUnreadable = errors.New("parameters the wall cannot read")

// keptDownloads is a setDownloadBehavior of a guarded world's client with
// its download path in the world's folders (msg itself when it is, or
// when nothing lands anywhere: deny, default), and the path it named. A
// replayed subscription goes through it too.
func keptDownloads(w World, msg []byte) ([]byte, string, error) {
	params, err := readParamMap(msg)
	if err != nil {
		return nil, "", errUnreadable
	}
	behavior, err1 := stringParam(params, "behavior")
	path, err2 := stringParam(params, "downloadPath")
	if errors.Join(err1, err2) != nil {
		return nil, "", errUnreadable
	}
	if b := deref(behavior); b != "allow" && b != "allowAndName" {
		return msg, deref(path), nil
	}
	to, err := w.DoorDownloads(deref(path))
	if err != nil {
		return nil, deref(path), err
	}
	if path != nil && to == *path {
		return msg, to, nil
	}
	key := "downloadPath"
	if to == "" {
		key, to = "behavior", "deny" // the world has no folder: nothing lands anywhere
	}
	rewritten, err := withParam(msg, key, to)
	if err != nil {
		return nil, deref(path), errUnreadable
	}
	return rewritten, deref(path), nil
}

// worldHistoryLookup asks the browser for the page's history before
// Page.navigateToHistoryEntry goes on: the entry's URL is judged as a
// navigation's. The client's later messages wait behind it, in order.
func (run *relayRun) worldHistoryLookup(msg *transport.Message, h *transport.Head) {
	f := run.world
	params, err := readParamMap(msg.B)
	var entry int64
	if err == nil {
		raw, ok := params["entryId"]
		if !ok || json.Unmarshal(raw, &entry) != nil {
			err = errors.New("params.entryId")
		}
	}
	if err != nil {
		run.worldInvalid(msg, h)
		return
	}
	f.lookup = &worldLookup{msg: msg, entry: entry, history: true}
	id := run.internalID()
	f.own[id] = worldOwnRequest{history: true}
	q := appendSession(fmt.Appendf(nil, `{"id":%d,"method":"Page.getNavigationHistory"`, id), h.SessionID)
	if err := run.link.conn.Write(q, false); err != nil {
		run.browserLost(err)
	}
}

// worldHistoryLookedUp goes on with the Page.navigateToHistoryEntry that
// waited for the page's history: forwarded when its entry's URL may be
// loaded (or the browser does not know the entry: it answers that
// itself), else refused; then the messages behind it.
func (run *relayRun) worldHistoryLookedUp(failed bool, answer []byte) {
	l, h := run.world.takeLookup()
	if l == nil {
		return
	}
	var res struct {
		Result struct {
			Entries []struct {
				ID  int64  `json:"id"`
				URL string `json:"url"`
			} `json:"entries"`
		} `json:"result"`
	}
	url, known := "", false
	if !failed && json.Unmarshal(answer, &res) == nil {
		for _, e := range res.Result.Entries {
			if e.ID == l.entry {
				url, known = e.URL, true
			}
		}
	}
	if err := run.world.w.DoorURL(url); known && err != nil {
		run.worldDeny(l.msg, h, url, ruleDoor, fmt.Sprintf(errDoor, h.Method, run.world.w.Name(), err))
	} else {
		run.forward(l.msg, h, unwatched)
	}
	run.worldResume()
}
