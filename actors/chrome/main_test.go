package chrome_test

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// Every process and temporary profile the tests start is accounted for:
// the run fails if any is left.
func TestMain(m *testing.M) { os.Exit(chrometest.LeakCheckMain(m)) }
