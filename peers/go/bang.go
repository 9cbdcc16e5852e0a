// bang: many senders flooding one receiver.
//
// The receiver is a goroutine and its mailbox is one buffered channel that all `senders`
// sender goroutines send on. Each sender sends `messages` messages and then a last one
// marked done; as a channel keeps each sender's messages in order, the done message
// comes after all of that sender's others. The receiver counts the messages that are not
// done messages, and when it has seen a done message from every sender it answers its
// count, which is the check.
//
// The mailbox is buffered so that the senders and the receiver run without meeting at
// every message: senders fill it while the receiver drains it.
package main

import "strconv"

var bangBench = benchmark{
	name: "bang",
	params: []param{
		{name: "senders", quick: 100, least: 1, most: 1_000_000},
		{name: "messages", quick: 1000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.FormatInt(bang(v["senders"], v["messages"]), 10)}, nil
	},
}

// bangMailbox is the capacity of the receiver's mailbox.
const bangMailbox = 1024

// bangMsg is one message to the receiver; done marks a sender's last.
type bangMsg struct {
	done bool
}

// bang runs the senders and returns the count the receiver answered.
func bang(senders, messages int) int64 {
	mailbox := make(chan bangMsg, bangMailbox)
	count := make(chan int64)
	go bangReceiver(senders, mailbox, count)
	for range senders {
		go bangSender(messages, mailbox)
	}
	return <-count
}

// bangReceiver counts messages until every sender has said it is done.
func bangReceiver(senders int, mailbox <-chan bangMsg, count chan<- int64) {
	var received int64
	for finished := 0; finished < senders; {
		if m := <-mailbox; m.done {
			finished++
		} else {
			received++
		}
	}
	count <- received
}

// bangSender sends its messages, then its done message.
func bangSender(messages int, receiver chan<- bangMsg) {
	for range messages {
		receiver <- bangMsg{}
	}
	receiver <- bangMsg{done: true}
}
