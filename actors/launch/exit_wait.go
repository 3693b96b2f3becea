package launch

import (
	"context"
	"time"
)

// ClosedWithin reports whether ch is closed within d (0: is it closed).
func ClosedWithin(ch <-chan struct{}, d time.Duration) bool {
	if d == 0 {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// PollUntilSilent returns once the browser at hostPort stops answering
// /json/version (an attached browser has no process of ours to wait on),
// or stop is closed.
func PollUntilSilent(stop <-chan struct{}, hostPort string) {
	t := time.NewTicker(attachPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			alive := versionAnswers(ctx, hostPort)
			cancel()
			if !alive {
				return
			}
		}
	}
}
