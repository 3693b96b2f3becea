package fsm

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/ from the declared machines")

func TestBrowserMachinePaths(t *testing.T) {
	paths := [][]string{
		{BrowserLaunch, BrowserReady, BrowserStop, BrowserStopped},
		{BrowserLaunch, BrowserLaunchFailed},
		{BrowserLaunch, BrowserReady, BrowserExit, BrowserSettle, BrowserLaunch},
		{BrowserLaunch, BrowserReady, BrowserHang, BrowserSettle, BrowserLaunch},
	}
	for _, events := range paths {
		var seen []string
		m := NewBrowserMachine(func(tr Transition) { seen = append(seen, tr.Event+":"+tr.From+">"+tr.To) })
		for _, ev := range events {
			if err := m.Fire(ev); err != nil {
				t.Fatalf("%v: %v", events, err)
			}
		}
		if len(seen) != len(events) {
			t.Fatalf("observer saw %v for %v", seen, events)
		}
	}
}

func TestBrowserMachineRefusesWrongEvents(t *testing.T) {
	m := NewBrowserMachine(nil)
	for _, ev := range []string{BrowserReady, BrowserStop, BrowserExit, BrowserStopped, BrowserSettle} {
		if err := m.Fire(ev); err == nil {
			t.Errorf("%s accepted in idle", ev)
		}
	}
	if m.State() != BrowserIdle {
		t.Fatalf("state %s after refused events", m.State())
	}
}

// The diagram in docs/ is drawn from the declaration; this keeps it current.
func TestDocsDrawTheMachines(t *testing.T) {
	for _, spec := range []Spec{BrowserSpec, ConnectionSpec} {
		diagram, err := Mermaid(spec)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", "docs", spec.Name+"-machine.md")
		doc, err := os.ReadFile(path)
		if *update {
			doc = []byte(replaceDiagram(string(doc), diagram))
			if err := os.WriteFile(path, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil || !strings.Contains(string(doc), "```mermaid\n"+diagram+"```") {
			t.Errorf("%s does not hold the current diagram; run go test ./fsm -run TestDocs -update", path)
		}
	}
}

// replaceDiagram swaps the mermaid block of doc for diagram.
func replaceDiagram(doc, diagram string) string {
	block := "```mermaid\n" + diagram + "```"
	start := strings.Index(doc, "```mermaid\n")
	if start < 0 {
		return doc + "\n" + block + "\n"
	}
	end := strings.Index(doc[start+3:], "```")
	return doc[:start] + block + doc[start+3+end+3:]
}
