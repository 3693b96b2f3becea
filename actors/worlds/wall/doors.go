package wall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A world's doors out of its wall. Every world refuses a channel to the
// browser the wall does not see (rawChannel). A guarded world (one
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

// Rules of the journal's denials.
const (
	ruleRawChannel = "no raw protocol in a world"
	ruleDoor       = guard.RuleDoors
)

// doors judges a client request at the world's doors before the rest of
// the wall sees it. Pass: it goes on (perhaps rewritten: a download path
// put in the world's folder); else the wall answered it, or holds it for
// its history entry's URL.
func (f *Wall) doors(l *relay.Line, msg *transport.Message, h *transport.Head, r rule) relay.Verdict {
	w := f.w
	if r == rawChannel {
		text := fmt.Sprintf(errRawChannel, h.Method, w.Name())
		if h.Is("Target.exposeDevToolsProtocol") {
			f.bindingRefused(l, msg.B, text)
		}
		return f.deny(l, h, "", ruleRawChannel, text)
	}
	if !w.Walled() {
		return relay.Pass
	}
	switch {
	case (r == loadsURL || r == createsTarget) && namesNoURL(msg.B):
		// Nothing to judge, and nothing decoded (Fetch.continueRequest may
		// carry a request's whole body).
	case r == loadsURL, r == createsTarget:
		params, err := readParamMap(msg.B)
		if err != nil {
			return f.invalid(l, h)
		}
		u, err := stringParam(params, "url")
		if err != nil {
			return f.invalid(l, h)
		}
		if err := w.DoorURL(deref(u)); err != nil {
			return f.deny(l, h, deref(u), ruleDoor, fmt.Sprintf(errDoor, h.Method, w.Name(), err))
		}
	case r == readsMachine:
		return f.deny(l, h, "", ruleDoor, fmt.Sprintf(errDoor, h.Method, w.Name(), errMachine))
	case r == goesBack:
		return f.lookUpHistory(l, msg, h)
	case r == handsFiles:
		return f.judgeFiles(l, msg, h)
	case r == savesFiles, r == namesContext && h.Is("Browser.setDownloadBehavior"):
		return f.keepDownloads(l, msg, h)
	}
	return relay.Pass
}

// bindingRefused makes the binding a refused
// Target.exposeDevToolsProtocol would have given the page throw the
// refusal when the page reads it. chromedriver sends its BiDi mapper
// without waiting for the answer; the mapper then fails with the rule's
// words instead of "Cannot read properties of undefined". It is evaluated
// on the client's sessions on that page, before anything the client sends
// after (the browser keeps a session's order).
func (f *Wall) bindingRefused(l *relay.Line, msg []byte, text string) {
	params, err := readParamMap(msg)
	if err != nil {
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
	for session, t := range f.sessions {
		if t != *target {
			continue
		}
		asked := l.Ask(func(id int64) []byte { // its answer is the wall's
			return fmt.Appendf(nil, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":%s},"sessionId":%s}`, id, jsonString(expr), jsonString(session))
		}, nil)
		if !asked {
			return
		}
	}
}

// namesNoURL says msg cannot hold a "url" member: the word is nowhere in
// it, nor a \u escape that could spell it in a key.
func namesNoURL(msg []byte) bool {
	return !bytes.Contains(msg, []byte(`"url"`)) && !bytes.Contains(msg, []byte(`\u`))
}

// deny answers a request the doors refused, with the refusal for the
// stages (the journal's denial).
func (f *Wall) deny(l *relay.Line, h *transport.Head, what, rule, text string) relay.Verdict {
	l.Log().Info().Str("world", f.w.Name()).Str("method", string(h.Method)).Str("rule", rule).Msg("a world's client was refused a door out of its wall")
	l.Answer(errorAnswer(h.ID, h.SessionID, codeServerError, text), &relay.Refusal{Method: string(h.Method), What: what, Rule: rule})
	return relay.Answer
}

// judgeFiles lets files reach a page only from the world's folders:
// DOM.setFileInputFiles's files, Input.dispatchDragEvent's data.files.
func (f *Wall) judgeFiles(l *relay.Line, msg *transport.Message, h *transport.Head) relay.Verdict {
	params, err := readParamMap(msg.B)
	if err != nil {
		return f.invalid(l, h)
	}
	if h.Is("Input.dispatchDragEvent") {
		raw, ok := params["data"]
		if !ok || string(raw) == "null" {
			return relay.Pass
		}
		if err := json.Unmarshal(raw, &params); err != nil {
			return f.invalid(l, h)
		}
	}
	var files []string
	if raw, ok := params["files"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &files); err != nil {
			return f.invalid(l, h)
		}
	}
	for _, path := range files {
		if err := f.w.DoorFile(path); err != nil {
			return f.deny(l, h, path, ruleDoor, fmt.Sprintf(errFileDoor, h.Method, f.w.Name(), err))
		}
	}
	return relay.Pass
}

// keepDownloads keeps a guarded world's downloads in its folders: a
// client's download path elsewhere (Playwright's artifacts directory, set
// while it connects) becomes the world's own folder, so the client still
// connects and its downloads land where the world's do.
func (f *Wall) keepDownloads(l *relay.Line, msg *transport.Message, h *transport.Head) relay.Verdict {
	rewritten, path, err := keptDownloads(f.w, msg.B)
	switch {
	case errors.Is(err, errUnreadable):
		return f.invalid(l, h)
	case err != nil:
		return f.deny(l, h, path, ruleDoor, fmt.Sprintf(errDoor, h.Method, f.w.Name(), err))
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return relay.Pass
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

// lookUpHistory asks the browser for the page's history before
// Page.navigateToHistoryEntry goes on: the entry's URL is judged as a
// navigation's.
func (f *Wall) lookUpHistory(l *relay.Line, msg *transport.Message, h *transport.Head) relay.Verdict {
	params, err := readParamMap(msg.B)
	var entry int64
	if err == nil {
		raw, ok := params["entryId"]
		if !ok || json.Unmarshal(raw, &entry) != nil {
			err = errors.New("params.entryId")
		}
	}
	if err != nil {
		return f.invalid(l, h)
	}
	session := bytes.Clone(h.SessionID)
	q := func(id int64) []byte {
		return transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"method":"Page.getNavigationHistory"`, id), session)
	}
	return f.ask(l, &lookup{msg: msg, entry: entry, history: true}, q, f.historyLookedUp)
}

// historyLookedUp goes on with the Page.navigateToHistoryEntry that
// waited for the page's history: sent on when its entry's URL may be
// loaded (or the browser does not know the entry: it answers that
// itself), else refused; then the messages behind it.
func (f *Wall) historyLookedUp(l *relay.Line, answer *relay.Frame) {
	lk, h := f.take()
	if lk == nil {
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
	if !answer.Head.HasError && json.Unmarshal(answer.Msg.B, &res) == nil {
		for _, e := range res.Result.Entries {
			if e.ID == lk.entry {
				url, known = e.URL, true
			}
		}
	}
	if err := f.w.DoorURL(url); known && err != nil {
		f.deny(l, h, url, ruleDoor, fmt.Sprintf(errDoor, h.Method, f.w.Name(), err))
		lk.msg.Release()
	} else {
		l.Send(relay.ToBrowser, lk.msg)
	}
	f.resume(l)
}
