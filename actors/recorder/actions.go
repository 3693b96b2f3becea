package recorder

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// isAction says a client's command is one a user would call an action:
// a navigation, input, an evaluation, a page opened, closed or shot.
// The rest (subscriptions, reads of the DOM or of targets) are the
// clients' bookkeeping, and the journal's.
func isAction(method []byte) bool {
	if bytes.HasPrefix(method, []byte("Input.")) {
		return true
	}
	switch string(method) {
	case "Page.navigate", "Page.reload", "Page.navigateToHistoryEntry", "Page.close", "Page.bringToFront",
		"Page.captureScreenshot", "Page.printToPDF", "Page.handleJavaScriptDialog",
		"Runtime.evaluate", "Runtime.callFunctionOn",
		"DOM.setFileInputFiles", "DOM.focus", "DOM.scrollIntoViewIfNeeded",
		"Target.createTarget", "Target.closeTarget", "Target.activateTarget":
		return true
	}
	return false
}

// actionOf is an action as the recorder keeps it, under the journal's
// privacy rule: of the parameters only a navigation's URL, a mouse
// event's kind, button and point, a key event's kind and its key when it
// names no character (Enter, Tab, ArrowLeft: never the text typed); no
// expression, no function, no typed text, no file's path.
func actionOf(method string, msg []byte) pwtrace.Action {
	act := pwtrace.Action{Method: method, Title: method}
	var m struct {
		Params struct {
			URL        string   `json:"url"`
			Type       string   `json:"type"`
			Button     string   `json:"button"`
			Key        string   `json:"key"`
			X          *float64 `json:"x"`
			Y          *float64 `json:"y"`
			ClickCount int      `json:"clickCount"`
		} `json:"params"`
	}
	switch method {
	case "Page.navigate", "Target.createTarget", "Input.dispatchMouseEvent", "Input.dispatchKeyEvent", "Input.dispatchTouchEvent", "Input.dispatchDragEvent":
		if json.Unmarshal(msg, &m) != nil {
			return act
		}
	default:
		return act
	}
	p := &m.Params
	params := map[string]string{}
	switch method {
	case "Page.navigate", "Target.createTarget":
		if p.URL != "" {
			params["url"] = cut(p.URL)
			act.Title = method + " {url}"
		}
	case "Input.dispatchKeyEvent":
		params["type"] = p.Type
		act.Title = method + " {type}"
		if len([]rune(p.Key)) > 1 {
			params["key"] = p.Key
			act.Title = method + " {type} {key}"
		}
	default: // mouse, touch, drag
		params["type"] = p.Type
		act.Title = method + " {type}"
		if p.Button != "" && p.Button != "none" {
			params["button"] = p.Button
		}
		if p.ClickCount > 0 {
			params["clickCount"] = strconv.Itoa(p.ClickCount)
		}
		if p.X != nil && p.Y != nil {
			act.Point = &pwtrace.Point{X: *p.X, Y: *p.Y}
		}
	}
	act.Params = params
	return act
}
