// fifo: the first-in first-out queue that an actor keeps in its own state (the
// bounded buffer's items and waiting producers and consumers, the barber's waiting
// room). It is a slice with a read index, reset to the start whenever it empties, so a
// queue that fills and drains does not keep growing.
package main

// fifo is a first-in first-out queue on a slice.
type fifo[T any] struct {
	items []T
	head  int
}

func (q *fifo[T]) push(x T) { q.items = append(q.items, x) }

func (q *fifo[T]) len() int { return len(q.items) - q.head }

// pop removes and returns the oldest element, if any.
func (q *fifo[T]) pop() (T, bool) {
	var zero T
	if q.head == len(q.items) {
		return zero, false
	}
	x := q.items[q.head]
	q.items[q.head] = zero
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return x, true
}
