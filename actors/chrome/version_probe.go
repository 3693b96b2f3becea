package chrome

import (
	"context"
	"encoding/json"
	"fmt"
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
	_, product, err := readVersion(ctx, client, hostPort)
	return product, err == nil
}

// readVersion asks /json/version once for both the browser websocket URL
// and the version (through the Windows helper, each request costs a
// powershell.exe start); its error says why there is no answer.
func readVersion(ctx context.Context, client *http.Client, hostPort string) (ws, product string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+hostPort+"/json/version", nil)
	if err != nil {
		return "", "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	var v struct {
		WS      string `json:"webSocketDebuggerUrl"`
		Browser string `json:"Browser"`
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil || v.WS == "" {
		return "", "", fmt.Errorf("/json/version answered %s without a websocket URL", resp.Status)
	}
	return v.WS, parseVersion(v.Browser), nil
}
