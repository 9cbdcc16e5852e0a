// banking: a teller's transfers between account actors (Savina's bank transaction).
//
// Every account is a goroutine owning its balance (1,000,000 at the start), with three
// channels: debits (from the teller), credits (from other accounts) and balance queries.
// The teller, a goroutine with a generator seeded with 0, draws each transfer
// src = below(accounts), dst = (src + 1 + below(accounts-1)) mod accounts,
// amount = below(1000) + 1, and sends account src a debit of amount for dst, without
// waiting for earlier transfers to finish. The source subtracts the amount and sends dst
// a credit; the destination adds it and replies to the teller. When the teller has all
// its replies it asks every account for its balance, which also ends the account, and
// hands TRANSFERS:BALANCES (the sum of (k+1)*balance_k, wrapping) to the caller.
//
// Channels are bounded, so a send can wait, and a waiting sender must not stop the
// one it waits for: an account that waits to pass a credit on keeps taking in credits
// (handling a credit only replies to the teller), and the teller keeps taking in replies
// while it waits to hand a debit to an account. Every wait then depends on someone who
// makes progress, and the flood of transfers cannot deadlock.
package main

var bankingBench = benchmark{
	name: "banking",
	params: []param{
		{name: "accounts", quick: 1000, least: 2, most: 1_000_000},
		{name: "transactions", quick: 30_000, least: 0, most: 100_000_000},
	},
	run: func(v values) (outcome, error) {
		transfers, balances := banking(v["accounts"], v["transactions"])
		return outcome{check: joinChecks(transfers, balances)}, nil
	},
}

// bankMailbox is the capacity of an account's debit and credit channels and of the
// teller's replies.
const bankMailbox = 64

// debit asks an account to pay amount to account dst.
type debit struct {
	amount uint64
	dst    int
}

// account is an account's three channels.
type account struct {
	debits  chan debit
	credits chan uint64
	balance chan chan<- uint64
}

// banking runs the teller and the accounts and returns the teller's totals.
func banking(accounts, transactions int) (transfers, balances uint64) {
	bank := make([]account, accounts)
	for k := range bank {
		bank[k] = account{
			debits:  make(chan debit, bankMailbox),
			credits: make(chan uint64, bankMailbox),
			balance: make(chan chan<- uint64),
		}
	}
	replies := make(chan struct{}, bankMailbox)
	for k := range bank {
		go accountLife(bank, k, replies)
	}
	result := make(chan [2]uint64)
	go teller(bank, transactions, replies, result)
	t := <-result
	return t[0], t[1]
}

// teller sends the transfers, counts the replies, then reads every balance.
func teller(bank []account, transactions int, replies <-chan struct{}, result chan<- [2]uint64) {
	g := splitmix{}
	n := uint64(len(bank))
	var got uint64
	for range transactions {
		src := g.below(n)
		dst := (src + 1 + g.below(n-1)) % n
		d := debit{amount: g.below(1000) + 1, dst: int(dst)}
		for sent := false; !sent; {
			select {
			case bank[src].debits <- d:
				sent = true
			case <-replies:
				got++
			}
		}
	}
	for ; got < uint64(transactions); got++ {
		<-replies
	}
	answer := make(chan uint64)
	var balances uint64
	for k := range bank {
		bank[k].balance <- answer
		balances += uint64(k+1) * <-answer
	}
	result <- [2]uint64{got, balances}
}

// accountLife is account k: it pays debits, takes credits, and ends when asked its balance.
func accountLife(bank []account, k int, replies chan<- struct{}) {
	me := bank[k]
	balance := uint64(1_000_000)
	credit := func(amount uint64) {
		balance += amount
		replies <- struct{}{}
	}
	for {
		select {
		case d := <-me.debits:
			balance -= d.amount
			for sent := false; !sent; {
				select {
				case bank[d.dst].credits <- d.amount:
					sent = true
				case amount := <-me.credits:
					credit(amount)
				}
			}
		case amount := <-me.credits:
			credit(amount)
		case reply := <-me.balance:
			reply <- balance
			return
		}
	}
}
