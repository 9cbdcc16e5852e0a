// Command footlights-peer-go is the Go peer of the footlights actor benchmark suite: the
// twelve benchmarks of shared/spec/benchmarks.md written the way Go programmers write
// actors. An actor is a goroutine, its mailbox is a channel, messages are typed structs
// sent on channels, and a reply travels over a channel carried in the request.
//
// Usage: footlights-peer-go BENCH [NAME=VALUE ...]
//
// The thread count is GOMAXPROCS, which the Go runtime reads from the environment itself.
// On success the program prints one line, `result bench=NAME check=VALUE`, on stdout and
// its in-process time on stderr, and exits 0. Bad input exits 2 with one line on stderr;
// a run that fails exits 1 with one line on stderr. On Linux the run happens in a
// child process watched by a memory guard (guard_linux.go), so that parameters too big
// for the machine end in a clear error rather than in the kernel's OOM killer.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

func main() {
	b, v, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	if status, supervised := superviseRun(b.name); supervised {
		os.Exit(status)
	}
	start := time.Now()
	out, err := b.run(v)
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s: %v\n", b.name, err)
		os.Exit(1)
	}
	fmt.Println(out.line(b.name))
	fmt.Fprintf(os.Stderr, "time bench=%s gomaxprocs=%d seconds=%.6f\n",
		b.name, runtime.GOMAXPROCS(0), elapsed.Seconds())
}

// line is the result line of a successful run.
func (o outcome) line(bench string) string {
	s := "result bench=" + bench + " check=" + o.check
	if o.extra != "" {
		s += " " + o.extra
	}
	return s
}
