package video

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Every ffmpeg process and frames directory (cdpv-video-*) the tests leave
// fails the run.
func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
