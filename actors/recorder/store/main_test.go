package store

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every process, temporary profile and state file the tests leave fails
// the run.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
