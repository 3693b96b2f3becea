package launchers_test

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every process and temporary profile the tests start is accounted for, in
// a temporary directory of this package's own: the run fails if any is left.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
