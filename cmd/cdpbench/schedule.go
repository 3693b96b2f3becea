package main

// side is one of the things compared.
type side int

const (
	sideDirect   side = iota // a bare browser
	sideProxy                // the same request through cdpvisor
	sideControl              // cdpvisor's own browser, reached without cdpvisor
	sideBaseline             // the baseline cdpvisor (--baseline-bin): cold start and recovery
)

func (s side) String() string {
	switch s {
	case sideDirect:
		return "direct"
	case sideProxy:
		return "cdpvisor"
	case sideBaseline:
		return "baseline cdpvisor"
	default:
		return "cdpvisor's browser direct"
	}
}

// step is one unit of an interleaved schedule: run n operations on side.
type step struct {
	Side side
	N    int
}

// interleave splits total operations per side into batches of at most
// batch, cycling through the first k sides (A B A B …, or A B C A B C …
// with the control), starting with direct. Every side gets exactly total
// operations; the last batches may be shorter.
func interleave(total, batch, k int) []step {
	if total <= 0 || batch <= 0 || k <= 0 {
		return nil
	}
	var steps []step
	for done := 0; done < total; done += batch {
		n := batch
		if total-done < n {
			n = total - done
		}
		for s := 0; s < k; s++ {
			steps = append(steps, step{side(s), n})
		}
	}
	return steps
}

// alternate is the schedule of rounds single operations per side:
// direct, cdpvisor, direct, cdpvisor, …
func alternate(rounds int) []side {
	var out []side
	for i := 0; i < rounds; i++ {
		out = append(out, sideDirect, sideProxy)
	}
	return out
}

// rotate is the schedule of rounds single operations on more than two
// sides: every round runs each side once, and the order turns by one from
// round to round (A B C, B C A, C A B, …), so that no side always comes
// first or always follows the same one.
func rotate(rounds int, sides ...side) []side {
	var out []side
	for r := 0; r < rounds; r++ {
		for k := range sides {
			out = append(out, sides[(k+r)%len(sides)])
		}
	}
	return out
}

// launchOrder is the schedule of cold start and recovery: direct and
// cdpvisor alternating, or, with a baseline cdpvisor, the three rotating.
func launchOrder(rounds int, baseline bool) []side {
	if !baseline {
		return alternate(rounds)
	}
	return rotate(rounds, sideDirect, sideProxy, sideBaseline)
}
