package bridge_test

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every process, temporary profile and state file the tests start is
// accounted for: the run fails if any is left.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
