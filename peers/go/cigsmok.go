// cigsmok: cigarette smokers and an arbiter (Savina's cigarette smokers).
//
// The arbiter is a goroutine with a generator seeded with 0 and a one-slot channel on
// which smokers say they have started; smoker s is a goroutine whose mailbox carries
// the arbiter's orders. In each round r the arbiter draws s = below(smokers) and
// t = below(1000), tells smoker s to smoke (r and t), and waits until the smoker says it
// has started before the next round. A smoker says it has started, then smokes: it
// counts the smoke and adds work(r, t) to its digest. After the last round the arbiter
// tells every smoker to stop; each reports its id, count and digest, and the arbiter
// hands WEIGHTED:DIGEST (WEIGHTED the sum of (id+1)*count) to the caller.
//
// A smoker's mailbox holds two orders: it may still be smoking when the arbiter sends it
// the next round, and then be told to stop.
package main

var cigsmokBench = benchmark{
	name: "cigsmok",
	params: []param{
		{name: "rounds", quick: 1000, least: 0, most: 100_000_000},
		{name: "smokers", quick: 200, least: 1, most: 100_000},
	},
	run: func(v values) (outcome, error) {
		weighted, digest := cigsmok(v["rounds"], v["smokers"])
		return outcome{check: joinChecks(weighted, digest)}, nil
	},
}

// smokeOrder tells a smoker to smoke in round `round` for t units, or to stop.
type smokeOrder struct {
	round, t uint64
	stop     bool
}

// smokerReport is a stopped smoker's count and digest.
type smokerReport struct {
	id uint64
	tally
}

// cigsmok runs the arbiter and the smokers and returns the arbiter's totals.
func cigsmok(rounds, smokers int) (weighted, digest uint64) {
	mailboxes := make([]chan smokeOrder, smokers)
	started := make(chan struct{}, 1)
	reports := make(chan smokerReport, smokers)
	for s := range mailboxes {
		mailboxes[s] = make(chan smokeOrder, 2)
		go smoker(uint64(s), mailboxes[s], started, reports)
	}
	result := make(chan [2]uint64)
	go arbiter(rounds, mailboxes, started, reports, result)
	t := <-result
	return t[0], t[1]
}

// arbiter runs the rounds, stops the smokers, adds up their reports and hands over
// WEIGHTED and DIGEST.
func arbiter(rounds int, smokers []chan smokeOrder, started <-chan struct{}, reports <-chan smokerReport, result chan<- [2]uint64) {
	var weighted, digest uint64
	g := splitmix{}
	n := uint64(len(smokers))
	for r := range uint64(rounds) {
		s := g.below(n)
		t := g.below(1000)
		smokers[s] <- smokeOrder{round: r, t: t}
		<-started
	}
	for _, s := range smokers {
		s <- smokeOrder{stop: true}
	}
	for range smokers {
		rep := <-reports
		weighted += (rep.id + 1) * rep.count
		digest += rep.digest
	}
	result <- [2]uint64{weighted, digest}
}

// smoker smokes whenever it is told to, until it is told to stop.
func smoker(id uint64, mailbox <-chan smokeOrder, started chan<- struct{}, reports chan<- smokerReport) {
	rep := smokerReport{id: id}
	for o := range mailbox {
		if o.stop {
			break
		}
		started <- struct{}{}
		rep.count++
		rep.digest += work(o.round, int(o.t))
	}
	reports <- rep
}
