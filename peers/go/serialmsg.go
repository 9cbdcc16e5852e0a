// serialmsg: messages proxied through one dispatcher.
//
// There are `pairs` generator/receiver pairs of goroutines and one dispatcher goroutine.
// A receiver's address is its mailbox channel. A generator sends `messages` parcels
// addressed to its receiver to the dispatcher's mailbox, then one last parcel marked
// done; the dispatcher forwards every parcel to the mailbox it is addressed to, and
// returns once it has forwarded a done parcel for every pair. A receiver counts its
// parcels until the done parcel (channels keep order, so it comes last) and reports the
// count; the check is the sum of the receivers' reports.
//
// Mailboxes are buffered so that generators, dispatcher and receivers run without
// meeting at every parcel. Receivers only receive, so the dispatcher never waits for
// long on a full receiver mailbox.
package main

import "strconv"

var serialmsgBench = benchmark{
	name: "serialmsg",
	params: []param{
		{name: "pairs", quick: 40, least: 1, most: 100_000},
		{name: "messages", quick: 1000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.FormatInt(serialmsg(v["pairs"], v["messages"]), 10)}, nil
	},
}

// Mailbox capacities of the dispatcher and of each receiver.
const (
	dispatcherMailbox = 1024
	receiverMailbox   = 64
)

// parcel is a message on its way to the receiver whose mailbox is `to`.
type parcel struct {
	to   chan<- parcel
	done bool
}

// serialmsg runs the pairs and returns the number of parcels the receivers counted.
func serialmsg(pairs, messages int) int64 {
	dispatch := make(chan parcel, dispatcherMailbox)
	reports := make(chan int, pairs)
	go dispatcher(pairs, dispatch)
	for range pairs {
		mailbox := make(chan parcel, receiverMailbox)
		go parcelReceiver(mailbox, reports)
		go generator(messages, mailbox, dispatch)
	}
	var delivered int64
	for range pairs {
		delivered += int64(<-reports)
	}
	return delivered
}

// dispatcher forwards parcels until every generator's done parcel has gone through.
func dispatcher(pairs int, mailbox <-chan parcel) {
	for finished := 0; finished < pairs; {
		p := <-mailbox
		p.to <- p
		if p.done {
			finished++
		}
	}
}

// generator sends its parcels for `to` through the dispatcher, then its done parcel.
func generator(messages int, to chan<- parcel, dispatch chan<- parcel) {
	for range messages {
		dispatch <- parcel{to: to}
	}
	dispatch <- parcel{to: to, done: true}
}

// parcelReceiver counts parcels up to the done parcel and reports the count.
func parcelReceiver(mailbox <-chan parcel, reports chan<- int) {
	received := 0
	for p := range mailbox {
		if p.done {
			break
		}
		received++
	}
	reports <- received
}
