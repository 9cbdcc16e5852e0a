// philosopher: dining philosophers with an arbitrator (Savina's dining philosophers).
//
// The arbitrator is a goroutine that owns the forks (one flag each) and the meal count;
// its mailbox is one channel that all philosophers send on. Philosopher i is a goroutine
// with a one-slot channel for the arbitrator's answers; it needs forks i and
// (i+1) mod philosophers. Until it has eaten `rounds` meals it asks for its forks: the
// arbitrator answers eat, and takes both forks, when both are free, and denied otherwise,
// in which case the philosopher asks again at once. A philosopher told to eat eats one
// meal and tells the arbitrator it is done, which frees its forks and counts the meal.
// After its last meal it tells the arbitrator it has finished; when all have, the
// arbitrator hands its meal count to the caller: MEALS.
//
// A denied philosopher yields (runtime.Gosched) before it asks again: otherwise it and
// the arbitrator hand each other the processor (a goroutine woken by a send runs next,
// in its waker's time slice) while the philosopher that holds the forks waits to say it
// is done. peers/README.md has the measurement.
//
// A philosopher has at most two messages to the arbitrator outstanding (done, then its
// next request), so the mailbox has room for all of them; answers never wait, as a
// philosopher has at most one request out.
package main

import (
	"runtime"
	"strconv"
)

var philosopherBench = benchmark{
	name: "philosopher",
	params: []param{
		{name: "philosophers", quick: 20, least: 1, most: 10_000},
		{name: "rounds", quick: 5000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		meals := philosopher(v["philosophers"], v["rounds"])
		return outcome{check: strconv.FormatUint(meals, 10)}, nil
	},
}

// philKind says what a message to the arbitrator is.
type philKind uint8

const (
	philHungry   philKind = iota // asks for the forks
	philDone                     // has eaten; frees the forks
	philFinished                 // has eaten all its meals
)

// philMsg is one message to the arbitrator from philosopher id.
type philMsg struct {
	kind philKind
	id   int
}

// philosopher runs the arbitrator and the philosophers and returns the meals counted.
func philosopher(philosophers, rounds int) uint64 {
	mailbox := make(chan philMsg, 2*philosophers)
	answers := make([]chan bool, philosophers)
	for i := range answers {
		answers[i] = make(chan bool, 1)
		go diner(i, rounds, answers[i], mailbox)
	}
	meals := make(chan uint64)
	go arbitrator(mailbox, answers, meals)
	return <-meals
}

// arbitrator grants forks and counts meals until every philosopher has finished.
func arbitrator(mailbox <-chan philMsg, answers []chan bool, meals chan<- uint64) {
	n := len(answers)
	taken := make([]bool, n)
	var eaten uint64
	for finished := 0; finished < n; {
		m := <-mailbox
		left, right := m.id, (m.id+1)%n
		switch m.kind {
		case philHungry:
			free := !taken[left] && !taken[right]
			if free {
				taken[left], taken[right] = true, true
			}
			answers[m.id] <- free
		case philDone:
			taken[left], taken[right] = false, false
			eaten++
		case philFinished:
			finished++
		}
	}
	meals <- eaten
}

// diner is philosopher id: it asks until it may eat, eats, and repeats `rounds` times.
func diner(id, rounds int, answers <-chan bool, arbitrator chan<- philMsg) {
	for eaten := 0; eaten < rounds; {
		arbitrator <- philMsg{kind: philHungry, id: id}
		if <-answers {
			eaten++
			arbitrator <- philMsg{kind: philDone, id: id}
		} else {
			runtime.Gosched()
		}
	}
	arbitrator <- philMsg{kind: philFinished, id: id}
}
