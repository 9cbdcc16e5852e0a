// concsll: workers inserting into, searching and sizing one sorted-list actor (Savina's
// concurrent sorted linked list).
//
// The list actor is a goroutine that owns a singly linked list of uint64 values in
// ascending order (equal values all kept) and its length; its mailbox is a channel of
// requests, each carrying the channel its answer goes to. An insert walks from the
// front to the first node that is not smaller and links the value in before it; a
// lookup walks until it finds the value or passes it; a size query answers the length.
//
// Worker w is a goroutine with a generator seeded with w and a one-slot answer channel.
// For each of its `messages` operations it draws r = below(100): r < size_pct asks for
// the size, r < size_pct + write_pct inserts v = below(1024)*workers + w, and otherwise
// it looks up such a v. It waits for every answer before the next request, counts its
// answers and its lookups answered true, and reports both to the caller.
//
// Once every worker has reported, the caller asks the list for its length and the sum
// of (p+1)*value over positions p; that request also ends the list actor. The check is
// ANSWERS:SIZE:CONTENTS:HITS.
package main

var concsllBench = benchmark{
	name: "concsll",
	params: []param{
		{name: "workers", quick: 20, least: 1, most: 10_000},
		{name: "messages", quick: 1000, least: 0, most: 100_000_000},
		{name: "write_pct", quick: 10, least: 0, most: 100},
		{name: "size_pct", quick: 1, least: 0, most: 100},
	},
	run: func(v values) (outcome, error) {
		answers, size, contents, hits := concsll(v["workers"], v["messages"], v["write_pct"], v["size_pct"])
		return outcome{check: joinChecks(answers, size, contents, hits)}, nil
	},
}

// sllOp says what a request to the list asks for.
type sllOp uint8

const (
	sllContains sllOp = iota
	sllInsert
	sllSize
	sllSummary // length and contents; the list actor's last request
)

// sllRequest is one request; the answer goes to reply (1 for true, 0 for false).
type sllRequest struct {
	op    sllOp
	value uint64
	reply chan<- uint64
}

// sllNode is one node of the sorted list.
type sllNode struct {
	value uint64
	next  *sllNode
}

// concsll runs the list actor and the workers and returns the four parts of the check.
func concsll(workers, messages, writePct, sizePct int) (answers, size, contents, hits uint64) {
	mailbox := make(chan sllRequest, workers)
	reports := make(chan tally, workers)
	go sortedList(mailbox)
	for w := range workers {
		go sllWorker(w, workers, messages, uint64(writePct), uint64(sizePct), mailbox, reports)
	}
	for range workers {
		t := <-reports
		answers += t.count
		hits += t.digest
	}
	summary := make(chan uint64, 2)
	mailbox <- sllRequest{op: sllSummary, reply: summary}
	size, contents = <-summary, <-summary
	return answers, size, contents, hits
}

// sortedList serves requests until it has answered the summary.
func sortedList(mailbox <-chan sllRequest) {
	var head *sllNode
	var length uint64
	for req := range mailbox {
		switch req.op {
		case sllInsert:
			link := &head
			for *link != nil && (*link).value < req.value {
				link = &(*link).next
			}
			*link = &sllNode{value: req.value, next: *link}
			length++
			req.reply <- 1
		case sllContains:
			n := head
			for n != nil && n.value < req.value {
				n = n.next
			}
			found := uint64(0)
			if n != nil && n.value == req.value {
				found = 1
			}
			req.reply <- found
		case sllSize:
			req.reply <- length
		case sllSummary:
			var contents, p uint64
			for n := head; n != nil; n = n.next {
				p++
				contents += p * n.value
			}
			req.reply <- length
			req.reply <- contents
			return
		}
	}
}

// sllWorker makes its operations one at a time and reports its answers (count) and its
// lookups answered true (digest).
func sllWorker(w, workers, messages int, writePct, sizePct uint64, list chan<- sllRequest, reports chan<- tally) {
	g := splitmix{state: uint64(w)}
	answer := make(chan uint64, 1)
	var t tally
	for range messages {
		r := g.below(100)
		req := sllRequest{op: sllContains, reply: answer}
		switch {
		case r < sizePct:
			req.op = sllSize
		case r < sizePct+writePct:
			req.op, req.value = sllInsert, g.below(1024)*uint64(workers)+uint64(w)
		default:
			req.value = g.below(1024)*uint64(workers) + uint64(w)
		}
		list <- req
		got := <-answer
		if req.op == sllContains {
			t.digest += got
		}
		t.count++
	}
	reports <- t
}
