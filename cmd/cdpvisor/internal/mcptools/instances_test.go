package mcptools

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestMCPInstances(t *testing.T) {
	h := newMCPHarness(t)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id, _ := created["id"].(string)
	port := int(created["port"].(float64))
	if !strings.HasPrefix(id, "inst_") || port == h.c.Default().Proxy.Port() {
		t.Fatalf("new instance %v", created)
	}
	text, _ := h.call("browser_instance", map[string]any{"action": "list"}, false)
	if instanceLines(text) != 2 {
		t.Fatalf("list: %s", text)
	}
	for _, ref := range []string{id, fmt.Sprint(port)} {
		if text, _ := h.call("browser_instance", map[string]any{"action": "get", "id": ref}, false); !strings.Contains(text, id) {
			t.Fatalf("get %s: %s", ref, text)
		}
	}
	// Its own endpoint launches its own browser.
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("new instance endpoint: %v %v", resp, err)
	}
	resp.Body.Close()
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	if text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true); !strings.Contains(text, "maximum") {
		t.Fatalf("past --max-instances: %s", text)
	}
	h.call("browser_instance", map[string]any{"action": "close", "id": id}, false)
	h.call("browser_instance", map[string]any{"action": "get", "id": id}, true)
	if _, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port)); err == nil {
		t.Fatal("a closed instance's endpoint still answers")
	}
}

func TestMCPClosingAnInstanceFailsWhatWasPending(t *testing.T) {
	h := newMCPHarness(t, "--fake-start-delay=3s")
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	port := int(created["port"].(float64))
	body := make(chan string, 1)
	go func() {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port))
		if err != nil {
			body <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body <- string(b)
	}()
	time.Sleep(300 * time.Millisecond) // the launch is under way
	h.call("browser_instance", map[string]any{"action": "close", "id": created["id"]}, false)
	if got := <-body; !strings.Contains(got, "INSTANCE_CLOSED") {
		t.Fatalf("the pending request got %q, want INSTANCE_CLOSED", got)
	}
}
