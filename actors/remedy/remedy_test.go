package remedy

import (
	"errors"
	"fmt"
	"testing"
)

type cause struct{ fixes []Fix }

func (c cause) Error() string   { return "cause" }
func (c cause) Remedies() []Fix { return c.fixes }

func TestFixesAreFoundThroughWrapping(t *testing.T) {
	port := With(errors.New("port 1 is in use"), Change(Port), Say("stop what listens there"))
	wrapped := fmt.Errorf("instance new: %w", port)
	if got := Fixes(wrapped); len(got) != 2 || got[0] != Change(Port) {
		t.Errorf("Fixes through %%w = %+v", got)
	}
	if wrapped.Error() != "instance new: port 1 is in use" {
		t.Errorf("the text is the problem alone: %q", wrapped)
	}
	// An error with no fixes of its own lets the ones below it through.
	below := fmt.Errorf("outer: %w", cause{fixes: nil})
	if Fixes(below) != nil {
		t.Errorf("no fixes anywhere: %+v", Fixes(below))
	}
	layered := With(fmt.Errorf("outer: %w", cause{fixes: []Fix{Set(Headless, "true")}}))
	if got := Fixes(layered); len(got) != 1 || got[0].Setting != Headless {
		t.Errorf("an empty remedy above hides the one below: %+v", got)
	}
	if Fixes(errors.New("plain")) != nil || With(nil, Change(Port)) != nil {
		t.Error("plain errors have no fixes, and nil stays nil")
	}
}

func TestExplainSaysFixesInTheEdgesWords(t *testing.T) {
	err := With(errors.New("port 1 is in use"), Change(Port), Say("stop what listens there"))
	if got, want := Explain(err, nil), "port 1 is in use; choose another port, or stop what listens there"; got != want {
		t.Errorf("Explain = %q, want %q", got, want)
	}
	// After the browser's quoted stderr lines the fixes go on a line of their own.
	multi := With(errors.New("failed; last stderr lines:\n  a\n  b"), Set(Headless, "true"))
	if got, want := Explain(multi, Plain), "failed; last stderr lines:\n  a\n  b\nwhat to do: set headless to true"; got != want {
		t.Errorf("Explain = %q, want %q", got, want)
	}
	if got := Explain(errors.New("plain"), Plain); got != "plain" {
		t.Errorf("no fixes: %q", got)
	}
}
