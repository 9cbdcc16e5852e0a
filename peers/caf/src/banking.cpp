// banking: a teller's transfers between account actors (Savina).
//
// CAF mapping: the teller is the root, a stateful event-based actor with a
// SplitMix64 generator seeded with 0. On `run` it spawns the accounts and,
// for each transaction, draws src, dst and amount and sends account src a
// plain `(debit, dst, amount)` at once, without waiting for earlier
// transfers. The source subtracts the amount and hands the message on with
// `delegate(dst, credit, amount)`, CAF's way of forwarding a message so that
// the destination's answer goes straight to the original sender. The
// destination adds the amount and returns `ok`, which CAF sends to the
// teller. After the last `ok` the teller sends every account `balance`; each
// returns `(statement, k, balance)`, the teller adds (k+1)*balance_k, and
// after the last statement it stops the accounts and delivers
// TRANSFERS:BALANCES. Balances are uint64_t and wrap.
//
// The teller keeps tens of thousands of transfers in flight. It uses plain
// messages, not `request(...).then(...)`: CAF 0.17 keeps a scheduled actor's
// pending response handlers in a flat map searched linearly, so that many
// requests outstanding at once cost time quadratic in their number
// (peers/README.md).
#include <cstdint>
#include <vector>

#include "caf/all.hpp"

#include "benchmarks.hpp"
#include "driver.hpp"
#include "splitmix.hpp"

namespace suite {

namespace {

using debit_atom = caf::atom_constant<caf::atom("debit")>;
using credit_atom = caf::atom_constant<caf::atom("credit")>;
using ok_atom = caf::atom_constant<caf::atom("ok")>;
using balance_atom = caf::atom_constant<caf::atom("balance")>;
using statement_atom = caf::atom_constant<caf::atom("statement")>;

constexpr uint64_t initial_balance = 1000000;

struct account_state {
  uint64_t balance = initial_balance;
};

using account_actor = caf::stateful_actor<account_state>;

caf::behavior account(account_actor* self, uint64_t k) {
  return {
    [=](debit_atom, const caf::actor& dst, uint64_t amount) {
      self->state.balance -= amount;
      return self->delegate(dst, credit_atom::value, amount);
    },
    [=](credit_atom, uint64_t amount) {
      self->state.balance += amount;
      return ok_atom::value;
    },
    [=](balance_atom) -> caf::result<statement_atom, uint64_t, uint64_t> {
      return {statement_atom::value, k, self->state.balance};
    },
    [=](stop_atom) { self->quit(); },
  };
}

struct teller_state {
  std::vector<caf::actor> accounts;
  uint64_t transfers = 0;
  uint64_t balances_in = 0;
  uint64_t balances = 0;
  caf::response_promise done;
};

using teller_actor = caf::stateful_actor<teller_state>;

// Asks every account for its balance.
void ask_balances(teller_actor* self) {
  for (const auto& a : self->state.accounts)
    self->send(a, balance_atom::value);
}

caf::behavior teller(teller_actor* self, uint64_t accounts,
                     uint64_t transactions) {
  return {
    [=](run_atom) {
      auto& st = self->state;
      st.done = self->make_response_promise();
      st.accounts.reserve(accounts);
      for (uint64_t k = 0; k < accounts; ++k)
        st.accounts.push_back(self->spawn(account, k));
      splitmix rng{0};
      for (uint64_t t = 0; t < transactions; ++t) {
        auto src = rng.below(accounts);
        auto dst = (src + 1 + rng.below(accounts - 1)) % accounts;
        auto amount = rng.below(1000) + 1;
        self->send(st.accounts[src], debit_atom::value, st.accounts[dst],
                   amount);
      }
      if (transactions == 0)
        ask_balances(self);
      return st.done;
    },
    [=](ok_atom) {
      if (++self->state.transfers == transactions)
        ask_balances(self);
    },
    [=](statement_atom, uint64_t k, uint64_t balance) {
      auto& st = self->state;
      st.balances += (k + 1) * balance;
      if (++st.balances_in < accounts)
        return;
      for (const auto& a : st.accounts)
        self->send(a, stop_atom::value);
      st.accounts.clear();
      st.done.deliver(st.transfers, st.balances);
      self->quit();
    },
  };
}

} // namespace

outcome run_banking(caf::actor_system& sys, const bench_args& args) {
  auto root = sys.spawn(teller, args.get("accounts"),
                        args.get("transactions"));
  uint64_t transfers = 0;
  uint64_t balances = 0;
  await_reply(
    sys, root,
    [&](uint64_t t, uint64_t b) {
      transfers = t;
      balances = b;
    },
    run_atom::value);
  return {std::to_string(transfers) + ":" + std::to_string(balances), ""};
}

} // namespace suite
