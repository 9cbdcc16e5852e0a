// fibtree: a goroutine per call of the doubly recursive Fibonacci function.
//
// The actor for n > 2 is a goroutine that makes one reply channel, starts goroutines for
// n-1 and n-2 that both answer on it, adds their two replies and sends the sum on its
// own parent's reply channel. The actors for n <= 2 reply fib(n) at once (fib(0) = 0,
// fib(1) = fib(2) = 1). The check is the sum that arrives at the root's reply channel.
//
// A reply channel has room for both children's replies, so a child never waits for its
// parent to receive: it sends, and its goroutine ends.
package main

import "strconv"

var fibtreeBench = benchmark{
	name: "fibtree",
	params: []param{
		{name: "n", quick: 20, least: 0, most: 40},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.FormatInt(fibtree(v["n"]), 10)}, nil
	},
}

// fibtree starts the actor for n and returns its reply.
func fibtree(n int) int64 {
	reply := make(chan int64, 1)
	go fibActor(n, reply)
	return <-reply
}

// fibActor replies fib(n) to its parent, computed by its children when n > 2.
func fibActor(n int, parent chan<- int64) {
	switch {
	case n == 0:
		parent <- 0
	case n <= 2:
		parent <- 1
	default:
		children := make(chan int64, 2)
		go fibActor(n-1, children)
		go fibActor(n-2, children)
		parent <- <-children + <-children
	}
}
