package pacing

import (
	"fmt"
	"strings"
	"testing"
)

func popAll(q *fairQueue) string {
	var got []string
	for w := q.pop(); w != nil; w = q.pop() {
		got = append(got, fmt.Sprintf("%s%d", w.world, w.ticket))
	}
	return strings.Join(got, " ")
}

func TestTheQueueTakesTheWorldsInTurnAndEachInOrder(t *testing.T) {
	q := newFairQueue()
	// World a floods the queue before b and c ask for one load each.
	for i, world := range []string{"a", "a", "a", "a", "b", "c", "b"} {
		q.push(&waiter{world: world, ticket: ticket(i + 1)})
	}
	if q.len() != 7 {
		t.Fatalf("len %d, want 7", q.len())
	}
	if got, want := popAll(&q), "a1 b5 c6 a2 b7 a3 a4"; got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
	if q.len() != 0 || q.pop() != nil {
		t.Fatal("the queue is not empty after taking everything")
	}
}

func TestAWaiterThatGaveUpLeavesTheQueue(t *testing.T) {
	q := newFairQueue()
	ws := []*waiter{{world: "a", ticket: 1}, {world: "b", ticket: 2}, {world: "a", ticket: 3}, {world: "c", ticket: 4}}
	for _, w := range ws {
		q.push(w)
	}
	if !q.remove(ws[1]) || q.remove(ws[1]) {
		t.Fatal("remove: want true once, then false")
	}
	if !q.remove(ws[0]) {
		t.Fatal("remove a1: want true")
	}
	if got, want := popAll(&q), "a3 c4"; got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
}
