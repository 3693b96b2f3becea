package mcptools

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The tests start coordinators on fake and real browsers: every process,
// temporary profile and state file they start is accounted for.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
