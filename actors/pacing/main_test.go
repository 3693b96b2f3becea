package pacing

import (
	"os"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
