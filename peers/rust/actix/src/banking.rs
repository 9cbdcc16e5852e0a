//! banking on actix: a teller's transfers between account actors, each a debit, a credit
//! and a reply.
//!
//! Transfers go between random accounts and every reply goes to the teller, so every actor
//! lives on main's arbiter (as in chameneos). The teller holds the tokio oneshot main
//! waits on, and the accounts (balance 1000000 each) the teller's address. Main sends the
//! teller `Start` with the accounts. The teller draws from its generator (seeded with 0),
//! for each transfer, `src = below(accounts)`,
//! `dst = (src + 1 + below(accounts-1)) mod accounts` and `amount = below(1000) + 1`, and
//! sends account `src` a `Debit` of `amount` naming account `dst`, without waiting for
//! earlier transfers to finish. The source subtracts the amount and sends `dst` a
//! `Credit`; the destination adds it and sends the teller `Reply`. When the teller has all
//! its replies it `send(..).await`s every account's balance (in a future spawned on its
//! context) and sends main the number of replies and the sum of `(k+1)*balance_k`: the
//! check is `TRANSFERS:BALANCES`.

use actix::prelude::*;
use peer_kernels::digest::weighted_sum;
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// Every account's balance at the start.
const OPENING_BALANCE: u64 = 1_000_000;

/// The teller.
struct Teller {
    transactions: u64,
    replies: u64,
    accounts: Vec<Addr<Account>>,
    answer: Option<oneshot::Sender<(u64, u64)>>,
}

impl Teller {
    /// Once every transfer is complete, gathers the balances and sends main the totals.
    fn answer_if_complete(&mut self, ctx: &mut Context<Self>) {
        if self.replies < self.transactions {
            return;
        }
        let Some(answer) = self.answer.take() else {
            return;
        };
        let accounts = self.accounts.clone();
        let replies = self.replies;
        let gather = async move {
            let mut balances = Vec::with_capacity(accounts.len());
            for account in &accounts {
                balances.push(account.send(Balance).await.expect("account did not answer"));
            }
            let _ = answer.send((replies, weighted_sum(balances)));
        };
        ctx.spawn(gather.into_actor(self).map(|(), _teller, ctx| ctx.stop()));
    }
}

impl Actor for Teller {
    type Context = Context<Self>;
}

/// The accounts, by number: make the transfers.
#[derive(Message)]
#[rtype(result = "()")]
struct Start(Vec<Addr<Account>>);

/// A transfer is complete.
#[derive(Message)]
#[rtype(result = "()")]
struct Reply;

impl Handler<Start> for Teller {
    type Result = ();

    fn handle(&mut self, Start(accounts): Start, ctx: &mut Context<Self>) {
        let n = accounts.len() as u64;
        let mut rng = SplitMix64::new(0);
        for _ in 0..self.transactions {
            let src = rng.below_mod(n);
            let dst = (src + 1 + rng.below_mod(n - 1)) % n;
            let amount = rng.below_mod(1000) + 1;
            let to = accounts[dst as usize].clone();
            accounts[src as usize].do_send(Debit(amount, to));
        }
        self.accounts = accounts;
        self.answer_if_complete(ctx);
    }
}

impl Handler<Reply> for Teller {
    type Result = ();

    fn handle(&mut self, _: Reply, ctx: &mut Context<Self>) {
        self.replies += 1;
        self.answer_if_complete(ctx);
    }
}

/// An account.
struct Account {
    balance: u64,
    teller: Addr<Teller>,
}

impl Actor for Account {
    type Context = Context<Self>;
}

/// Take this amount out and credit it to that account.
#[derive(Message)]
#[rtype(result = "()")]
struct Debit(u64, Addr<Account>);

/// Put this amount in and tell the teller.
#[derive(Message)]
#[rtype(result = "()")]
struct Credit(u64);

/// Answer the balance.
#[derive(Message)]
#[rtype(result = "u64")]
struct Balance;

impl Handler<Debit> for Account {
    type Result = ();

    fn handle(&mut self, Debit(amount, to): Debit, _ctx: &mut Context<Self>) {
        self.balance = self.balance.wrapping_sub(amount);
        to.do_send(Credit(amount));
    }
}

impl Handler<Credit> for Account {
    type Result = ();

    fn handle(&mut self, Credit(amount): Credit, _ctx: &mut Context<Self>) {
        self.balance = self.balance.wrapping_add(amount);
        self.teller.do_send(Reply);
    }
}

impl Handler<Balance> for Account {
    type Result = u64;

    fn handle(&mut self, _: Balance, _ctx: &mut Context<Self>) -> u64 {
        self.balance
    }
}

/// Makes `transactions` transfers between `accounts` accounts; the check is
/// `TRANSFERS:BALANCES`.
pub async fn run(accounts: u64, transactions: u64) -> Result<Outcome, String> {
    let (answer, totals) = oneshot::channel();
    let teller = Teller {
        transactions,
        replies: 0,
        accounts: Vec::new(),
        answer: Some(answer),
    }
    .start();
    let all = (0..accounts)
        .map(|_| {
            Account {
                balance: OPENING_BALANCE,
                teller: teller.clone(),
            }
            .start()
        })
        .collect();
    teller.do_send(Start(all));
    let (transfers, balances) = totals
        .await
        .map_err(|_| "the teller stopped before every transfer was complete")?;
    Ok(Outcome::new(format!("{transfers}:{balances}")))
}
