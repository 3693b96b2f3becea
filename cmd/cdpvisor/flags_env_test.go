package main

import (
	"flag"
	"io"
	"testing"
)

// A flag that deletes is the command line's alone: CDPVISOR_FORGET left
// set in a shell never makes a close forget.
func TestForgetTakesNoEnvironmentVariable(t *testing.T) {
	t.Setenv("CDPVISOR_FORGET", "true")
	t.Setenv("CDPVISOR_OUTPUT", "from-env")
	fs := flag.NewFlagSet("world", flag.ContinueOnError)
	forget := fs.Bool("forget", false, "")
	output := fs.String("output", "", "")
	if err := parseFlags(fs, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	if *forget || *output != "from-env" {
		t.Fatalf("forget %v, output %q: want false (env ignored) and from-env", *forget, *output)
	}
}
