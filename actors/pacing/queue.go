package pacing

// fairQueue is the loads that wait for a slot of one instance: round robin
// by world, in order within a world. A world that floods the queue waits
// its turn behind every other world with a load waiting, so an agent that
// opens twenty pages at once delays the others by one load, not twenty.
type fairQueue struct {
	order   []string // the worlds with loads waiting, whose turn is next first
	waiting map[string][]*waiter
	n       int
}

func newFairQueue() fairQueue { return fairQueue{waiting: map[string][]*waiter{}} }

// push puts w last in its world's line; a world new to the queue takes its
// turn after those already waiting.
func (q *fairQueue) push(w *waiter) {
	if len(q.waiting[w.world]) == 0 {
		q.order = append(q.order, w.world)
	}
	q.waiting[w.world] = append(q.waiting[w.world], w)
	q.n++
}

// pop takes the first load of the world whose turn it is; that world goes
// last in the turns when it has more. Nil: nothing waits.
func (q *fairQueue) pop() *waiter {
	if len(q.order) == 0 {
		return nil
	}
	world := q.order[0]
	q.order = q.order[1:]
	line := q.waiting[world]
	w := line[0]
	if len(line) == 1 {
		delete(q.waiting, world)
	} else {
		q.waiting[world] = line[1:]
		q.order = append(q.order, world)
	}
	q.n--
	return w
}

// remove takes w out of the queue (its client gave up); false: it was not
// waiting.
func (q *fairQueue) remove(w *waiter) bool {
	line := q.waiting[w.world]
	for i, x := range line {
		if x != w {
			continue
		}
		q.n--
		if len(line) == 1 {
			delete(q.waiting, w.world)
			for j, name := range q.order {
				if name == w.world {
					q.order = append(q.order[:j], q.order[j+1:]...)
					break
				}
			}
			return true
		}
		q.waiting[w.world] = append(line[:i:i], line[i+1:]...)
		return true
	}
	return false
}

func (q *fairQueue) len() int { return q.n }
