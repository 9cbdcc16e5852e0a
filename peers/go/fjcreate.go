// fjcreate: fork-join creation, many actors that each handle one message and end
// (Savina's ForkJoin creation).
//
// The caller starts actors 0..actors-1 one after the other: each is a goroutine with a
// one-slot mailbox, and actor k is sent the message k right after it is started, without
// waiting for anything. An actor receives its message, computes step(k), reports it on
// the collector's channel and returns, which ends it. The collector, a goroutine started
// first, adds up the reports as they come and hands over HANDLED:DIGEST once all have
// arrived, so the actors end while later ones are still being created.
package main

var fjcreateBench = benchmark{
	name: "fjcreate",
	params: []param{
		{name: "actors", quick: 20_000, least: 1, most: 10_000_000},
	},
	run: func(v values) (outcome, error) {
		t := fjcreate(v["actors"])
		return outcome{check: joinChecks(t.count, t.digest)}, nil
	},
}

// fjcreateReports is the capacity of the collector's channel.
const fjcreateReports = 1024

// fjcreate creates the actors, sends each its message, and returns the collector's totals.
func fjcreate(actors int) tally {
	reports := make(chan uint64, fjcreateReports)
	total := make(chan tally)
	go fjcreateCollector(actors, reports, total)
	for k := range actors {
		mailbox := make(chan uint64, 1)
		go fjcreateActor(mailbox, reports)
		mailbox <- uint64(k)
	}
	return <-total
}

// fjcreateActor handles its one message and ends.
func fjcreateActor(mailbox <-chan uint64, reports chan<- uint64) {
	reports <- step(<-mailbox)
}

// fjcreateCollector adds up `actors` reports.
func fjcreateCollector(actors int, reports <-chan uint64, total chan<- tally) {
	var t tally
	for range actors {
		t.digest += <-reports
		t.count++
	}
	total <- t
}
