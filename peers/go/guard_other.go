//go:build !linux

// The memory guard needs /proc and Pdeathsig, so it exists only on Linux (see
// guard_linux.go). Elsewhere the benchmark runs unguarded, in the one process.
package main

func superviseRun(string) (status int, ok bool) { return 0, false }
