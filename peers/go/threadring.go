// threadring: one token hopping around a ring of goroutines.
//
// Each actor of the ring is a goroutine and its mailbox is a `chan int` that carries the
// token; actor i holds the receiving end of its own channel and the sending end of
// actor i+1's (the last actor sends to actor 1). Actor 1 gets the token `hops`. An actor
// that receives t > 0 sends t-1 to its successor; the one that receives 0 reports its
// 1-based id on the result channel, and that id is the check.
//
// Every mailbox buffers one token. There is only ever one token in the ring, so a send
// never waits, and a ring of one actor can hand the token to itself.
//
// The ring then shuts down the way Go pipelines do: the winner returns and closes its
// successor's channel, and every actor whose mailbox is closed returns and closes the
// next one. Each channel is closed exactly once, by the only goroutine that sends on it.
package main

import "strconv"

var threadringBench = benchmark{
	name: "threadring",
	params: []param{
		{name: "actors", quick: 503, least: 1, most: 1_000_000},
		{name: "hops", quick: 1_000_000, least: 0, most: 1_000_000_000},
	},
	run: func(v values) (outcome, error) {
		id := threadring(v["actors"], v["hops"])
		return outcome{check: strconv.Itoa(id)}, nil
	},
}

// threadring builds the ring, hands actor 1 the token `hops` and returns the id of the
// actor that received token 0.
func threadring(actors, hops int) int {
	mailboxes := make([]chan int, actors)
	for i := range mailboxes {
		mailboxes[i] = make(chan int, 1)
	}
	winner := make(chan int, 1)
	for i := range actors {
		go ringActor(i+1, mailboxes[i], mailboxes[(i+1)%actors], winner)
	}
	mailboxes[0] <- hops
	return <-winner
}

// ringActor passes the token on, one less each hop, until it sees token 0.
func ringActor(id int, mailbox <-chan int, next chan<- int, winner chan<- int) {
	defer close(next)
	for token := range mailbox {
		if token == 0 {
			winner <- id
			return
		}
		next <- token - 1
	}
}
