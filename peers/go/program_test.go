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

// TestSavinaProgramsAsTheHarnessRunsThem runs each of the ten Savina benchmarks as a
// process at 1 and 2 threads on a small case, and feeds each a bad value: the result
// line carries the oracle's check, and bad input exits 2 with one stderr line that
// names the benchmark, the parameter and the value.
func TestSavinaProgramsAsTheHarnessRunsThem(t *testing.T) {
	for _, c := range []struct {
		args  []string
		check string
		bad   string // an argument out of range
		want  string // its stderr line
	}{
		{[]string{"fjthrput", "actors=3", "messages=5"}, "15:9541978460438545511",
			"actors=0", "error: fjthrput: actors=0 is out of range (1..=100000)\n"},
		{[]string{"fjcreate", "actors=10"}, "10:7438657777315996608",
			"actors=10000001", "error: fjcreate: actors=10000001 is out of range (1..=10000000)\n"},
		{[]string{"concdict", "workers=2", "messages=50", "write_pct=100"}, "100:98:233176387078928:0",
			"write_pct=101", "error: concdict: write_pct=101 is out of range (0..=100)\n"},
		{[]string{"concsll", "workers=1", "messages=20", "write_pct=50", "size_pct=10"}, "20:9:36599:0",
			"size_pct=x", "error: concsll: size_pct=x is not a non-negative integer\n"},
		{[]string{"bndbuffer", "buffer=2", "producers=3", "consumers=2", "items=10", "cost=3"}, "30:14693027747183956667",
			"buffer=0", "error: bndbuffer: buffer=0 is out of range (1..=1000000)\n"},
		{[]string{"philosopher", "philosophers=2", "rounds=10"}, "20",
			"philosophers=0", "error: philosopher: philosophers=0 is out of range (1..=10000)\n"},
		{[]string{"barber", "haircuts=10", "room=1", "arrival=5", "cut=50"}, "10:1351256199984715530",
			"room=0", "error: barber: room=0 is out of range (1..=1000000)\n"},
		{[]string{"cigsmok", "rounds=10", "smokers=3"}, "20:7265486000446837202",
			"smokers=0", "error: cigsmok: smokers=0 is out of range (1..=100000)\n"},
		{[]string{"logmap", "terms=100", "series=2", "rate=36000", "increment=40"}, "556817300049",
			"rate=36001", "error: logmap: rate=36001 is out of range (0..=36000)\n"},
		{[]string{"banking", "accounts=3", "transactions=20"}, "20:6004220",
			"accounts=1", "error: banking: accounts=1 is out of range (2..=1000000)\n"},
	} {
		for _, threads := range []int{1, 2} {
			status, stdout, stderr := runProgram(t, threads, c.args...)
			prefix := "result bench=" + c.args[0] + " check=" + c.check + " seconds="
			if status != 0 || stderr != "" || !strings.HasPrefix(stdout, prefix) ||
				strings.Count(stdout, "\n") != 1 {
				t.Errorf("GOMAXPROCS=%d %q: exit %d, stdout %q, stderr %q; want one line %s...",
					threads, c.args, status, stdout, stderr, prefix)
			}
		}
		status, stdout, stderr := runProgram(t, 1, c.args[0], c.bad)
		if status != 2 || stdout != "" || stderr != c.want {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2, stderr %q",
				c.args[0], c.bad, status, stdout, stderr, c.want)
		}
	}
}
