package liveview

// inputEvent is a mouse, wheel or key event of the page's large view.
// Mouse positions are fractions of the frame shown (0..1), so the page
// needs to know nothing of the browser's page size.
type inputEvent struct {
	Kind       string  `json:"kind"` // mouse, wheel, key
	Type       string  `json:"type"` // mousePressed, mouseReleased, mouseMoved; keyDown, keyUp
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Button     string  `json:"button"`
	Buttons    int     `json:"buttons"`
	ClickCount int     `json:"clickCount"`
	DeltaX     float64 `json:"deltaX"`
	DeltaY     float64 `json:"deltaY"`
	Key        string  `json:"key"`
	Code       string  `json:"code"`
	Text       string  `json:"text"`
	KeyCode    int     `json:"keyCode"`
	Modifiers  int     `json:"modifiers"`
}

var mouseTypes = map[string]bool{"mousePressed": true, "mouseReleased": true, "mouseMoved": true}

var mouseButtons = map[string]bool{"none": true, "left": true, "middle": true, "right": true, "back": true, "forward": true}

// cdp is the Input command of the event on a page whose last frame was f
// (its size in CSS pixels); false: nothing to send.
func (e *inputEvent) cdp(f *frameNews) (string, map[string]any, bool) {
	switch e.Kind {
	case "mouse", "wheel":
		if f == nil || f.width <= 0 || e.X < 0 || e.X > 1 || e.Y < 0 || e.Y > 1 {
			return "", nil, false
		}
		p := map[string]any{"x": e.X * f.width, "y": e.Y * f.height, "modifiers": e.Modifiers}
		if e.Kind == "wheel" {
			p["type"], p["deltaX"], p["deltaY"] = "mouseWheel", e.DeltaX, e.DeltaY
			return "Input.dispatchMouseEvent", p, true
		}
		if !mouseTypes[e.Type] {
			return "", nil, false
		}
		button := e.Button
		if !mouseButtons[button] {
			button = "none"
		}
		p["type"], p["button"], p["buttons"], p["clickCount"] = e.Type, button, e.Buttons, e.ClickCount
		return "Input.dispatchMouseEvent", p, true
	case "key":
		if e.Type != "keyDown" && e.Type != "keyUp" {
			return "", nil, false
		}
		p := map[string]any{"key": e.Key, "code": e.Code, "windowsVirtualKeyCode": e.KeyCode, "nativeVirtualKeyCode": e.KeyCode, "modifiers": e.Modifiers}
		switch {
		case e.Type == "keyUp":
			p["type"] = "keyUp"
		case e.Text != "":
			p["type"], p["text"], p["unmodifiedText"] = "keyDown", e.Text, e.Text
		default:
			p["type"] = "rawKeyDown" // no character: Backspace, arrows, Tab
		}
		return "Input.dispatchKeyEvent", p, true
	}
	return "", nil, false
}
