// spreading: a binary tree of goroutines, one per actor, built from the root down.
//
// The actor for depth d > 0 is a goroutine that makes one reply channel, starts two
// children for depth d-1 that both answer on it, and sends the sum of their two replies
// to its parent; the actor for depth 0 replies 1. The check is the sum that arrives at
// the root's reply channel: the number of leaves that answered.
//
// A reply channel has room for both replies, so a child never waits for its parent to
// receive: it sends, and its goroutine ends.
package main

import "strconv"

var spreadingBench = benchmark{
	name: "spreading",
	params: []param{
		{name: "depth", quick: 16, least: 0, most: 24},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.FormatInt(spreading(v["depth"]), 10)}, nil
	},
}

// spreading starts the root actor and returns its reply.
func spreading(depth int) int64 {
	reply := make(chan int64, 1)
	go spreadingActor(depth, reply)
	return <-reply
}

// spreadingActor replies the number of leaves below it.
func spreadingActor(depth int, parent chan<- int64) {
	if depth == 0 {
		parent <- 1
		return
	}
	children := make(chan int64, 2)
	go spreadingActor(depth-1, children)
	go spreadingActor(depth-1, children)
	parent <- <-children + <-children
}
