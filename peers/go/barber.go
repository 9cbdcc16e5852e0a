// barber: the sleeping barber (Savina's sleeping barber).
//
// Four kinds of goroutine, each with a mailbox channel: a factory, a waiting room, a
// barber, and one goroutine per customer.
//
//   - The factory has a generator seeded with 0. For each customer k in order it draws
//     a = below(arrival+1) and c = below(cut+1), computes work(k, a) (the time until
//     the customer arrives) into its digest, starts customer k knowing c, and sends it to
//     the waiting room. Then it serves its mailbox: a customer that was sent away goes to
//     the room again; a customer that is done adds its result to the digest. When all
//     `haircuts` customers are done it stops the room, which stops the barber, and hands
//     HAIRCUTS:DIGEST to the caller.
//   - The room seats an arriving customer if one of its `room` chairs is free and sends
//     it away otherwise. It keeps the seated customers in a FIFO and knows whether the
//     barber sleeps: a customer that arrives while he does goes straight to him. When
//     the barber asks for the next customer, the room sends him the oldest seated one, or
//     notes that he sleeps when no one is seated.
//   - The barber cuts customer k's hair by computing work(k, c), asks the room for the
//     next customer and tells customer k it is done, with that result. Asking first means
//     that the room has seen his last request before the factory can stop it.
//   - A customer that is sent away tells the factory; a customer that is done tells the
//     factory its result and ends.
//
// The factory yields (runtime.Gosched) before it sends a customer back to the room. The
// factory, the room and a customer that is sent away hand each other the processor
// without end (a goroutine woken by a send runs next, in the sender's time slice), and
// at one thread the barber, woken by the same loop, waited for the slice to run out:
// the yield puts him first. peers/README.md has the measurement.
//
// The room never waits to send (a customer or the barber has at most one message from it
// outstanding), so neither the factory nor the barber, which send to it, can wait for
// ever; customers wait only for the factory, which only waits for the room.
package main

import "runtime"

var barberBench = benchmark{
	name: "barber",
	params: []param{
		{name: "haircuts", quick: 1000, least: 0, most: 10_000_000},
		{name: "room", quick: 1000, least: 1, most: 1_000_000},
		{name: "arrival", quick: 1000, least: 0, most: 1_000_000},
		{name: "cut", quick: 1000, least: 0, most: 1_000_000},
	},
	run: func(v values) (outcome, error) {
		t := barber(v["haircuts"], v["room"], v["arrival"], v["cut"])
		return outcome{check: joinChecks(t.count, t.digest)}, nil
	},
}

// barberMailbox is the capacity of the factory's and the room's mailboxes.
const barberMailbox = 1024

// customer is what the factory, the room and the barber know of a customer: its number,
// its haircut's work and its mailbox.
type customer struct {
	k       uint64
	cut     int
	mailbox chan<- customerMsg
}

// customerMsg tells a customer that the room is full, or that its haircut is done.
type customerMsg struct {
	full   bool
	result uint64
}

// factoryMsg tells the factory that a customer was sent away, or is done with result.
type factoryMsg struct {
	sentAway *customer
	result   uint64
}

// roomMsg is an arriving customer, the barber's request for the next one (all fields
// zero), or stop.
type roomMsg struct {
	arriving *customer
	stop     bool
}

// barber runs the shop and returns the factory's count and digest.
func barber(haircuts, room, arrival, cut int) tally {
	factoryBox := make(chan factoryMsg, barberMailbox)
	roomBox := make(chan roomMsg, barberMailbox)
	barberBox := make(chan *customer, 1) // nil: stop
	go waitingRoom(room, roomBox, barberBox)
	go barberChair(barberBox, roomBox)
	result := make(chan tally)
	go factory(haircuts, arrival, cut, factoryBox, roomBox, result)
	return <-result
}

// factory creates the customers, sends them to the room, and collects their results.
func factory(haircuts, arrival, cut int, mailbox chan factoryMsg, room chan<- roomMsg, result chan<- tally) {
	g := splitmix{}
	var t tally
	for k := range uint64(haircuts) {
		a := g.below(uint64(arrival) + 1)
		c := g.below(uint64(cut) + 1)
		t.digest += work(k, int(a))
		box := make(chan customerMsg, 1)
		self := &customer{k: k, cut: int(c), mailbox: box}
		go customerLife(self, box, mailbox)
		room <- roomMsg{arriving: self}
	}
	for t.count < uint64(haircuts) {
		m := <-mailbox
		if m.sentAway != nil {
			runtime.Gosched()
			room <- roomMsg{arriving: m.sentAway}
		} else {
			t.count++
			t.digest += m.result
		}
	}
	room <- roomMsg{stop: true}
	result <- t
}

// customerLife is a customer: it waits in the shop until its haircut is done.
func customerLife(self *customer, mailbox <-chan customerMsg, factory chan<- factoryMsg) {
	for {
		m := <-mailbox
		if !m.full {
			factory <- factoryMsg{result: m.result}
			return
		}
		factory <- factoryMsg{sentAway: self} // the factory sends it to the room again
	}
}

// waitingRoom seats customers, wakes the barber and hands him the next one.
func waitingRoom(chairs int, mailbox <-chan roomMsg, barber chan<- *customer) {
	var seated fifo[*customer]
	asleep := true
	for m := range mailbox {
		switch {
		case m.stop:
			barber <- nil
			return
		case m.arriving == nil: // the barber asks for the next customer
			if c, ok := seated.pop(); ok {
				barber <- c
			} else {
				asleep = true
			}
		case asleep:
			asleep = false
			barber <- m.arriving
		case seated.len() < chairs:
			seated.push(m.arriving)
		default:
			m.arriving.mailbox <- customerMsg{full: true}
		}
	}
}

// barberChair is the barber: he cuts each customer he is given until he is stopped.
func barberChair(mailbox <-chan *customer, room chan<- roomMsg) {
	for c := range mailbox {
		if c == nil {
			return
		}
		result := work(c.k, c.cut)
		room <- roomMsg{}
		c.mailbox <- customerMsg{result: result}
	}
}
