%% @doc The contract's random-number generator and unit of work, and how
%% its checks are printed (docs/benchmarks.md, "The generator and the
%% arithmetic").
%%
%% SplitMix64: a generator's state advances by the golden-ratio constant and
%% each output is the state put through a three-round mixing function.
%% `step(X)' is one advance-and-mix of a value and `work(X, N)' applies it N
%% times: it stands for the Savina programs' busy waits and small
%% computations, and its result goes into the check. Arithmetic is on
%% unsigned 64-bit integers, wrapping: Erlang integers do not overflow, so
%% every product and sum that must wrap is masked with `band ?MASK'. A
%% generator is its state, an integer, threaded through the drawing
%% process's loop.
-module(splitmix).

-export([step/1, work/2, next/1, below/2, wrap/1, check/1]).

-define(MASK, 16#FFFFFFFFFFFFFFFF).
-define(GAMMA, 16#9E3779B97F4A7C15).

%% @doc One advance-and-mix of X: what a generator in state X returns next.
-spec step(non_neg_integer()) -> non_neg_integer().
step(X) ->
    mix((X + ?GAMMA) band ?MASK).

%% @doc `step' applied N times to X (`work(X, 0) = X').
-spec work(non_neg_integer(), non_neg_integer()) -> non_neg_integer().
work(X, 0) -> X;
work(X, N) -> work(mix((X + ?GAMMA) band ?MASK), N - 1).

%% @doc The next draw of the generator in state State, and its new state.
-spec next(non_neg_integer()) -> {non_neg_integer(), non_neg_integer()}.
next(State) ->
    Next = (State + ?GAMMA) band ?MASK,
    {mix(Next), Next}.

%% @doc `next() mod N', N >= 1, and the new state.
-spec below(non_neg_integer(), pos_integer()) -> {non_neg_integer(), non_neg_integer()}.
below(State, N) ->
    {X, State1} = next(State),
    {X rem N, State1}.

%% @doc An integer reduced to its unsigned 64-bit value (mod 2^64).
-spec wrap(integer()) -> non_neg_integer().
wrap(X) -> X band ?MASK.

%% @doc A check as the contract prints it: the numbers, each mod 2^64, as
%% decimals joined by `:'.
-spec check([integer()]) -> binary().
check(Numbers) ->
    iolist_to_binary(lists:join(":", [integer_to_list(wrap(N)) || N <- Numbers])).

mix(Z0) ->
    Z1 = ((Z0 bxor (Z0 bsr 30)) * 16#BF58476D1CE4E5B9) band ?MASK,
    Z2 = ((Z1 bxor (Z1 bsr 27)) * 16#94D049BB133111EB) band ?MASK,
    Z2 bxor (Z2 bsr 31).
