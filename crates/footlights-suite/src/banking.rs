//! banking: a teller's transfers between account actors (Savina's bank transaction).
//!
//! # On footlights
//!
//! One [`Teller`] and `accounts` [`Account`]s, each starting with a balance of 1000000.
//! The teller, seeded with 0, draws every transfer (source, destination, amount) and sends
//! it at once as a debit to the source ([`ToAccount::Debit`]), without waiting for earlier
//! transfers. The source subtracts the amount and sends a credit to the destination, which
//! adds it and replies to the teller. Balances wrap, like every number of the check.
//!
//! When every reply is in, the teller asks each account for its balance
//! ([`ToAccount::Balance`]); account `k` answers `(k+1)*balance`, and once all have, the
//! teller answers the main thread with its count of replies and the sum of the answers:
//! the check `TRANSFERS:BALANCES`.
//!
//! The accounts name each other by index in one shared slice of addresses, sent to every
//! account ([`ToAccount::Join`]) before the teller is sent it and begins, so a debit never
//! reaches an account that does not know the others yet.

use std::sync::Arc;

use footlights::{Actor, Addr, Context, ReplyTo, System};
use suite_contract::{Invocation, Outcome};

use crate::run;
use crate::splitmix::SplitMix;

/// Every account's balance at the start.
const OPENING_BALANCE: u64 = 1_000_000;

/// What an account receives.
pub enum ToAccount {
    /// The accounts, in order (sent once, before any transfer).
    Join(Arc<[Addr<Account>]>),
    /// Take `amount` from this account and credit it to account `to`.
    Debit { to: u32, amount: u64 },
    /// Add `amount` to this account and tell the teller.
    Credit { amount: u64 },
    /// Tell the teller `(k+1)*balance`.
    Balance,
}

/// One account.
pub struct Account {
    /// Its number, `k`.
    id: u64,
    balance: u64,
    accounts: Option<Arc<[Addr<Account>]>>,
    teller: Addr<Teller>,
}

impl Actor for Account {
    type Msg = ToAccount;

    fn handle(&mut self, _ctx: &mut Context<Self>, msg: ToAccount) {
        match msg {
            ToAccount::Join(accounts) => self.accounts = Some(accounts),
            ToAccount::Debit { to, amount } => {
                self.balance = self.balance.wrapping_sub(amount);
                if let Some(to) = self.accounts.as_ref().and_then(|a| a.get(to as usize)) {
                    let _ = to.send(ToAccount::Credit { amount });
                }
            }
            ToAccount::Credit { amount } => {
                self.balance = self.balance.wrapping_add(amount);
                let _ = self.teller.send(ToTeller::Replied);
            }
            ToAccount::Balance => {
                let weighted = (self.id + 1).wrapping_mul(self.balance);
                let _ = self.teller.send(ToTeller::Balance(weighted));
            }
        }
    }
}

/// What the teller receives.
pub enum ToTeller {
    /// The accounts, in order: begin.
    Accounts(Arc<[Addr<Account>]>),
    /// A transfer is complete.
    Replied,
    /// An account's `(k+1)*balance`.
    Balance(u64),
}

/// Makes the transfers and gathers the balances.
pub struct Teller {
    transactions: u64,
    accounts: Arc<[Addr<Account>]>,
    replies: u64,
    /// Balances still to come.
    missing: usize,
    balances: u64,
    answer: Option<ReplyTo<(u64, u64)>>,
}

impl Teller {
    /// Asks every account for its balance once every transfer is complete.
    fn ask_balances_if_done(&mut self) {
        if self.replies == self.transactions {
            self.missing = self.accounts.len();
            for account in self.accounts.iter() {
                let _ = account.send(ToAccount::Balance);
            }
        }
    }
}

impl Actor for Teller {
    type Msg = ToTeller;

    fn handle(&mut self, ctx: &mut Context<Self>, msg: ToTeller) {
        match msg {
            ToTeller::Accounts(accounts) => {
                self.accounts = accounts;
                let n = self.accounts.len() as u64;
                let mut rng = SplitMix::new(0);
                for _ in 0..self.transactions {
                    let from = rng.below(n);
                    let to = (from + 1 + rng.below(n - 1)) % n;
                    let amount = rng.below(1000) + 1;
                    let debit = ToAccount::Debit {
                        to: to as u32,
                        amount,
                    };
                    let _ = self.accounts[from as usize].send(debit);
                }
                self.ask_balances_if_done();
            }
            ToTeller::Replied => {
                self.replies += 1;
                self.ask_balances_if_done();
            }
            ToTeller::Balance(weighted) => {
                self.balances = self.balances.wrapping_add(weighted);
                self.missing -= 1;
                if self.missing == 0 {
                    if let Some(answer) = self.answer.take() {
                        let _ = answer.send((self.replies, self.balances));
                    }
                    ctx.stop();
                }
            }
        }
    }
}

/// Runs banking with `accounts` and `transactions` from the invocation.
pub fn run(system: &System, inv: &Invocation) -> Result<Outcome, String> {
    let (answer, result) = footlights::reply::pair();
    let teller = system.spawn(Teller {
        transactions: inv.get("transactions"),
        accounts: Arc::from(Vec::new()),
        replies: 0,
        missing: 0,
        balances: 0,
        answer: Some(answer),
    });
    let accounts: Arc<[Addr<Account>]> = (0..inv.get("accounts"))
        .map(|id| {
            system.spawn(Account {
                id,
                balance: OPENING_BALANCE,
                accounts: None,
                teller: teller.clone(),
            })
        })
        .collect();
    let stopped = |_| "an account stopped before the run began".to_string();
    for account in accounts.iter() {
        account
            .send(ToAccount::Join(Arc::clone(&accounts)))
            .map_err(stopped)?;
    }
    teller
        .send(ToTeller::Accounts(accounts))
        .map_err(|_| "the teller stopped before the run began".to_string())?;
    drop(teller);
    let (transfers, balances) = run::await_answer(system, result, "the teller's count")?;
    Ok(Outcome::new(format!("{transfers}:{balances}")))
}
