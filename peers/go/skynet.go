// skynet: a tree of goroutines that sum the numbers of its leaves.
//
// The actor (num, size) is a goroutine. With size 1 it replies num to its parent. Else it
// makes one reply channel, starts `div` children (num + k*size/div, size/div) for
// k = 0..div-1 that all answer on it, adds their `div` replies and sends the sum to its
// parent. The check is the sum that arrives at the root's reply channel.
//
// A reply channel has room for all `div` replies, so a child never waits for its parent
// to receive. Validation makes sure size is a power of div, so every leaf has size 1.
package main

import (
	"strconv"
)

var skynetBench = benchmark{
	name: "skynet",
	params: []param{
		{name: "size", quick: 100_000, least: 1, most: 100_000_000},
		{name: "div", quick: 10, least: 2, most: 1000},
	},
	rule: func(v values) error {
		size, div := v["size"], v["div"]
		for size%div == 0 {
			size /= div
		}
		if size != 1 {
			return usagef("skynet: size=%d is not a power of div=%d", v["size"], v["div"])
		}
		return nil
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.FormatInt(skynet(v["size"], v["div"]), 10)}, nil
	},
}

// skynet starts the root actor (0, size) and returns its reply.
func skynet(size, div int) int64 {
	reply := make(chan int64, 1)
	go skynetActor(0, int64(size), int64(div), reply)
	return <-reply
}

// skynetActor replies the sum of the leaf numbers of its subtree.
func skynetActor(num, size, div int64, parent chan<- int64) {
	if size == 1 {
		parent <- num
		return
	}
	children := make(chan int64, div)
	step := size / div
	for k := range div {
		go skynetActor(num+k*step, step, div, children)
	}
	var sum int64
	for range div {
		sum += <-children
	}
	parent <- sum
}
