package actors

import (
	"fmt"
	"strconv"
	"strings"
)

// PortRange is an inclusive range of ports for extra instances
// (--instance-ports 3301-3399, the seed's pool).
type PortRange struct{ Lo, Hi int }

// ParsePortRange reads "LO-HI".
func ParsePortRange(s string) (PortRange, error) {
	lo, hi, ok := strings.Cut(s, "-")
	a, errA := strconv.Atoi(strings.TrimSpace(lo))
	b, errB := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || errA != nil || errB != nil || a < 1 || b > 65535 || a > b {
		return PortRange{}, fmt.Errorf("port range %q: want LO-HI within 1-65535, e.g. 3301-3399", s)
	}
	return PortRange{Lo: a, Hi: b}, nil
}

// IsZero reports an unset range (any free port).
func (r PortRange) IsZero() bool { return r.Lo == 0 && r.Hi == 0 }
