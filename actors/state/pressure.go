package state

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// PressurePath is where a coordinator's endpoint tells how hard pressed an
// instance is (actors/pacing).
const PressurePath = "/cdpvisor/pressure"

// fetchPressure reads an instance's pressure as its endpoint tells it; an
// older coordinator, or one behind a token, tells none.
func fetchPressure(ctx context.Context, port int, id string) (json.RawMessage, error) {
	url := fmt.Sprintf("http://127.0.0.1:%d%s?instance=%s", port, PressurePath, id)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := healthClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !json.Valid(body) {
		return nil, fmt.Errorf("port %d answers %s on %s", port, resp.Status, PressurePath)
	}
	return json.RawMessage(body), nil
}
