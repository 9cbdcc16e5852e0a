// Command-line parsing and validation, to the letter of docs/benchmarks.md ("Bad input and failures").
//
// Invocation is `footlights-peer-go BENCH [NAME=VALUE ...]`. Each benchmark file
// declares its parameters (name, quick default, inclusive range) in a benchmark value;
// this file looks the benchmark up, reads the NAME=VALUE arguments one by one, fills in
// the quick defaults for the parameters not given, and applies the benchmark's extra
// rule (only skynet has one). Any mistake becomes a usageError whose text is the single
// line the contract prescribes; main prints it after "error: " and exits with status 2.
//
// Values are non-negative decimal integers: digits only, no sign, no underscores. A
// number too large for 64 bits is reported as out of range, like any other value
// outside the parameter's range.
package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// param is one parameter of a benchmark: its name, its quick default and its inclusive range.
type param struct {
	name        string
	quick       int
	least, most int
}

// values maps every parameter of a benchmark to the value it runs with.
type values map[string]int

// outcome is what a run prints after `result bench=NAME`: the check and, for chameneos,
// further key=value pairs.
type outcome struct {
	check string
	extra string
}

// benchmark describes one benchmark of the contract: its name, its parameters, an
// optional rule that relates parameters, and the function that runs it.
type benchmark struct {
	name   string
	params []param
	rule   func(values) error
	run    func(values) (outcome, error)
}

// benchmarks lists the contract's benchmarks, in the contract's order.
var benchmarks = []*benchmark{
	&threadringBench,
	&chameneosBench,
	&bigBench,
	&fannkuchBench,
	&fibtreeBench,
	&skynetBench,
	&spreadingBench,
	&mixedBench,
	&bangBench,
	&serialmsgBench,
	&pingpongBench,
	&countingBench,
	&fjthrputBench,
	&fjcreateBench,
	&concdictBench,
	&concsllBench,
	&bndbufferBench,
	&philosopherBench,
	&barberBench,
	&cigsmokBench,
	&logmapBench,
	&bankingBench,
}

// usageError is bad input: the message is the contract's stderr line without "error: ".
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error {
	return usageError{fmt.Sprintf(format, a...)}
}

// parseArgs turns the command-line arguments (without the program name) into the
// benchmark to run and the complete set of its parameter values.
func parseArgs(args []string) (*benchmark, values, error) {
	if len(args) == 0 {
		return nil, nil, usagef("no benchmark given (known: %s)", knownBenchmarks())
	}
	b := lookupBenchmark(args[0])
	if b == nil {
		return nil, nil, usagef("unknown benchmark '%s' (known: %s)", args[0], knownBenchmarks())
	}
	v := values{}
	for _, arg := range args[1:] {
		name, text, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, nil, usagef("%s: argument '%s' is not NAME=VALUE", b.name, arg)
		}
		p := b.param(name)
		if p == nil {
			return nil, nil, usagef("%s: unknown parameter %s (known: %s)", b.name, arg, b.knownParams())
		}
		if _, seen := v[name]; seen {
			return nil, nil, usagef("%s: parameter %s given twice", b.name, arg)
		}
		n, err := strconv.ParseUint(text, 10, 64)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return nil, nil, p.outOfRange(b.name, text)
		case err != nil:
			return nil, nil, usagef("%s: %s is not a non-negative integer", b.name, arg)
		case n < uint64(p.least) || n > uint64(p.most):
			return nil, nil, p.outOfRange(b.name, text)
		}
		v[name] = int(n)
	}
	for _, p := range b.params {
		if _, given := v[p.name]; !given {
			v[p.name] = p.quick
		}
	}
	if b.rule != nil {
		if err := b.rule(v); err != nil {
			return nil, nil, err
		}
	}
	return b, v, nil
}

func (p *param) outOfRange(bench, text string) error {
	return usagef("%s: %s=%s is out of range (%d..=%d)", bench, p.name, text, p.least, p.most)
}

func lookupBenchmark(name string) *benchmark {
	for _, b := range benchmarks {
		if b.name == name {
			return b
		}
	}
	return nil
}

func knownBenchmarks() string {
	names := make([]string, len(benchmarks))
	for i, b := range benchmarks {
		names[i] = b.name
	}
	return strings.Join(names, ", ")
}

func (b *benchmark) param(name string) *param {
	for i := range b.params {
		if b.params[i].name == name {
			return &b.params[i]
		}
	}
	return nil
}

func (b *benchmark) knownParams() string {
	names := make([]string, len(b.params))
	for i, p := range b.params {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}
