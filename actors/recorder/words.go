package recorder

import (
	"fmt"
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

func itoa(n int) string { return strconv.Itoa(n) }

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// exitWords says why a browser exited, for a crash's mark.
func exitWords(ev browser.Exited) string {
	rec := ev.Record
	switch {
	case rec.Signal != "":
		return rec.Cause + ", " + rec.Signal
	case rec.Code != nil:
		return fmt.Sprintf("%s, exit code %d", rec.Cause, *rec.Code)
	case rec.Cause != "":
		return rec.Cause
	}
	return "it was gone"
}
