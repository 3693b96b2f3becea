package downloads

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every process, temporary profile, state file and partial download the
// tests leave fails the run.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
