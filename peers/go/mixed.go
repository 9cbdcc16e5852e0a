// mixed: token rings created and ended, next to CPU-bound factorisations.
//
// Each of the `rings` masters is a goroutine with a mailbox for the token and a worker
// goroutine of its own, which takes calc requests from a channel. A master does `reps`
// repetitions of:
//
//  1. send a calc request to its worker, which factorises 28350160440309881 by trial
//     division and sends the two factors to the one shared collector goroutine;
//  2. start ring_size-1 chain goroutines, each with a mailbox, linked in a ring that
//     leaves from the master and comes back to the master's mailbox;
//  3. send the token round: a chain actor forwards every token and returns after it
//     has forwarded 0; the master forwards t-1 when it receives t > 0, and ends the
//     repetition when it receives 0, which every chain actor has forwarded before
//     returning.
//
// After its last repetition a master closes its worker's channel, which ends the worker,
// and tells the main goroutine it is done. The collector checks every pair of factors
// (both above 1, product exactly 28350160440309881) and, once it has received
// rings*reps pairs, answers how many were right: that count is the check. The run ends
// when the collector has answered and every master is done.
//
// Token mailboxes hold one token, as there is one token per ring. The collector's
// channel has room for a result from every master, so workers rarely wait on it.
package main

import (
	"math/bits"
	"strconv"
	"sync"
)

var mixedBench = benchmark{
	name: "mixed",
	params: []param{
		{name: "rings", quick: 4, least: 1, most: 10_000},
		{name: "ring_size", quick: 50, least: 2, most: 100_000},
		{name: "token", quick: 100, least: 0, most: 100_000_000},
		{name: "reps", quick: 2, least: 1, most: 1000},
	},
	run: func(v values) (outcome, error) {
		verified := mixed(v["rings"], v["ring_size"], v["token"], v["reps"])
		return outcome{check: strconv.Itoa(verified)}, nil
	},
}

// mixedNumber is the number every worker factorises: 86028157 * 329545133.
const mixedNumber uint64 = 28350160440309881

// calc asks a worker to factorise n.
type calc struct {
	n uint64
}

// factors is a worker's answer to the collector.
type factors struct {
	n, p, q uint64
}

// mixed runs the masters and returns the number of verified factorisations.
func mixed(rings, ringSize, token, reps int) int {
	results := make(chan factors, rings)
	verified := make(chan int)
	go collector(rings*reps, results, verified)
	var masters sync.WaitGroup
	for range rings {
		masters.Go(func() { master(ringSize, token, reps, results) })
	}
	count := <-verified
	masters.Wait()
	return count
}

// master runs its repetitions, then ends its worker.
func master(ringSize, token, reps int, results chan<- factors) {
	work := make(chan calc, reps)
	go factorWorker(work, results)
	defer close(work)
	mailbox := make(chan int, 1)
	for range reps {
		work <- calc{n: mixedNumber}
		next := chan<- int(mailbox)
		for range ringSize - 1 {
			link := make(chan int, 1)
			go chainActor(link, next)
			next = link
		}
		next <- token
		for t := range mailbox {
			if t == 0 {
				break
			}
			next <- t - 1
		}
	}
}

// chainActor forwards tokens until it has forwarded 0.
func chainActor(mailbox <-chan int, next chan<- int) {
	for t := range mailbox {
		next <- t
		if t == 0 {
			return
		}
	}
}

// factorWorker answers calc requests until its channel is closed.
func factorWorker(work <-chan calc, results chan<- factors) {
	for c := range work {
		p, q := factorise(c.n)
		results <- factors{n: c.n, p: p, q: q}
	}
}

// factorise returns the smallest prime factor p of n and n/p, by trial division by 2
// and the odd numbers up to the square root. A prime n gives (n, 1).
func factorise(n uint64) (p, q uint64) {
	if n%2 == 0 && n > 2 {
		return 2, n / 2
	}
	for d := uint64(3); d*d <= n; d += 2 {
		if n%d == 0 {
			return d, n / d
		}
	}
	return n, 1
}

// collector receives `expected` factorisations and answers how many were right.
func collector(expected int, results <-chan factors, verified chan<- int) {
	right := 0
	for range expected {
		f := <-results
		hi, lo := bits.Mul64(f.p, f.q)
		if f.n == mixedNumber && f.p > 1 && f.q > 1 && hi == 0 && lo == f.n {
			right++
		}
	}
	verified <- right
}
