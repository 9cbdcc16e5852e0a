// The memory guard: a run that cannot fit in memory fails cleanly instead of being
// killed by the kernel.
//
// Goroutines are cheap but not free: each starts with a stack of a few kilobytes, so the
// largest parameters the contract allows (mixed with 10,000 rings of 100,000 actors, or
// fibtree 40, whose queued goroutines pile up faster than they finish) need more memory
// than the machine has. Go has no hard memory limit (GOMEMLIMIT only makes the collector
// work harder), and running out ends in the kernel's OOM killer or a runtime crash,
// neither of which says what happened; on a shared machine the OOM killer may even pick
// another process.
//
// A watchdog goroutine inside the benchmark process does not work: it waits for its
// turn in the same run queues as the benchmark's goroutines, and with a few hundred
// thousand goroutines queued it was seen to wake up 10 to 27 seconds late. So the guard
// is a separate process. The program started by the harness checks its arguments, then
// starts itself again as a child, with the same arguments and standard streams and
// `FOOTLIGHTS_PEER_GO_CHILD=1` in its environment, and the child runs the benchmark.
// The parent, otherwise idle, looks every few milliseconds at the child's resident
// memory and at the memory the machine has left. If the child holds more than three
// quarters of the memory that was available at the start (or GOMEMLIMIT, when that is
// set and lower), or the machine is down to its last twentieth, the parent kills the
// child, prints one line on stderr and exits with status 1. Otherwise it exits as the
// child did: 0 or 1 as is, and any other end (a signal, a runtime crash) as status 1
// with one line on stderr.
//
// The child inherits CPU affinity and GOMAXPROCS, and it is killed if the parent dies
// (Pdeathsig), so a harness that kills the parent on a timeout leaves nothing behind.
// Resource usage reported by wait4 for the parent includes the child it waited for.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// childEnv marks the child process that runs the benchmark itself.
const childEnv = "FOOTLIGHTS_PEER_GO_CHILD"

// guardPeriod is how often the parent looks at memory.
const guardPeriod = 10 * time.Millisecond

// superviseRun runs this program again as a guarded child and returns the exit status
// for the parent. ok is false where no guard is needed (this is the child) or possible
// (no /proc); then the caller runs the benchmark itself.
func superviseRun(bench string) (status int, ok bool) {
	if os.Getenv(childEnv) != "" {
		return 0, false
	}
	self, err := os.Executable()
	if err != nil {
		return 0, false
	}
	mem, err := readMeminfo()
	if err != nil {
		return 0, false
	}
	budget, source := mem.available/4*3, "3/4 of the memory available at start"
	if limit := debug.SetMemoryLimit(-1); limit > 0 && uint64(limit) < budget {
		budget, source = uint64(limit), "GOMEMLIMIT"
	}
	reserve := mem.total / 20

	child := exec.Command(self, os.Args[1:]...)
	child.Env = append(os.Environ(), childEnv+"=1")
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Pdeathsig fires when the thread that started the child ends; keep it alive.
	runtime.LockOSThread()
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := child.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "error: %s: cannot start the benchmark process: %v\n", bench, err)
		return 1, true
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()

	tick := time.NewTicker(guardPeriod)
	defer tick.Stop()
	statm := "/proc/" + strconv.Itoa(child.Process.Pid) + "/statm"
	for {
		select {
		case err := <-exited:
			return childStatus(bench, err), true
		case <-tick.C:
			held, errHeld := residentBytes(statm)
			now, errNow := readMeminfo()
			var reason string
			switch {
			case errHeld == nil && held > budget:
				reason = fmt.Sprintf("the run holds %s, over its budget of %s (%s)",
					mib(held), mib(budget), source)
			case errNow == nil && now.available < reserve:
				reason = fmt.Sprintf("the machine has only %s left (the run holds %s)",
					mib(now.available), mib(held))
			default:
				continue
			}
			_ = child.Process.Kill()
			<-exited
			fmt.Fprintf(os.Stderr, "error: %s: out of memory: %s; it cannot finish with these parameters\n",
				bench, reason)
			return 1, true
		}
	}
}

// childStatus is the parent's exit status for the way the child ended.
func childStatus(bench string, err error) int {
	if err == nil {
		return 0
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return 1 // the child has said what failed
	}
	fmt.Fprintf(os.Stderr, "error: %s: the benchmark process ended abnormally (%v)\n", bench, err)
	return 1
}

// meminfo holds the two figures of /proc/meminfo the guard uses, in bytes.
type meminfo struct {
	total, available uint64
}

func readMeminfo() (meminfo, error) {
	text, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return meminfo{}, err
	}
	var m meminfo
	found := 0
	for line := range strings.Lines(string(text)) {
		fields := strings.Fields(line)
		if len(fields) != 3 || fields[2] != "kB" {
			continue
		}
		var into *uint64
		switch fields[0] {
		case "MemTotal:":
			into = &m.total
		case "MemAvailable:":
			into = &m.available
		default:
			continue
		}
		kib, err := strconv.ParseUint(fields[1], 10, 64)
		if err != nil {
			return meminfo{}, err
		}
		*into = kib * 1024
		found++
	}
	if found != 2 {
		return meminfo{}, errors.New("/proc/meminfo lacks MemTotal or MemAvailable")
	}
	return m, nil
}

// residentBytes reads a process's resident set size from its /proc/PID/statm.
func residentBytes(statm string) (uint64, error) {
	text, err := os.ReadFile(statm)
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(text))
	if len(fields) < 2 {
		return 0, errors.New(statm + " is malformed")
	}
	pages, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		return 0, err
	}
	return pages * uint64(os.Getpagesize()), nil
}

func mib(bytes uint64) string {
	return fmt.Sprintf("%d MiB", bytes>>20)
}
