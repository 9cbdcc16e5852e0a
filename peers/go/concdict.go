// concdict: workers reading and writing through one dictionary actor (Savina's
// concurrent dictionary).
//
// The dictionary is a goroutine that owns a Go map from uint64 keys to uint64 values;
// its mailbox is a channel of requests, each carrying the channel its answer goes to.
// Worker w is a goroutine with a generator seeded with w and a one-slot answer channel
// of its own. For each of its `messages` operations it draws r = below(100) and
// key = w*1024 + below(1024); when r < write_pct it draws value = next() >> 32 and asks
// the dictionary to store it (the answer is the value stored), otherwise it asks for the
// key's value (0 when absent). It waits for every answer before the next request, counts
// its answers and adds up the answers to its reads, and reports both to the caller.
//
// Once every worker has reported, the caller asks the dictionary for its size and the
// sum of (key+1)*value over its entries; that last request also ends the dictionary.
// The check is ANSWERS:SIZE:CONTENTS:READSUM.
package main

var concdictBench = benchmark{
	name: "concdict",
	params: []param{
		{name: "workers", quick: 20, least: 1, most: 10_000},
		{name: "messages", quick: 5000, least: 0, most: 100_000_000},
		{name: "write_pct", quick: 10, least: 0, most: 100},
	},
	run: func(v values) (outcome, error) {
		answers, size, contents, readsum := concdict(v["workers"], v["messages"], v["write_pct"])
		return outcome{check: joinChecks(answers, size, contents, readsum)}, nil
	},
}

// dictOp says what a request to the dictionary asks for.
type dictOp uint8

const (
	dictRead dictOp = iota
	dictWrite
	dictSummary // size and contents; the dictionary's last request
)

// dictRequest is one request; the answer goes to reply.
type dictRequest struct {
	op         dictOp
	key, value uint64
	reply      chan<- uint64
}

// concdict runs the dictionary and the workers and returns the four parts of the check.
func concdict(workers, messages, writePct int) (answers, size, contents, readsum uint64) {
	mailbox := make(chan dictRequest, workers)
	reports := make(chan tally, workers)
	go dictionary(mailbox)
	for w := range workers {
		go dictWorker(uint64(w), messages, uint64(writePct), mailbox, reports)
	}
	for range workers {
		t := <-reports
		answers += t.count
		readsum += t.digest
	}
	summary := make(chan uint64, 2)
	mailbox <- dictRequest{op: dictSummary, reply: summary}
	size, contents = <-summary, <-summary
	return answers, size, contents, readsum
}

// dictionary serves requests until it has answered the summary.
func dictionary(mailbox <-chan dictRequest) {
	table := make(map[uint64]uint64)
	for req := range mailbox {
		switch req.op {
		case dictRead:
			req.reply <- table[req.key]
		case dictWrite:
			table[req.key] = req.value
			req.reply <- req.value
		case dictSummary:
			var contents uint64
			for k, v := range table {
				contents += (k + 1) * v
			}
			req.reply <- uint64(len(table))
			req.reply <- contents
			return
		}
	}
}

// dictWorker makes its operations one at a time and reports its answers (count) and
// the sum of its read answers (digest).
func dictWorker(w uint64, messages int, writePct uint64, dict chan<- dictRequest, reports chan<- tally) {
	g := splitmix{state: w}
	answer := make(chan uint64, 1)
	var t tally
	for range messages {
		r := g.below(100)
		req := dictRequest{op: dictRead, key: w*1024 + g.below(1024), reply: answer}
		if r < writePct {
			req.op, req.value = dictWrite, g.next()>>32
		}
		dict <- req
		got := <-answer
		if req.op == dictRead {
			t.digest += got
		}
		t.count++
	}
	reports <- t
}
