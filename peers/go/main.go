// Command footlights-peer-go is the Go peer of the footlights actor benchmark suite: the
// benchmarks of docs/benchmarks.md written the way Go programmers write
// actors. An actor is a goroutine, its mailbox is a channel, messages are typed structs
// sent on channels, and a reply travels over a channel carried in the request.
//
// Usage: footlights-peer-go BENCH [NAME=VALUE ...]
//
// The thread count is GOMAXPROCS, which the Go runtime reads from the environment itself.
// On success the program prints one line, `result bench=NAME check=VALUE seconds=S`, on
// stdout and exits 0; S is the work time, read from the monotonic clock just before the
// benchmark starts its first goroutine and again when its check is known (the Go
// runtime's own start, before main, is not part of it). Bad input exits 2 with one line on stderr;
// a run that fails exits 1 with one line on stderr. The benchmark runs in this process;
// a memory limit, where one is wanted, is the harness's to enforce, for every
// implementation alike.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	b, v, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	line, err := execute(b, v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s: %v\n", b.name, err)
		os.Exit(1)
	}
	fmt.Println(line)
}

// execute runs a benchmark and returns its result line, work time included.
func execute(b *benchmark, v values) (string, error) {
	start := time.Now() // carries a monotonic reading, which time.Since uses
	out, err := b.run(v)
	elapsed := time.Since(start)
	if err != nil {
		return "", err
	}
	return out.line(b.name, elapsed), nil
}

// line is the result line of a successful run that took `elapsed`.
func (o outcome) line(bench string, elapsed time.Duration) string {
	s := "result bench=" + bench + " check=" + o.check
	if o.extra != "" {
		s += " " + o.extra
	}
	return s + " seconds=" + strconv.FormatFloat(elapsed.Seconds(), 'f', 9, 64)
}
