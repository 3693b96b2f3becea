package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/recordflags"
)

// serve's and mcp's recording flags take their variables, and reach the
// coordinator's configuration; the caps keep their defaults unless given.
func TestRecordFlagsTakeTheirVariables(t *testing.T) {
	t.Setenv("CDPVISOR_RECORD", "1")
	t.Setenv("CDPVISOR_RECORD_CAP", "1GB")
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var rec recordflags.Coordinator
	rec.Register(fs)
	if err := parseFlags(fs, []string{"--keep-recordings"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	var cfg actors.CoordinatorConfig
	rec.Apply(&cfg)
	if !cfg.Record || cfg.RecordCap != 1<<30 || cfg.RecordTotalCap != 2<<30 || !cfg.KeepRecordings {
		t.Fatalf("config: record %v, cap %d, total %d, keep %v", cfg.Record, cfg.RecordCap, cfg.RecordTotalCap, cfg.KeepRecordings)
	}
}

// A bad size, on the command line or in a variable, is refused naming the
// flag (or the variable) and what a size is.
func TestRecordFlagsRefuseBadSizes(t *testing.T) {
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--record-cap", "0"}, "--record-cap 0: not a size above 0 (e.g. 200MB"},
		{nil, []string{"--record-total-cap=lots"}, "--record-total-cap lots: not a size above 0"},
		{[]string{"CDPVISOR_RECORD_TOTAL_CAP", "2 parsecs"}, nil, "CDPVISOR_RECORD_TOTAL_CAP=2 parsecs: not a size above 0"},
		{[]string{"CDPVISOR_RECORD", "maybe"}, nil, "CDPVISOR_RECORD=maybe: not true or false"},
	} {
		if c.env != nil {
			t.Setenv(c.env[0], c.env[1])
		}
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		var rec recordflags.Coordinator
		rec.Register(fs)
		err := parseFlags(fs, c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want %q", c.env, c.args, err, c.want)
		}
		if c.env != nil {
			t.Setenv(c.env[0], "")
		}
	}
}

// A world's own switch is the command line's alone: CDPVISOR_RECORD, set
// for the coordinator, never turns every world open's recording on or off.
func TestWorldRecordSwitchTakesNoVariable(t *testing.T) {
	t.Setenv("CDPVISOR_RECORD", "false")
	fs := flag.NewFlagSet("world", flag.ContinueOnError)
	var sw recordflags.Switch
	sw.Register(fs, "")
	if err := parseFlags(fs, nil, io.Discard); err != nil || sw.Given() || sw.Request() != nil {
		t.Fatalf("env alone: %v, given %v", err, sw.Given())
	}
	if err := parseFlags(fs, []string{"--record=false"}, io.Discard); err != nil || !sw.Given() || sw.Request() == nil || *sw.Request() {
		t.Fatalf("--record=false: %v, %v", err, sw.Request())
	}
	if onlyOnCommandLine(fs.Lookup("record")) != true {
		t.Fatal("the world's --record is not said to be the command line's only")
	}
}
