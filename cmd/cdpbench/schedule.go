package main

// side is one of the two things compared.
type side int

const (
	sideDirect  side = iota // a bare browser
	sideProxy               // the same request through cdpvisor
	sideControl             // cdpvisor's own browser, reached without cdpvisor
)

func (s side) String() string {
	switch s {
	case sideDirect:
		return "direct"
	case sideProxy:
		return "cdpvisor"
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
