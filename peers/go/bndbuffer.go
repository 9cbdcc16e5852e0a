// bndbuffer: producers and consumers through a manager with a bounded buffer (Savina's
// producer-consumer with a bounded buffer).
//
// The manager is a goroutine that owns the buffer (a FIFO of at most `buffer` items),
// the queue of producers it holds back and the queue of consumers waiting for data. Its
// mailbox is one channel that producers and consumers send on, each message naming its
// sender. Producer p is a goroutine with a generator seeded with p and a one-slot
// channel on which the manager tells it to produce; consumer c is a goroutine with a
// one-slot channel on which the manager sends it an item or tells it to stop.
//
//   - A producer makes item i as work(next(), cost), sends it to the manager and waits
//     to be told to produce the next; after its last item (and that permission) it tells
//     the manager it is done.
//   - The manager hands an arriving item to a waiting consumer, or else buffers it. Then
//     it tells the producer to go on while the buffer has room, and otherwise queues the
//     producer until a consumer takes an item from the buffer.
//   - A consumer says it is available, receives an item, adds work(item, cost) to its sum
//     and says it is available again. The manager answers an available consumer with the
//     oldest buffered item (and lets the oldest held-back producer go on), or queues it.
//   - When every producer is done and every consumer is waiting (so the buffer is empty),
//     the manager tells the consumers to stop; each reports its count and sum to the
//     caller: CONSUMED:SUM.
//
// Every producer and consumer has at most one message to the manager outstanding, so the
// manager's mailbox has room for all of them and nobody ever waits to send to it; the
// manager sends a producer or consumer at most one message before hearing from it again.
package main

var bndbufferBench = benchmark{
	name: "bndbuffer",
	params: []param{
		{name: "buffer", quick: 50, least: 1, most: 1_000_000},
		{name: "producers", quick: 40, least: 1, most: 10_000},
		{name: "consumers", quick: 40, least: 1, most: 10_000},
		{name: "items", quick: 500, least: 0, most: 100_000_000},
		{name: "cost", quick: 25, least: 0, most: 1_000_000},
	},
	run: func(v values) (outcome, error) {
		t := bndbuffer(v["buffer"], v["producers"], v["consumers"], v["items"], v["cost"])
		return outcome{check: joinChecks(t.count, t.digest)}, nil
	},
}

// bbKind says what a message to the manager is.
type bbKind uint8

const (
	bbData         bbKind = iota // an item from producer `from`
	bbProducerDone               // producer `from` has sent all its items
	bbAvailable                  // consumer `from` is ready for an item
)

// bbMsg is one message to the manager.
type bbMsg struct {
	kind bbKind
	from int
	item uint64
}

// bbDelivery is the manager's message to a consumer: an item, or stop.
type bbDelivery struct {
	item uint64
	stop bool
}

// bndbuffer runs the manager, producers and consumers and returns the consumers' totals.
func bndbuffer(buffer, producers, consumers, items, cost int) tally {
	mailbox := make(chan bbMsg, producers+consumers)
	permits := make([]chan struct{}, producers)
	for p := range permits {
		permits[p] = make(chan struct{}, 1)
		go bbProducer(p, items, cost, permits[p], mailbox)
	}
	deliveries := make([]chan bbDelivery, consumers)
	reports := make(chan tally, consumers)
	for c := range deliveries {
		deliveries[c] = make(chan bbDelivery, 1)
		go bbConsumer(c, cost, deliveries[c], mailbox, reports)
	}
	go bbManager(buffer, mailbox, permits, deliveries)
	var total tally
	for range consumers {
		t := <-reports
		total.count += t.count
		total.digest += t.digest
	}
	return total
}

// bbManager runs the buffer until every producer is done and every consumer waits.
func bbManager(buffer int, mailbox <-chan bbMsg, permits []chan struct{}, deliveries []chan bbDelivery) {
	var heldProducers, waitingConsumers fifo[int]
	var data fifo[uint64]
	producersDone := 0
	for m := range mailbox {
		switch m.kind {
		case bbData:
			if c, ok := waitingConsumers.pop(); ok {
				deliveries[c] <- bbDelivery{item: m.item}
			} else {
				data.push(m.item)
			}
			if data.len() < buffer {
				permits[m.from] <- struct{}{}
			} else {
				heldProducers.push(m.from)
			}
		case bbProducerDone:
			producersDone++
		case bbAvailable:
			if item, ok := data.pop(); ok {
				deliveries[m.from] <- bbDelivery{item: item}
				if p, ok := heldProducers.pop(); ok {
					permits[p] <- struct{}{}
				}
			} else {
				waitingConsumers.push(m.from)
			}
		}
		if producersDone == len(permits) && waitingConsumers.len() == len(deliveries) {
			for _, d := range deliveries {
				d <- bbDelivery{stop: true}
			}
			return
		}
	}
}

// bbProducer makes its items one at a time, each when the manager says so.
func bbProducer(p, items, cost int, permit <-chan struct{}, manager chan<- bbMsg) {
	g := splitmix{state: uint64(p)}
	for range items {
		manager <- bbMsg{kind: bbData, from: p, item: work(g.next(), cost)}
		<-permit
	}
	manager <- bbMsg{kind: bbProducerDone, from: p}
}

// bbConsumer consumes items until it is told to stop, then reports.
func bbConsumer(c, cost int, deliveries <-chan bbDelivery, manager chan<- bbMsg, reports chan<- tally) {
	var t tally
	for {
		manager <- bbMsg{kind: bbAvailable, from: c}
		d := <-deliveries
		if d.stop {
			reports <- t
			return
		}
		t.count++
		t.digest += work(d.item, cost)
	}
}
