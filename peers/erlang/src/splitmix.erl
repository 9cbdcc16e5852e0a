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

-compile({inline, [shift_xor/3, mul/4]}).

-define(MASK, 16#FFFFFFFFFFFFFFFF).
-define(M32, 16#FFFFFFFF).
-define(GAMMA, 16#9E3779B97F4A7C15).
-define(GAMMA_HI, 16#9E3779B9).
-define(GAMMA_LO, 16#7F4A7C15).

%% @doc One advance-and-mix of X: what a generator in state X returns next.
-spec step(non_neg_integer()) -> non_neg_integer().
step(X) ->
    work(X, 1).

%% @doc `step' applied N times to X (`work(X, 0) = X').
-spec work(non_neg_integer(), non_neg_integer()) -> non_neg_integer().
work(X, N) ->
    {H, L} = halves(X, N, X bsr 32, X band ?M32),
    (H bsl 32) bor L.

%% @doc The next draw of the generator in state State, and its new state.
-spec next(non_neg_integer()) -> {non_neg_integer(), non_neg_integer()}.
next(State) ->
    {step(State), (State + ?GAMMA) band ?MASK}.

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

%% The work loop on a 64-bit value held as two 32-bit halves. BEAM's small
%% integers hold 59 bits and a sign, so a 64-bit value, and above all a
%% 64-by-64-bit product, would be a bignum allocated on the heap at every
%% operation; on halves, with the products split further (mul/4), every
%% intermediate stays a small integer. This runs work/2 about ten times faster
%% than the plain `band ?MASK' arithmetic (peers/README.md).
halves(_X, 0, H, L) ->
    {H, L};
halves(X, N, H0, L0) ->
    L1 = L0 + ?GAMMA_LO,
    H1 = (H0 + ?GAMMA_HI + (L1 bsr 32)) band ?M32,
    {H2, L2} = shift_xor(H1, L1 band ?M32, 30),
    {H3, L3} = mul(H2, L2, 16#BF58476D, 16#1CE4E5B9),
    {H4, L4} = shift_xor(H3, L3, 27),
    {H5, L5} = mul(H4, L4, 16#94D049BB, 16#133111EB),
    {H6, L6} = shift_xor(H5, L5, 31),
    halves(X, N - 1, H6, L6).

%% z xor (z >> S), 0 < S < 32, on halves.
shift_xor(H, L, S) ->
    {H bxor (H bsr S), L bxor (((L bsr S) bor (H bsl (32 - S))) band ?M32)}.

%% z * C mod 2^64 on halves, C = CH * 2^32 + CL. Every product is of a 32-bit
%% half and a 16-bit piece of C, so below 2^48.
mul(H, L, CH, CL) ->
    CLL = CL band 16#FFFF,
    CLH = CL bsr 16,
    B = L * CLH,
    Low = L * CLL + ((B band 16#FFFF) bsl 16),
    Carry = (Low bsr 32) + (B bsr 16),
    HighH = H * CLL + (((H * CLH) band 16#FFFF) bsl 16),
    HighL = L * (CH band 16#FFFF) + (((L * (CH bsr 16)) band 16#FFFF) bsl 16),
    {(Carry + HighH + HighL) band ?M32, Low band ?M32}.
