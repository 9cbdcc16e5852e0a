// The memory guard: a run that cannot fit in memory fails cleanly instead of thrashing.
//
// Goroutines are cheap but not free: each starts with a stack of a few kilobytes, so the
// largest parameters the contract allows (mixed with 10,000 rings of 100,000 actors, or
// a tree benchmark whose nodes all wait at once) need more memory than a machine has.
// Go has no hard memory limit of its own (GOMEMLIMIT only makes the collector work
// harder), and running out ends in the kernel's OOM killer or a runtime crash, neither
// of which says what happened.
//
// So main starts a guard goroutine before the run. When the run starts, the guard takes
// as its budget four fifths of the memory the machine (or the cgroup) has available.
// Every few milliseconds it reads from runtime/metrics how much memory the Go runtime
// holds, and if that passes the budget it prints one line on stderr and exits with
// status 1. The guard sleeps on a ticker between looks; it takes no part in the run.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// guardPeriod is how often the guard looks at the memory in use.
const guardPeriod = 10 * time.Millisecond

// guardMemory starts the guard for a run of bench and returns the function that stops
// it. Where the available memory cannot be read, there is no guard.
func guardMemory(bench string) (stop func()) {
	available, ok := availableMemory()
	if !ok {
		return func() {}
	}
	budget := available / 5 * 4
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		samples := []metrics.Sample{
			{Name: "/memory/classes/total:bytes"},
			{Name: "/memory/classes/heap/released:bytes"},
		}
		tick := time.NewTicker(guardPeriod)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(samples)
				held := samples[0].Value.Uint64() - samples[1].Value.Uint64()
				if held > budget {
					fmt.Fprintf(os.Stderr, "error: %s: out of memory: the run holds %s, over its budget of %s "+
						"(4/5 of the memory available at start); it cannot finish with these parameters\n",
						bench, gib(held), gib(budget))
					os.Exit(1)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// availableMemory is the memory this process may still use: MemAvailable from
// /proc/meminfo, or less if a cgroup v2 limit leaves less.
func availableMemory() (uint64, bool) {
	available, ok := meminfoAvailable()
	if !ok {
		return 0, false
	}
	limit, okLimit := readUint("/sys/fs/cgroup/memory.max")
	current, okCurrent := readUint("/sys/fs/cgroup/memory.current")
	if okLimit && okCurrent && limit > current {
		available = min(available, limit-current)
	}
	return available, true
}

func meminfoAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) == 3 && fields[0] == "MemAvailable:" && fields[2] == "kB" {
			kib, err := strconv.ParseUint(fields[1], 10, 64)
			return kib * 1024, err == nil
		}
	}
	return 0, false
}

// readUint reads a file that holds one decimal number ("max" and errors give false).
func readUint(path string) (uint64, bool) {
	text, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(text)), 10, 64)
	return n, err == nil
}

func gib(bytes uint64) string {
	return fmt.Sprintf("%.1f GiB", float64(bytes)/(1<<30))
}
