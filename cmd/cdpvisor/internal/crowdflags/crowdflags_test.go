package crowdflags

import (
	"flag"
	"io"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors"
)

func TestMaxLoadsReachesTheCoordinator(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0}, // auto: the pacer's default
		{[]string{"--max-loads", "auto"}, 0},
		{[]string{"--max-loads", "0"}, -1}, // no pacing
		{[]string{"--max-loads", "6"}, 6},
	} {
		var c Coordinator
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		c.Register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var cfg actors.CoordinatorConfig
		c.Apply(&cfg)
		if cfg.MaxLoads != tc.want {
			t.Errorf("%v: MaxLoads %d, want %d", tc.args, cfg.MaxLoads, tc.want)
		}
	}
}

func TestMaxLoadsRefusesWhatIsNoNumber(t *testing.T) {
	for _, bad := range []string{"-1", "many", "2.5"} {
		var c Coordinator
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.Register(fs)
		if err := fs.Parse([]string{"--max-loads", bad}); err == nil {
			t.Errorf("--max-loads %s: accepted", bad)
		}
	}
}
