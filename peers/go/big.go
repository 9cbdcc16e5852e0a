// big: many workers pinging random neighbours.
//
// Every worker is a goroutine with a mailbox (a channel of pings) and a channel of its
// own for pongs. Workers are grouped into neighbourhoods of `hood` consecutive workers
// (the last one may be smaller). A worker picks a uniformly random other member of its
// neighbourhood (itself when it is alone), sends it a ping that carries the worker's pong
// channel, and waits for the pong; after `pings` pongs it reports its count to the sink.
// It keeps answering its neighbours' pings until the sink, having heard from every
// worker, closes the done channel; the check is the sink's sum of the reports.
//
// While a worker sends a ping or waits for its pong it also answers pings that arrive,
// in one select: a worker never blocks on a send alone, so two workers whose mailboxes
// are full cannot block each other forever. A worker has one ping outstanding at a
// time, so its pong channel needs room for one pong, and answering a ping never blocks.
package main

import (
	"math/rand/v2"
	"strconv"
)

var bigBench = benchmark{
	name: "big",
	params: []param{
		{name: "workers", quick: 500, least: 1, most: 1_000_000},
		{name: "pings", quick: 2000, least: 0, most: 100_000_000},
		{name: "hood", quick: 1000, least: 1, most: 1_000_000},
	},
	run: func(v values) (outcome, error) {
		pongs := big(v["workers"], v["pings"], v["hood"])
		return outcome{check: strconv.FormatInt(pongs, 10)}, nil
	},
}

// bigMailbox is the capacity of a worker's mailbox: room for a burst of pings, so that a
// pinger rarely has to wait, without allocating a slot for every neighbour.
const bigMailbox = 16

// bigPing asks a worker for a pong on reply.
type bigPing struct {
	reply chan<- struct{}
}

// big runs the workers and returns the pongs the sink counted from their reports.
func big(workers, pings, hood int) int64 {
	mailboxes := make([]chan bigPing, workers)
	for i := range mailboxes {
		mailboxes[i] = make(chan bigPing, min(bigMailbox, hood))
	}
	reports := make(chan int, workers)
	done := make(chan struct{})
	total := make(chan int64)
	go sink(workers, reports, done, total)
	for w := range workers {
		first := w / hood * hood
		neighbourhood := mailboxes[first:min(first+hood, workers)]
		go bigWorker(w-first, neighbourhood, pings, reports, done)
	}
	return <-total
}

// sink adds up the workers' reports and ends the run when all have reported.
func sink(workers int, reports <-chan int, done chan<- struct{}, total chan<- int64) {
	var pongs int64
	for range workers {
		pongs += int64(<-reports)
	}
	close(done)
	total <- pongs
}

// bigWorker is worker `me` of its neighbourhood. Its one select serves its mailbox, its
// pong channel and, while a ping is waiting to go out, the neighbour's mailbox; `out` is
// nil (a case that never fires) once the ping has gone, until the pong is back.
func bigWorker(me int, neighbourhood []chan bigPing, pings int, reports chan<- int, done <-chan struct{}) {
	mailbox := neighbourhood[me]
	pongs := make(chan struct{}, 1)
	request := bigPing{reply: pongs}
	received := 0
	var out chan<- bigPing
	if pings > 0 {
		out = neighbourhood[neighbour(me, len(neighbourhood))]
	}
	for received < pings {
		select {
		case out <- request:
			out = nil
		case <-pongs:
			received++
			out = neighbourhood[neighbour(me, len(neighbourhood))]
		case p := <-mailbox:
			p.reply <- struct{}{}
		}
	}
	reports <- received
	for {
		select {
		case p := <-mailbox:
			p.reply <- struct{}{}
		case <-done:
			return
		}
	}
}

// neighbour picks a uniformly random member of a neighbourhood of n other than me, or
// me when n is 1.
func neighbour(me, n int) int {
	if n == 1 {
		return me
	}
	other := rand.IntN(n - 1)
	if other >= me {
		other++
	}
	return other
}
