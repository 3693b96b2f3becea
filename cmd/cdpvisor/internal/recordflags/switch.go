package recordflags

import (
	"flag"
	"fmt"
	"strconv"
)

// Switch is a world's own record switch (world open NAME --record, wrap
// --isolate --record): left out, the world stays as it was (or as the
// coordinator's --record says); --record turns it on, --record=false off.
// It is the command line's alone: left in a shell's environment it would
// turn every world's recording on or off.
type Switch struct {
	given, on bool
}

// Register puts --record on fs.
func (s *Switch) Register(fs *flag.FlagSet, usage string) { fs.Var(s, "record", usage) }

// IsBoolFlag lets --record stand alone.
func (s *Switch) IsBoolFlag() bool { return true }

// Set takes --record's value.
func (s *Switch) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("not true or false")
	}
	s.given, s.on = true, on
	return nil
}

func (s *Switch) String() string {
	if s == nil || !s.given {
		return ""
	}
	return strconv.FormatBool(s.on)
}

// Given says --record was given, true or false.
func (s *Switch) Given() bool { return s.given }

// Request is the switch as a world request carries it
// (worldapi.OpenRequest.Record): nil when it was not given.
func (s *Switch) Request() *bool {
	if !s.given {
		return nil
	}
	on := s.on
	return &on
}
