// Tests of the Go peer against the benchmark contract (docs/benchmarks.md).
//
// TestVectors runs every line of the repository's docs/vectors.tsv in this process,
// through the same argument parsing as the program, compares the check, and then waits
// for every goroutine the run started to end (actors must finish, not leak). The file is
// read from ../../docs/vectors.tsv (relative to peers/go), or from the path in the
// VECTORS environment variable. TestBadInput feeds the malformed command lines of the
// contract's "Bad input" table to parseArgs and compares the error lines word for word.
package main

import (
	"bufio"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vectorTimeout bounds one vector, so that a benchmark that hangs fails the test.
const vectorTimeout = 2 * time.Minute

func vectorsPath() string {
	if p := os.Getenv("VECTORS"); p != "" {
		return p
	}
	return "../../docs/vectors.tsv"
}

func TestVectors(t *testing.T) {
	f, err := os.Open(vectorsPath())
	if err != nil {
		t.Fatalf("cannot read the test vectors (set VECTORS to their path): %v", err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	count := 0
	for lines.Scan() {
		line := lines.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("malformed vector line %q", line)
		}
		bench, params, want := fields[0], fields[1], fields[2]
		count++
		t.Run(bench+" "+params, func(t *testing.T) {
			args := append([]string{bench}, strings.Fields(params)...)
			b, v, err := parseArgs(args)
			if err != nil {
				t.Fatalf("parseArgs(%q): %v", args, err)
			}
			before := runtime.NumGoroutine()
			out := runWithin(t, b, v)
			if out.check != want {
				t.Fatalf("check=%s, want %s", out.check, want)
			}
			if bench == "chameneos" {
				checkCounts(t, out, v["creatures"])
			}
			awaitGoroutines(t, before)
		})
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if count == 0 {
		t.Fatal("no test vectors found")
	}
}

// runWithin runs a benchmark and fails the test if it errs or outlasts vectorTimeout.
func runWithin(t *testing.T, b *benchmark, v values) outcome {
	t.Helper()
	type ran struct {
		out outcome
		err error
	}
	done := make(chan ran, 1)
	go func() {
		out, err := b.run(v)
		done <- ran{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("run failed: %v", r.err)
		}
		return r.out
	case <-time.After(vectorTimeout):
		t.Fatalf("run did not finish within %v", vectorTimeout)
		return outcome{}
	}
}

// awaitGoroutines waits until no more than `before` goroutines are left: the actors of
// a run end soon after it answers (threadring's ring closes one mailbox at a time).
func awaitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still running after the run, %d before it",
				runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkCounts verifies chameneos' counts: one per creature, summing to the check.
func checkCounts(t *testing.T, out outcome, creatures int) {
	t.Helper()
	list, ok := strings.CutPrefix(out.extra, "counts=")
	if !ok {
		t.Fatalf("extra %q lacks counts=", out.extra)
	}
	counts := strings.Split(list, ",")
	if len(counts) != creatures {
		t.Fatalf("%d counts for %d creatures", len(counts), creatures)
	}
	sum := 0
	for _, c := range counts {
		n, err := strconv.Atoi(c)
		if err != nil {
			t.Fatalf("count %q: %v", c, err)
		}
		sum += n
	}
	if strconv.Itoa(sum) != out.check {
		t.Fatalf("counts sum to %d, check is %s", sum, out.check)
	}
}

func TestBadInput(t *testing.T) {
	known := "threadring, chameneos, big, fannkuch, fibtree, skynet, spreading, mixed, bang, serialmsg, pingpong, counting, " +
		"fjthrput, fjcreate, concdict, concsll, bndbuffer, philosopher, barber, cigsmok, logmap, banking"
	cases := []struct {
		args []string
		want string // "" for input that is valid
	}{
		{nil, "no benchmark given (known: " + known + ")"},
		{[]string{"foo"}, "unknown benchmark 'foo' (known: " + known + ")"},
		{[]string{"threadring", "hops"}, "threadring: argument 'hops' is not NAME=VALUE"},
		{[]string{"threadring", "foo=1"}, "threadring: unknown parameter foo=1 (known: actors, hops)"},
		{[]string{"threadring", "hops=5", "hops=5"}, "threadring: parameter hops=5 given twice"},
		{[]string{"threadring", "hops=abc"}, "threadring: hops=abc is not a non-negative integer"},
		{[]string{"threadring", "hops=-1"}, "threadring: hops=-1 is not a non-negative integer"},
		{[]string{"threadring", "hops="}, "threadring: hops= is not a non-negative integer"},
		{[]string{"threadring", "hops=+5"}, "threadring: hops=+5 is not a non-negative integer"},
		{[]string{"threadring", "actors=0"}, "threadring: actors=0 is out of range (1..=1000000)"},
		{[]string{"threadring", "hops=99999999999999999999999"},
			"threadring: hops=99999999999999999999999 is out of range (0..=1000000000)"},
		{[]string{"fannkuch", "n=13"}, "fannkuch: n=13 is out of range (3..=12)"},
		{[]string{"fannkuch", "n=2"}, "fannkuch: n=2 is out of range (3..=12)"},
		{[]string{"fibtree", "n=41"}, "fibtree: n=41 is out of range (0..=40)"},
		{[]string{"skynet", "size=1000", "div=7"}, "skynet: size=1000 is not a power of div=7"},
		{[]string{"skynet", "size=1000"}, ""},       // 10^3: valid
		{[]string{"skynet", "size=1", "div=7"}, ""}, // 7^0: valid
		{[]string{"fannkuch", "n=012"}, ""},         // leading zeros are decimal
		{[]string{"skynet", "size=20", "div=4"}, "skynet: size=20 is not a power of div=4"},
		{[]string{"skynet", "div=1"}, "skynet: div=1 is out of range (2..=1000)"},
		{[]string{"mixed", "ring_size=1"}, "mixed: ring_size=1 is out of range (2..=100000)"},
		{[]string{"chameneos", "creatures=1"}, "chameneos: creatures=1 is out of range (2..=1000000)"},
	}
	for _, c := range cases {
		_, _, err := parseArgs(c.args)
		if c.want == "" {
			if err != nil {
				t.Errorf("parseArgs(%q): unexpected error %v", c.args, err)
			}
			continue
		}
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("parseArgs(%q) = %v, want usage error %q", c.args, err, c.want)
			continue
		}
		if usage.Error() != c.want {
			t.Errorf("parseArgs(%q):\n got  %q\n want %q", c.args, usage.Error(), c.want)
		}
	}
}

// TestBadInputNamesEverything checks what the contract's tests grep for.
func TestBadInputNamesEverything(t *testing.T) {
	for _, c := range []struct {
		args  []string
		words []string
	}{
		{[]string{"fannkuch", "n=13"}, []string{"fannkuch", "n=13"}},
		{[]string{"skynet", "size=1000", "div=7"}, []string{"skynet", "size=1000", "div=7"}},
	} {
		_, _, err := parseArgs(c.args)
		if err == nil {
			t.Fatalf("parseArgs(%q) accepted bad input", c.args)
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not name %q", err, w)
			}
		}
	}
}

func TestDefaultsAreQuickValues(t *testing.T) {
	for _, b := range benchmarks {
		_, v, err := parseArgs([]string{b.name})
		if err != nil {
			t.Fatalf("%s with defaults: %v", b.name, err)
		}
		for _, p := range b.params {
			if v[p.name] != p.quick {
				t.Errorf("%s: %s=%d, want quick value %d", b.name, p.name, v[p.name], p.quick)
			}
		}
	}
}
