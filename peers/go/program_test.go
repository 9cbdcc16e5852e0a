// Tests of the program as a process: what the harness sees.
//
// TestMain lets the test binary stand in for the program: started with
// FOOTLIGHTS_PEER_GO_AS_PROGRAM=1 in its environment it runs main() on its own arguments
// instead of the tests. The tests below start it that way, with GOMAXPROCS set as the
// harness sets it, and read its exit status, stdout and stderr.
package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

const asProgramEnv = "FOOTLIGHTS_PEER_GO_AS_PROGRAM"

func TestMain(m *testing.M) {
	if os.Getenv(asProgramEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runProgram runs this binary as the program with the given GOMAXPROCS and arguments.
func runProgram(t *testing.T, threads int, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asProgramEnv+"=1", "GOMAXPROCS="+strconv.Itoa(threads))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		status = exit.ExitCode()
	default:
		t.Fatalf("cannot run the program: %v", err)
	}
	return status, out.String(), errOut.String()
}

// TestResultLineHasWorkTime checks the one result line and its positive `seconds=` at 1
// and 2 threads, for a benchmark without and one with extra pairs.
func TestResultLineHasWorkTime(t *testing.T) {
	for _, threads := range []int{1, 2} {
		for _, c := range []struct {
			args   []string
			prefix string
		}{
			{[]string{"pingpong", "pings=3"}, "result bench=pingpong check=3 seconds="},
			{[]string{"chameneos", "creatures=2", "meetings=5"},
				"result bench=chameneos check=10 counts=5,5 seconds="},
		} {
			status, stdout, stderr := runProgram(t, threads, c.args...)
			if status != 0 || stderr != "" {
				t.Fatalf("GOMAXPROCS=%d %q: exit %d, stderr %q", threads, c.args, status, stderr)
			}
			line, ok := strings.CutSuffix(stdout, "\n")
			if !ok || strings.Contains(line, "\n") {
				t.Fatalf("GOMAXPROCS=%d %q: stdout %q is not one line", threads, c.args, stdout)
			}
			text, ok := strings.CutPrefix(line, c.prefix)
			if !ok {
				t.Fatalf("GOMAXPROCS=%d: line %q does not start with %q", threads, line, c.prefix)
			}
			seconds, err := strconv.ParseFloat(text, 64)
			if err != nil || !(seconds > 0) {
				t.Fatalf("GOMAXPROCS=%d: seconds=%q is not a positive number", threads, text)
			}
		}
	}
}

// TestBadInputExits2 checks the exit status and the one stderr line of bad input.
func TestBadInputExits2(t *testing.T) {
	status, stdout, stderr := runProgram(t, 1, "skynet", "size=1000", "div=7")
	want := "error: skynet: size=1000 is not a power of div=7\n"
	if status != 2 || stdout != "" || stderr != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2, no stdout, stderr %q",
			status, stdout, stderr, want)
	}
}
