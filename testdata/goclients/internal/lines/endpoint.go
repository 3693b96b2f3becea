package lines

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// BrowserWebSocket is the webSocketDebuggerUrl that endpoint's /json/version
// gives: the browser websocket, stable across the browser's relaunches.
func BrowserWebSocket(endpoint string) (string, error) {
	resp, err := http.Get(endpoint + "/json/version")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct{ WebSocketDebuggerURL string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", fmt.Errorf("%s/json/version: %v", endpoint, err)
	}
	if v.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("%s/json/version has no webSocketDebuggerUrl", endpoint)
	}
	return v.WebSocketDebuggerURL, nil
}

// PageURL is the test's local page that shows text in its one <p>.
func PageURL(base, text string) string {
	return base + "/?text=" + url.QueryEscape(text)
}
