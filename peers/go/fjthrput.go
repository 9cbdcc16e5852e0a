// fjthrput: fork-join throughput, one sender and many receivers (Savina's ForkJoin
// throughput).
//
// Every receiver is a goroutine whose mailbox is a buffered channel of message values.
// The sender, a goroutine of its own, sends for i from 0 to messages-1, and within that
// to every receiver r in turn, the value r*messages + i. A receiver handles a message
// by counting it and adding step(v) to its digest; when it has handled its `messages`
// messages it reports its count and digest on the collector's channel and ends. The
// collector (the caller) adds up all the reports: HANDLED:DIGEST.
//
// The mailboxes are buffered so that the sender rarely waits for a receiver that is
// still computing; the collector's channel has room for every report.
package main

import "strconv"

var fjthrputBench = benchmark{
	name: "fjthrput",
	params: []param{
		{name: "actors", quick: 60, least: 1, most: 100_000},
		{name: "messages", quick: 2000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		handled, digest := fjthrput(v["actors"], v["messages"])
		return outcome{check: joinChecks(handled, digest)}, nil
	},
}

// fjthrputMailbox is the capacity of a receiver's mailbox.
const fjthrputMailbox = 256

// tally is what an actor reports when it is done: messages handled and their digest.
type tally struct {
	count  uint64
	digest uint64
}

// fjthrput runs the sender and the receivers and returns the collector's totals.
func fjthrput(actors, messages int) (handled, digest uint64) {
	mailboxes := make([]chan uint64, actors)
	reports := make(chan tally, actors)
	for r := range mailboxes {
		mailboxes[r] = make(chan uint64, fjthrputMailbox)
		go fjthrputReceiver(messages, mailboxes[r], reports)
	}
	go fjthrputSender(messages, mailboxes)
	for range actors {
		t := <-reports
		handled += t.count
		digest += t.digest
	}
	return handled, digest
}

// fjthrputSender sends message i to every receiver before message i+1 to any.
func fjthrputSender(messages int, receivers []chan uint64) {
	for i := range messages {
		for r, mailbox := range receivers {
			mailbox <- uint64(r*messages + i)
		}
	}
}

// fjthrputReceiver handles its messages and reports.
func fjthrputReceiver(messages int, mailbox <-chan uint64, reports chan<- tally) {
	var t tally
	for ; t.count < uint64(messages); t.count++ {
		t.digest += step(<-mailbox)
	}
	reports <- t
}

// joinChecks prints numbers as the contract's checks print them: unsigned decimals
// joined by ':'.
func joinChecks(numbers ...uint64) string {
	buf := make([]byte, 0, 21*len(numbers))
	for i, n := range numbers {
		if i > 0 {
			buf = append(buf, ':')
		}
		buf = strconv.AppendUint(buf, n, 10)
	}
	return string(buf)
}
