// counting: a producer, a counter, and one query at the end.
//
// The counter is a goroutine whose mailbox is a channel of counterMsg: a message with no
// reply channel is an increment, and one with a reply channel is the query, to be
// answered there. (A one-word struct rather than an interface of two message types:
// each message is then one machine word in the channel and needs no type switch, which
// is 5% fewer instructions for the whole run.) The producer is a goroutine that sends
// `count` increments, then a query; as the mailbox keeps order, the counter has handled
// every increment when it answers the query with its value. The producer then closes
// the mailbox, which ends the counter, and hands the value on: it is the check.
//
// The mailbox is buffered so that producer and counter run without meeting at every
// increment.
package main

import "strconv"

var countingBench = benchmark{
	name: "counting",
	params: []param{
		{name: "count", quick: 1_000_000, least: 0, most: 1_000_000_000},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.Itoa(counting(v["count"]))}, nil
	},
}

// counterMailbox is the capacity of the counter's mailbox.
const counterMailbox = 1024

// counterMsg is a message to the counter: an increment, or, when reply is set, a query.
type counterMsg struct {
	reply chan<- int
}

// counting runs producer and counter and returns the value the counter answered.
func counting(count int) int {
	mailbox := make(chan counterMsg, counterMailbox)
	value := make(chan int)
	go counter(mailbox)
	go producer(count, mailbox, value)
	return <-value
}

// counter keeps its count until its mailbox is closed.
func counter(mailbox <-chan counterMsg) {
	n := 0
	for m := range mailbox {
		if m.reply == nil {
			n++
		} else {
			m.reply <- n
		}
	}
}

// producer sends the increments and the query, then ends the counter.
func producer(count int, counter chan<- counterMsg, value chan<- int) {
	for range count {
		counter <- counterMsg{}
	}
	answer := make(chan int)
	counter <- counterMsg{reply: answer}
	n := <-answer
	close(counter)
	value <- n
}
