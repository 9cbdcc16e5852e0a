// pingpong: request/reply between two goroutines.
//
// The ponger is a goroutine whose mailbox is a channel of pings; each ping carries the
// channel to answer on, and the ponger sends a pong there. The pinger is a goroutine that
// sends a ping, waits for the pong, and repeats `pings` times, counting the pongs it
// receives; then it closes the ponger's mailbox, which ends the ponger, and answers its
// count, which is the check.
//
// Only one message is ever in flight, so both channels hold one message: a send never
// waits, and each turn costs one hand-off in each direction.
package main

import "strconv"

var pingpongBench = benchmark{
	name: "pingpong",
	params: []param{
		{name: "pings", quick: 100_000, least: 0, most: 1_000_000_000},
	},
	run: func(v values) (outcome, error) {
		return outcome{check: strconv.Itoa(pingpong(v["pings"]))}, nil
	},
}

// ping asks the ponger for a pong on reply.
type ping struct {
	reply chan<- pong
}

// pong answers a ping.
type pong struct{}

// pingpong runs the pair and returns the pongs the pinger received.
func pingpong(pings int) int {
	mailbox := make(chan ping, 1)
	count := make(chan int)
	go ponger(mailbox)
	go pinger(pings, mailbox, count)
	return <-count
}

// ponger answers every ping until its mailbox is closed.
func ponger(mailbox <-chan ping) {
	for p := range mailbox {
		p.reply <- pong{}
	}
}

// pinger plays `pings` turns, then ends the ponger and answers its count.
func pinger(pings int, ponger chan<- ping, count chan<- int) {
	pongs := make(chan pong, 1)
	received := 0
	for range pings {
		ponger <- ping{reply: pongs}
		<-pongs
		received++
	}
	close(ponger)
	count <- received
}
