package chrome

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

var probeClient = &http.Client{Timeout: 2 * time.Second}

// versionAnswers reports whether /json/version on hostPort answers with a
// browser websocket URL.
func versionAnswers(ctx context.Context, hostPort string) bool {
	_, ok := readProduct(ctx, hostPort)
	return ok
}

// readProduct asks /json/version and returns the version in its Browser
// field ("HeadlessChrome/156.0.8078.79" gives 156.0.8078.79).
func readProduct(ctx context.Context, hostPort string) (string, bool) {
	return readProductVia(ctx, probeClient, hostPort)
}

// readProductVia is readProduct with client (a Reach's, for a browser
// cdpvisor cannot dial).
func readProductVia(ctx context.Context, client *http.Client, hostPort string) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+hostPort+"/json/version", nil)
	if err != nil {
		return "", false
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false
	}
	var v struct {
		WS      string `json:"webSocketDebuggerUrl"`
		Browser string `json:"Browser"`
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || json.Unmarshal(body, &v) != nil || v.WS == "" {
		return "", false
	}
	return parseVersion(v.Browser), true
}
