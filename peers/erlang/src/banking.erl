%% @doc banking: a teller's transfers between account processes (Savina's
%% bank transaction).
%%
%% The runner is the teller. It spawns `Accounts' account processes, each
%% holding the balance 1,000,000, and draws from a generator seeded with 0,
%% for each of `Transactions' transfers, Src = below(Accounts),
%% Dst = (Src + 1 + below(Accounts - 1)) rem Accounts and
%% Amount = below(1000) + 1; it sends account Src `{debit, Amount, DstPid}'
%% at once, without waiting for earlier transfers. The source subtracts the
%% amount and sends the destination `{credit, Amount}'; the destination adds
%% it and sends the teller `credited'. When the teller has all its replies it
%% asks every account for its balance (an account's last message). The check
%% is `TRANSFERS:BALANCES', BALANCES the sum of (K+1)*Balance_K mod 2^64.
%%
%% The teller keeps its message queue off its heap
%% (`{message_queue_data, off_heap}'): the replies pile up while it is still
%% sending transfers, and on its heap they cost it three to five times the
%% CPU (peers/README.md).
%%
%% Balances are plain integers that may go negative (small integers stay
%% cheap); reducing the final sum mod 2^64 gives the same value as wrapping
%% every step.
-module(banking).

-export([run/1]).

-define(START, 1000000).

-spec run(#{accounts := pos_integer(), transactions := non_neg_integer()}) ->
          [{check, binary()}].
run(#{accounts := Accounts, transactions := Transactions}) ->
    Teller = self(),
    process_flag(message_queue_data, off_heap),
    Pids = list_to_tuple([spawn_link(fun() -> account(?START, Teller) end)
                          || _ <- lists:seq(1, Accounts)]),
    transfers(Transactions, Pids, 0),
    Transfers = replies(Transactions, 0),
    Balances = balances(tuple_to_list(Pids), 1, 0),
    [{check, splitmix:check([Transfers, Balances])}].

transfers(0, _Pids, _Rand) ->
    ok;
transfers(Left, Pids, Rand0) ->
    N = tuple_size(Pids),
    {Src, Rand1} = splitmix:below(Rand0, N),
    {Offset, Rand2} = splitmix:below(Rand1, N - 1),
    {Amount, Rand3} = splitmix:below(Rand2, 1000),
    Dst = (Src + 1 + Offset) rem N,
    element(Src + 1, Pids) ! {debit, Amount + 1, element(Dst + 1, Pids)},
    transfers(Left - 1, Pids, Rand3).

replies(0, Got) ->
    Got;
replies(Left, Got) ->
    receive
        credited -> replies(Left - 1, Got + 1)
    end.

balances([], _K, Sum) ->
    Sum;
balances([Pid | Pids], K, Sum) ->
    Pid ! {balance, self()},
    receive
        {Pid, Balance} -> balances(Pids, K + 1, Sum + K * Balance)
    end.

account(Balance, Teller) ->
    receive
        {debit, Amount, Dst} ->
            Dst ! {credit, Amount},
            account(Balance - Amount, Teller);
        {credit, Amount} ->
            Teller ! credited,
            account(Balance + Amount, Teller);
        {balance, From} ->
            From ! {self(), Balance}
    end.
