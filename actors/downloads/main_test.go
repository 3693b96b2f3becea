package downloads

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// Every process, temporary profile, state file and partial download the
// tests leave fails the run.
func TestMain(m *testing.M) { os.Exit(chrometest.LeakCheckMain(m)) }
