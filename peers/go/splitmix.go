// splitmix: the contract's one random-number generator, and its unit of CPU work.
//
// SplitMix64 (docs/benchmarks.md, "The generator and the arithmetic"): the state
// advances by the golden-ratio constant and each output is the state put through a
// three-round mixing function. `step` is one such advance-and-mix of a given value,
// and `work(x, n)` applies it n times: it is what the Savina programs' busy waits and
// small computations become, so that the work has a result that goes into the check.
// All arithmetic is on uint64 and wraps, as Go's unsigned arithmetic does.
package main

// gamma is SplitMix64's increment, 2^64 divided by the golden ratio, rounded to odd.
const gamma uint64 = 0x9E3779B97F4A7C15

// mix is SplitMix64's output function.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// step is one advance-and-mix of x: the value a generator in state x returns next.
func step(x uint64) uint64 {
	return mix(x + gamma)
}

// work applies step n times to x (work(x, 0) = x).
func work(x uint64, n int) uint64 {
	for range n {
		x = mix(x + gamma)
	}
	return x
}

// splitmix is one actor's generator; the zero value is seeded with 0.
type splitmix struct {
	state uint64
}

// next advances the state and returns its mix.
func (g *splitmix) next() uint64 {
	g.state += gamma
	return mix(g.state)
}

// below returns next() mod n, for n >= 1.
func (g *splitmix) below(n uint64) uint64 {
	return g.next() % n
}
