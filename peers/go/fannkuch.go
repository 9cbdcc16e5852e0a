// fannkuch: fannkuch-redux split into tasks for a pool of worker goroutines.
//
// The n! permutations are numbered in the order of the Computer Language Benchmarks
// Game's fannkuch-redux. A permutation's index, written in the factorial number system,
// says how far each prefix of the identity has been rotated: digit i (0 <= digit <= i)
// counts left rotations of the first i+1 elements, applied from the longest prefix down.
// So a worker can start at any index, and from there step to the next permutation by
// rotating the first two elements and carrying into longer prefixes, like an odometer.
//
// The index range 0..n! is cut into tasks. The tasks wait in a buffered channel; one
// worker goroutine per GOMAXPROCS thread takes tasks from it until it is empty, and
// sends each task's partial result (checksum, maximum flips) to a collector goroutine.
// The collector adds the checksums and keeps the largest maximum, and when every task
// has reported it answers CHECKSUM:MAXFLIPS. For each permutation the flips are counted
// by reversing the prefix of length first+1 until 1 (here 0) comes first; the checksum
// adds the flips for an even index and subtracts them for an odd one.
package main

import (
	"fmt"
	"runtime"
)

var fannkuchBench = benchmark{
	name: "fannkuch",
	params: []param{
		{name: "n", quick: 10, least: 3, most: 12},
	},
	run: func(v values) (outcome, error) {
		checksum, maxFlips := fannkuch(v["n"])
		return outcome{check: fmt.Sprintf("%d:%d", checksum, maxFlips)}, nil
	},
}

// fannkuchTasksPerWorker is how many tasks each worker gets on average: enough that the
// workers finish together though tasks differ in cost.
const fannkuchTasksPerWorker = 16

// fannkuchTask is the index range [first, end) of permutations to visit.
type fannkuchTask struct {
	first, end int
}

// fannkuchPartial is a worker's result for one task.
type fannkuchPartial struct {
	checksum, maxFlips int
}

// fannkuch returns the checksum and the maximum flips over all n! permutations.
func fannkuch(n int) (checksum, maxFlips int) {
	total := factorial(n)
	workers := runtime.GOMAXPROCS(0)
	size := max(1, (total+workers*fannkuchTasksPerWorker-1)/(workers*fannkuchTasksPerWorker))
	tasks := make(chan fannkuchTask, (total+size-1)/size)
	count := 0
	for first := 0; first < total; first += size {
		tasks <- fannkuchTask{first: first, end: min(first+size, total)}
		count++
	}
	close(tasks)

	partials := make(chan fannkuchPartial, count)
	result := make(chan fannkuchPartial)
	go fannkuchCollector(count, partials, result)
	for range workers {
		go fannkuchWorker(n, tasks, partials)
	}
	r := <-result
	return r.checksum, r.maxFlips
}

// fannkuchCollector combines `tasks` partial results into one.
func fannkuchCollector(tasks int, partials <-chan fannkuchPartial, result chan<- fannkuchPartial) {
	var sum fannkuchPartial
	for range tasks {
		p := <-partials
		sum.checksum += p.checksum
		sum.maxFlips = max(sum.maxFlips, p.maxFlips)
	}
	result <- sum
}

// fannkuchWorker runs tasks until there are none left.
func fannkuchWorker(n int, tasks <-chan fannkuchTask, partials chan<- fannkuchPartial) {
	for t := range tasks {
		partials <- visitPermutations(n, t)
	}
}

// visitPermutations counts the flips of every permutation in the task's range. The
// permutations live in fixed arrays (n <= 12) so that the compiler can drop most bounds
// checks from the inner loops.
func visitPermutations(n int, t fannkuchTask) fannkuchPartial {
	var perm, count, flipped, rotated [16]int // count[i]: left rotations of perm[0..=i], 0..=i
	for i := range n {
		perm[i] = i
	}
	// Jump to permutation t.first: its factorial digits, longest prefix first.
	rest := t.first
	for i := n - 1; i > 0; i-- {
		f := factorial(i)
		d := rest / f
		rest %= f
		count[i] = d
		for j := 0; j <= i; j++ {
			rotated[j] = perm[(j+d)%(i+1)]
		}
		copy(perm[:i+1], rotated[:i+1])
	}

	var p fannkuchPartial
	for index := t.first; ; {
		if first := perm[0]; first != 0 {
			flipped = perm
			flips := 0
			for first != 0 {
				for lo, hi := 0, first&15; lo < hi; lo, hi = lo+1, hi-1 {
					flipped[lo], flipped[hi] = flipped[hi], flipped[lo]
				}
				flips++
				first = flipped[0]
			}
			p.maxFlips = max(p.maxFlips, flips)
			if index%2 == 0 {
				p.checksum += flips
			} else {
				p.checksum -= flips
			}
		}
		index++
		if index == t.end {
			return p
		}
		// Next permutation: rotate the first two elements; whenever a prefix has gone
		// all the way round, carry into the next longer one.
		for i := 1; ; i++ {
			head := perm[0]
			copy(perm[:i], perm[1:i+1])
			perm[i] = head
			count[i]++
			if count[i] <= i {
				break
			}
			count[i] = 0
		}
	}
}

func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		f *= i
	}
	return f
}
