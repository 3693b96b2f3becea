package multiplex

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// getProtocol asks c for /json/protocol as the endpoint does.
func getProtocol(t *testing.T, c *Connection) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+Host+"/json/protocol", nil)
	resp, err := (&http.Client{Transport: c}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func TestJSONProtocolIsTheSchemaItsLauncherGave(t *testing.T) {
	doc := `{"version": {"major": "1", "minor": "3"}, "domains": []}`
	var asked Version
	_, c := newPeerSpec(t, Spec{Log: zerolog.Nop(), Schema: func(_ context.Context, v Version) ([]byte, error) {
		asked = v
		return []byte(doc), nil
	}})
	code, ctype, body := getProtocol(t, c)
	if code != http.StatusOK || ctype != "application/json; charset=UTF-8" || body != doc {
		t.Errorf("/json/protocol: %d %s %q", code, ctype, body)
	}
	if asked.Product != "Chrome/148.0" {
		t.Errorf("the schema was asked for %+v, want the browser's version", asked)
	}
}

func TestJSONProtocolWithoutASchemaSaysWhyAndWhatToDo(t *testing.T) {
	_, c := newPeerSpec(t, Spec{Log: zerolog.Nop(), Schema: func(context.Context, Version) ([]byte, error) {
		return nil, errors.New("no resources.pak beside /x/fakebrowser")
	}})
	code, _, body := getProtocol(t, c)
	for _, want := range []string{"debugging pipe", "no resources.pak beside /x/fakebrowser", "local: true"} {
		if code != http.StatusNotFound || !strings.Contains(body, want) {
			t.Errorf("/json/protocol: %d %q, want 404 saying %q", code, body, want)
		}
	}
	_, c = newPeer(t)
	if code, _, body := getProtocol(t, c); code != http.StatusNotFound || !strings.Contains(body, "debugging pipe") {
		t.Errorf("/json/protocol of a Connection without a Schema: %d %q", code, body)
	}
}
