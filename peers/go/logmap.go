// logmap: logistic-map series computed through rate actors (Savina's logistic map).
//
// Series i and rate actor i are goroutines; the rate actor's mailbox is a channel of
// requests, each a term and the one-slot channel on which the series waits for the
// answer. Rate actor i has the rate r = R + float64(i)*D, with R = rate/10000 and
// D = increment/10000, and answers a term x with (r*x)*(1-x). Series i starts from
// x = (i+1)/(series+1) and asks for `terms` terms one after the other; it adds
// floor(x * 2^32) of every term it receives to its sum (wrapping), and reports the sum to
// the master (the caller), which adds up the reports: SUM. Once its series has
// reported, a rate actor's mailbox is closed, which ends it.
//
// The float64 conversions around products keep Go from fusing a multiply and an add
// into one instruction on the architectures that have one: the contract asks for
// each operation rounded on its own.
package main

import (
	"math"
	"strconv"
)

var logmapBench = benchmark{
	name: "logmap",
	params: []param{
		{name: "terms", quick: 10_000, least: 0, most: 100_000_000},
		{name: "series", quick: 10, least: 1, most: 100},
		{name: "rate", quick: 34_600, least: 0, most: 36_000},
		{name: "increment", quick: 25, least: 0, most: 40},
	},
	run: func(v values) (outcome, error) {
		sum := logmap(v["terms"], v["series"], v["rate"], v["increment"])
		return outcome{check: strconv.FormatUint(sum, 10)}, nil
	},
}

// termRequest asks a rate actor for the term after x.
type termRequest struct {
	x     float64
	reply chan<- float64
}

// logmap runs the series and rate actors and returns the sum of the reports.
func logmap(terms, series, rate, increment int) uint64 {
	r0 := float64(rate) / 10000.0
	d := float64(increment) / 10000.0
	reports := make(chan uint64, series)
	for i := range series {
		mailbox := make(chan termRequest, 1)
		go rateActor(float64(r0+float64(float64(i)*d)), mailbox)
		x := float64(i+1) / float64(series+1)
		go logSeries(x, terms, mailbox, reports)
	}
	var sum uint64
	for range series {
		sum += <-reports
	}
	return sum
}

// rateActor answers each term x with (r*x)*(1-x) until its mailbox is closed.
func rateActor(r float64, mailbox <-chan termRequest) {
	for req := range mailbox {
		req.reply <- float64(r*req.x) * (1.0 - req.x)
	}
}

// logSeries computes its terms through its rate actor and reports the sum of their
// floor(x * 2^32).
func logSeries(x float64, terms int, rate chan<- termRequest, reports chan<- uint64) {
	answer := make(chan float64, 1)
	var sum uint64
	for range terms {
		rate <- termRequest{x: x, reply: answer}
		x = <-answer
		sum += uint64(math.Floor(x * 4294967296.0))
	}
	close(rate)
	reports <- sum
}
