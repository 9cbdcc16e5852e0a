// chameneos: creatures meeting in pairs at one meeting place.
//
// The meeting place is a goroutine that owns one channel of meeting requests; every
// creature is a goroutine with a mailbox of its own for the place's answers. A creature
// sends a request (its id, its colour and its mailbox) and waits for the answer before it
// asks again, so it never has more than one request outstanding. The place keeps at most
// one creature waiting: the next request pairs the two, and each learns the other's id
// and the new colour complement(a, b). After `meetings` meetings the place answers the
// waiting creature and every further request with stop, until all creatures have been
// stopped. Each creature then reports how many meetings it had, and the check is the sum
// of those reports.
//
// The request channel has room for one request per creature, so asking never blocks, and
// the channel's FIFO order serves the creatures in turn. A creature's mailbox holds one
// answer, so the meeting place never waits either. A creature that is told it met itself
// reports it, and the run fails.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

var chameneosBench = benchmark{
	name: "chameneos",
	params: []param{
		{name: "creatures", quick: 70, least: 2, most: 1_000_000},
		{name: "meetings", quick: 200_000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		counts, err := chameneos(v["creatures"], v["meetings"])
		if err != nil {
			return outcome{}, err
		}
		sum := 0
		text := make([]string, len(counts))
		for i, c := range counts {
			sum += c
			text[i] = strconv.Itoa(c)
		}
		return outcome{check: strconv.Itoa(sum), extra: "counts=" + strings.Join(text, ",")}, nil
	},
}

type colour int

const (
	blue colour = iota
	red
	yellow
)

// complement is the colour two creatures of colours a and b both take after meeting.
func complement(a, b colour) colour {
	if a == b {
		return a
	}
	return 3 - a - b
}

// meetRequest asks the meeting place for a meeting; the answer goes to reply.
type meetRequest struct {
	id     int
	colour colour
	reply  chan<- meetAnswer
}

// meetAnswer is the meeting place's answer: a partner and a new colour, or stop.
type meetAnswer struct {
	partner int
	colour  colour
	stop    bool
}

// creatureReport is what a creature says after it is stopped.
type creatureReport struct {
	id       int
	meetings int
	err      error
}

// chameneos runs the creatures and returns the meetings each reported, in creature order.
func chameneos(creatures, meetings int) ([]int, error) {
	requests := make(chan meetRequest, creatures)
	reports := make(chan creatureReport, creatures)
	go meetingPlace(requests, creatures, meetings)
	for id := range creatures {
		go creature(id, colour(id%3), requests, reports)
	}
	counts := make([]int, creatures)
	var failure error
	for range creatures {
		r := <-reports
		counts[r.id] = r.meetings
		if r.err != nil && failure == nil {
			failure = r.err
		}
	}
	return counts, failure
}

// meetingPlace pairs creatures until `meetings` meetings have happened, then stops all
// `creatures` creatures.
func meetingPlace(requests <-chan meetRequest, creatures, meetings int) {
	var waiting meetRequest
	someoneWaiting := false
	for held := 0; held < meetings; {
		r := <-requests
		if !someoneWaiting {
			waiting, someoneWaiting = r, true
			continue
		}
		c := complement(waiting.colour, r.colour)
		waiting.reply <- meetAnswer{partner: r.id, colour: c}
		r.reply <- meetAnswer{partner: waiting.id, colour: c}
		someoneWaiting = false
		held++
	}
	stopped := 0
	if someoneWaiting {
		waiting.reply <- meetAnswer{stop: true}
		stopped++
	}
	for ; stopped < creatures; stopped++ {
		r := <-requests
		r.reply <- meetAnswer{stop: true}
	}
}

// creature asks for meetings until it is told to stop, then reports its count.
func creature(id int, c colour, place chan<- meetRequest, reports chan<- creatureReport) {
	mailbox := make(chan meetAnswer, 1)
	report := creatureReport{id: id}
	for {
		place <- meetRequest{id: id, colour: c, reply: mailbox}
		a := <-mailbox
		if a.stop {
			break
		}
		if a.partner == id && report.err == nil {
			report.err = fmt.Errorf("creature %d was paired with itself", id)
		}
		report.meetings++
		c = a.colour
	}
	reports <- report
}
