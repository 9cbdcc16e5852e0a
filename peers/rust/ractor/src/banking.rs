//! banking on ractor: a teller's transfers between account actors, each a debit, a credit
//! and a reply.
//!
//! The teller is spawned with the `RpcReplyPort` main waits on, and the accounts (balance
//! 1000000 each) with the teller's `ActorRef`. Main casts the teller `Start` with the
//! accounts. The teller draws from its generator (seeded with 0), for each transfer,
//! `src = below(accounts)`, `dst = (src + 1 + below(accounts-1)) mod accounts` and
//! `amount = below(1000) + 1`, and casts account `src` a `Debit` of `amount` naming
//! account `dst`, without waiting for earlier transfers to finish. The source subtracts the
//! amount and casts `dst` a `Credit`; the destination adds it and casts the teller `Reply`.
//! When the teller has all its replies it `call!`s every account for its balance and
//! replies the number of replies and the sum of `(k+1)*balance_k`: the check is
//! `TRANSFERS:BALANCES`.

use peer_kernels::digest::weighted_sum;
use peer_kernels::rng::SplitMix64;
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort, call, cast};
use suite_contract::Outcome;

/// Every account's balance at the start.
const OPENING_BALANCE: u64 = 1_000_000;

/// Messages of the teller.
pub enum TellerMsg {
    /// The accounts, by number: make the transfers.
    Start(Vec<ActorRef<AccountMsg>>),
    /// A transfer is complete.
    Reply,
}

/// Messages of an account.
pub enum AccountMsg {
    /// Take this amount out and credit it to that account.
    Debit(u64, ActorRef<AccountMsg>),
    /// Put this amount in and tell the teller.
    Credit(u64),
    /// Answer the balance.
    Balance(RpcReplyPort<u64>),
}

/// The teller's behaviour.
struct Teller;

/// The teller's state.
struct TellerState {
    transactions: u64,
    replies: u64,
    accounts: Vec<ActorRef<AccountMsg>>,
    reply: Option<RpcReplyPort<(u64, u64)>>,
}

impl TellerState {
    async fn answer_if_complete(&mut self, myself: &ActorRef<TellerMsg>) {
        if self.replies < self.transactions {
            return;
        }
        let Some(reply) = self.reply.take() else {
            return;
        };
        let mut balances = Vec::with_capacity(self.accounts.len());
        for account in &self.accounts {
            balances.push(call!(account, AccountMsg::Balance).expect("account did not answer"));
            account.stop(None);
        }
        let _ = reply.send((self.replies, weighted_sum(balances)));
        myself.stop(None);
    }
}

impl Actor for Teller {
    type Msg = TellerMsg;
    type State = TellerState;
    type Arguments = (u64, RpcReplyPort<(u64, u64)>);

    async fn pre_start(
        &self,
        _myself: ActorRef<TellerMsg>,
        (transactions, reply): Self::Arguments,
    ) -> Result<TellerState, ActorProcessingErr> {
        Ok(TellerState {
            transactions,
            replies: 0,
            accounts: Vec::new(),
            reply: Some(reply),
        })
    }

    async fn handle(
        &self,
        myself: ActorRef<TellerMsg>,
        message: TellerMsg,
        state: &mut TellerState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            TellerMsg::Start(accounts) => {
                let n = accounts.len() as u64;
                let mut rng = SplitMix64::new(0);
                for _ in 0..state.transactions {
                    let src = rng.below_mod(n);
                    let dst = (src + 1 + rng.below_mod(n - 1)) % n;
                    let amount = rng.below_mod(1000) + 1;
                    let to = accounts[dst as usize].clone();
                    cast!(accounts[src as usize], AccountMsg::Debit(amount, to))
                        .expect("account closed");
                }
                state.accounts = accounts;
            }
            TellerMsg::Reply => state.replies += 1,
        }
        state.answer_if_complete(&myself).await;
        Ok(())
    }
}

/// An account's behaviour.
struct Account;

/// An account's state.
struct AccountState {
    balance: u64,
    teller: ActorRef<TellerMsg>,
}

impl Actor for Account {
    type Msg = AccountMsg;
    type State = AccountState;
    type Arguments = ActorRef<TellerMsg>;

    async fn pre_start(
        &self,
        _myself: ActorRef<AccountMsg>,
        teller: ActorRef<TellerMsg>,
    ) -> Result<AccountState, ActorProcessingErr> {
        Ok(AccountState {
            balance: OPENING_BALANCE,
            teller,
        })
    }

    async fn handle(
        &self,
        _myself: ActorRef<AccountMsg>,
        message: AccountMsg,
        state: &mut AccountState,
    ) -> Result<(), ActorProcessingErr> {
        match message {
            AccountMsg::Debit(amount, to) => {
                state.balance = state.balance.wrapping_sub(amount);
                cast!(to, AccountMsg::Credit(amount)).expect("account closed");
            }
            AccountMsg::Credit(amount) => {
                state.balance = state.balance.wrapping_add(amount);
                cast!(state.teller, TellerMsg::Reply).expect("teller left");
            }
            AccountMsg::Balance(reply) => {
                let _ = reply.send(state.balance);
            }
        }
        Ok(())
    }
}

/// Makes `transactions` transfers between `accounts` accounts; the check is
/// `TRANSFERS:BALANCES`.
pub async fn run(accounts: u64, transactions: u64) -> Result<Outcome, String> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let (teller, _) = Actor::spawn(None, Teller, (transactions, reply.into()))
        .await
        .map_err(|e| format!("cannot spawn the teller: {e}"))?;
    let mut all = Vec::with_capacity(accounts as usize);
    for k in 0..accounts {
        let (account, _) = Actor::spawn(None, Account, teller.clone())
            .await
            .map_err(|e| format!("cannot spawn account {k}: {e}"))?;
        all.push(account);
    }
    cast!(teller, TellerMsg::Start(all)).map_err(|e| format!("starting the teller: {e}"))?;
    let (transfers, balances) = answer
        .await
        .map_err(|_| "the teller stopped before every transfer was complete")?;
    Ok(Outcome::new(format!("{transfers}:{balances}")))
}
