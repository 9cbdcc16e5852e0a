package main

import "testing"

// TestSplitmixKnownValues checks the generator against the values docs/benchmarks.md lists.
func TestSplitmixKnownValues(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		want [3]uint64
	}{
		{0, [3]uint64{16294208416658607535, 7960286522194355700, 487617019471545679}},
		{1, [3]uint64{10451216379200822465, 13757245211066428519, 17911839290282890590}},
	} {
		g := splitmix{state: c.seed}
		for i, w := range c.want {
			if got := g.next(); got != w {
				t.Errorf("seed %d, draw %d: %d, want %d", c.seed, i, got, w)
			}
		}
	}
	if got := step(0); got != 16294208416658607535 {
		t.Errorf("step(0) = %d", got)
	}
	if got := work(0, 2); got != 12035550249420947055 {
		t.Errorf("work(0, 2) = %d", got)
	}
	if got := work(5, 1000); got != 2513630078224190977 {
		t.Errorf("work(5, 1000) = %d", got)
	}
	if got := work(7, 0); got != 7 {
		t.Errorf("work(7, 0) = %d", got)
	}
}
