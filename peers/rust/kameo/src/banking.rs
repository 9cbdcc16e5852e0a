//! banking on kameo: a teller's transfers between account actors, each a debit, a credit
//! and a reply.
//!
//! The teller holds the tokio oneshot main waits on, and the accounts (balance 1000000
//! each) the teller's `ActorRef`. Main tells the teller `Start` with the accounts. The
//! teller draws from its generator (seeded with 0), for each transfer,
//! `src = below(accounts)`, `dst = (src + 1 + below(accounts-1)) mod accounts` and
//! `amount = below(1000) + 1`, and tells account `src` a `Debit` of `amount` naming
//! account `dst`, without waiting for earlier transfers to finish. The source subtracts
//! the amount and tells `dst` a `Credit`; the destination adds it and tells the teller
//! `Reply`. When the teller has all its replies it `ask`s every account for its balance
//! and sends main the number of replies and the sum of `(k+1)*balance_k`: the check is
//! `TRANSFERS:BALANCES`.

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use kameo::mailbox;
use kameo::message::{Context, Message};
use peer_kernels::digest::weighted_sum;
use peer_kernels::rng::SplitMix64;
use suite_contract::Outcome;
use tokio::sync::oneshot;

/// Every account's balance at the start.
const OPENING_BALANCE: u64 = 1_000_000;

/// The teller.
#[derive(Actor)]
struct Teller {
    transactions: u64,
    replies: u64,
    accounts: Vec<ActorRef<Account>>,
    answer: Option<oneshot::Sender<(u64, u64)>>,
}

impl Teller {
    /// Once every transfer is complete, gathers the balances and sends main the totals;
    /// whether it did.
    async fn answer_if_complete(&mut self) -> bool {
        if self.replies < self.transactions {
            return false;
        }
        let Some(answer) = self.answer.take() else {
            return false;
        };
        let mut balances = Vec::with_capacity(self.accounts.len());
        for account in &self.accounts {
            balances.push(account.ask(Balance).await.expect("account did not answer"));
        }
        let _ = answer.send((self.replies, weighted_sum(balances)));
        true
    }
}

/// The accounts, by number: make the transfers.
struct Start(Vec<ActorRef<Account>>);

/// A transfer is complete.
struct Reply;

impl Message<Start> for Teller {
    type Reply = ();

    async fn handle(&mut self, Start(accounts): Start, ctx: &mut Context<Self, ()>) {
        let n = accounts.len() as u64;
        let mut rng = SplitMix64::new(0);
        for _ in 0..self.transactions {
            let src = rng.below_mod(n);
            let dst = (src + 1 + rng.below_mod(n - 1)) % n;
            let amount = rng.below_mod(1000) + 1;
            let to = accounts[dst as usize].clone();
            accounts[src as usize]
                .tell(Debit(amount, to))
                .await
                .expect("account closed");
        }
        self.accounts = accounts;
        if self.answer_if_complete().await {
            ctx.stop();
        }
    }
}

impl Message<Reply> for Teller {
    type Reply = ();

    async fn handle(&mut self, _: Reply, ctx: &mut Context<Self, ()>) {
        self.replies += 1;
        if self.answer_if_complete().await {
            ctx.stop();
        }
    }
}

/// An account.
#[derive(Actor)]
struct Account {
    balance: u64,
    teller: ActorRef<Teller>,
}

/// Take this amount out and credit it to that account.
struct Debit(u64, ActorRef<Account>);

/// Put this amount in and tell the teller.
struct Credit(u64);

/// Answer the balance.
struct Balance;

impl Message<Debit> for Account {
    type Reply = ();

    async fn handle(&mut self, Debit(amount, to): Debit, _ctx: &mut Context<Self, ()>) {
        self.balance = self.balance.wrapping_sub(amount);
        to.tell(Credit(amount)).await.expect("account closed");
    }
}

impl Message<Credit> for Account {
    type Reply = ();

    async fn handle(&mut self, Credit(amount): Credit, _ctx: &mut Context<Self, ()>) {
        self.balance = self.balance.wrapping_add(amount);
        self.teller.tell(Reply).await.expect("teller left");
    }
}

impl Message<Balance> for Account {
    type Reply = u64;

    async fn handle(&mut self, _: Balance, _ctx: &mut Context<Self, u64>) -> u64 {
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
    };
    let teller = Teller::spawn_with_mailbox(teller, mailbox::unbounded());
    let all = (0..accounts)
        .map(|_| {
            let account = Account {
                balance: OPENING_BALANCE,
                teller: teller.clone(),
            };
            Account::spawn_with_mailbox(account, mailbox::unbounded())
        })
        .collect();
    teller
        .tell(Start(all))
        .await
        .map_err(|e| format!("starting the teller: {e}"))?;
    let (transfers, balances) = totals
        .await
        .map_err(|_| "the teller stopped before every transfer was complete")?;
    Ok(Outcome::new(format!("{transfers}:{balances}")))
}
