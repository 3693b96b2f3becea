package launch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"
)

var probeClient = &http.Client{Timeout: 2 * time.Second}

// versionAnswers reports whether /json/version on hostPort answers with a
// browser websocket URL.
func versionAnswers(ctx context.Context, hostPort string) bool {
	_, ok := ReadProduct(ctx, hostPort)
	return ok
}

// ReadProduct asks /json/version and returns the version in its Browser
// field ("HeadlessChrome/156.0.8078.79" gives 156.0.8078.79).
func ReadProduct(ctx context.Context, hostPort string) (string, bool) {
	return ReadProductVia(ctx, probeClient, hostPort)
}

// ReadProductVia is ReadProduct with client (a Reach's, for a browser
// cdpvisor cannot dial).
func ReadProductVia(ctx context.Context, client *http.Client, hostPort string) (string, bool) {
	_, product, err := AskVersion(ctx, client, hostPort)
	return product, err == nil
}

// AskVersion asks /json/version once for both the browser websocket URL
// and the version (through the Windows helper, each request costs a
// powershell.exe start); its error says why there is no answer.
func AskVersion(ctx context.Context, client *http.Client, hostPort string) (ws, product string, err error) {
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
	return v.WS, ParseVersion(v.Browser), nil
}

// versionPattern finds "156.0.8078.79" in "Chromium 156.0.8078.79 built on
// Debian GNU/Linux 12 (bookworm)"; a lone "12" needs a dot so it never matches.
// Firefox versions keep Mozilla's suffix: "153.7.0esr", "155.0a1", "154.0b3".
var versionPattern = regexp.MustCompile(`\b\d+(?:\.\d+){1,3}(?:esr|[ab]\d+)?\b`)

// ParseVersion extracts the first dotted version number, or "".
func ParseVersion(s string) string {
	return versionPattern.FindString(s)
}
