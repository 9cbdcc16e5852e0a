%% @doc fannkuch: fannkuch-redux split into index ranges over worker processes.
%%
%% The n! permutations of 0..n-1 are numbered in the Benchmarks Game's order:
%% from one permutation to the next, rotate the first 2 elements left by one;
%% whenever the rotation of the first i+1 elements has been done i+1 times
%% (a counter per i, kept in a list), it wraps to 0 and the first i+2 elements
%% are rotated too. Permutation number K is reached directly by reading K in
%% the factorial number system: for i = n-1 down to 1, digit d_i = K div i!
%% (then K = K rem i!) rotates the first i+1 elements left by d_i, and d_i is
%% counter i.
%%
%% For each permutation, flips = how often the prefix of length P[0]+1 is
%% reversed until P[0] = 0; the checksum adds flips for an even permutation
%% number and subtracts it for an odd one, and the maximum is kept.
%%
%% The runner, which is also the collector, cuts [0, n!) into a few ranges per
%% scheduler (so the work balances across schedulers while ranges differ in
%% cost) and spawns one worker process per range. Each worker starts from the
%% first permutation of its range, walks it, and sends `{partial, Sum, Max}'.
%% The collector adds the sums and takes the maximum of the maxima over all
%% partial results it receives: `CHECKSUM:MAXFLIPS' is the check.
%%
%% Permutations are lists: a flip rebuilds only the reversed prefix onto the
%% untouched tail (one function clause per prefix length), and a rotation only
%% the rotated prefix.
-module(fannkuch).

-export([run/1, range/3]).

%% Ranges per online scheduler.
-define(RANGES_PER_SCHEDULER, 8).

-spec run(#{n := 3..12}) -> [{check, binary()}].
run(#{n := N}) ->
    Total = factorial(N),
    Ranges = min(Total, ?RANGES_PER_SCHEDULER * erlang:system_info(schedulers_online)),
    Collector = self(),
    lists:foreach(
      fun(K) ->
              Lo = K * Total div Ranges,
              Hi = (K + 1) * Total div Ranges,
              spawn_link(fun() ->
                                 {Sum, Max} = range(N, Lo, Hi),
                                 Collector ! {partial, Sum, Max}
                         end)
      end,
      lists:seq(0, Ranges - 1)),
    {Checksum, MaxFlips} = collect(Ranges, 0, 0),
    [{check, iolist_to_binary([integer_to_list(Checksum), ":", integer_to_list(MaxFlips)])}].

collect(0, Sum, Max) ->
    {Sum, Max};
collect(Left, Sum, Max) ->
    receive
        {partial, S, M} -> collect(Left - 1, Sum + S, max(Max, M))
    end.

%% @doc Checksum and maximum flips over permutations Lo..Hi-1 (Lo < Hi).
-spec range(pos_integer(), non_neg_integer(), pos_integer()) ->
          {integer(), non_neg_integer()}.
range(N, Lo, Hi) ->
    {Perm, Counters} = permutation(N, Lo),
    walk(Lo, Hi, Perm, Counters, 0, 0).

walk(K, Hi, Perm, Counters, Sum, Max) ->
    F = flips(Perm, 0),
    Sum1 = case K band 1 of
               0 -> Sum + F;
               1 -> Sum - F
           end,
    Max1 = max(Max, F),
    case K + 1 of
        Hi ->
            {Sum1, Max1};
        K1 ->
            {Perm1, Counters1} = next(2, Perm, Counters),
            walk(K1, Hi, Perm1, Counters1, Sum1, Max1)
    end.

%% Permutation number K and its counters [c_1, ..., c_{n-1}].
permutation(N, K) ->
    permutation(N - 1, K, lists:seq(0, N - 1), []).

permutation(0, _K, Perm, Counters) ->
    {Perm, Counters};
permutation(I, K, Perm, Counters) ->
    F = factorial(I),
    D = K div F,
    {Prefix, Rest} = lists:split(I + 1, Perm),
    {Front, Back} = lists:split(D, Prefix),
    permutation(I - 1, K rem F, Back ++ Front ++ Rest, [D | Counters]).

%% The next permutation: rotate the first Len elements; carry into Len+1
%% when this rotation's counter wraps.
next(Len, Perm, [C | Cs]) ->
    Rotated = rotate(Len, Perm),
    case C + 1 < Len of
        true ->
            {Rotated, [C + 1 | Cs]};
        false ->
            {Perm1, Cs1} = next(Len + 1, Rotated, Cs),
            {Perm1, [0 | Cs1]}
    end.

%% Rotates the first Len elements left by one.
rotate(Len, [H | T]) -> insert(Len - 1, T, H).

insert(0, T, H) -> [H | T];
insert(K, [X | T], H) -> [X | insert(K - 1, T, H)].

flips([0 | _], F) -> F;
flips(Perm, F) -> flips(flip(Perm), F + 1).

%% Reverses the first H+1 elements, H being the first: one clause per H, so a
%% flip is one match and one construction of the new prefix onto the tail.
flip([1, B | T]) -> [B, 1 | T];
flip([2, B, C | T]) -> [C, B, 2 | T];
flip([3, B, C, D | T]) -> [D, C, B, 3 | T];
flip([4, B, C, D, E | T]) -> [E, D, C, B, 4 | T];
flip([5, B, C, D, E, F | T]) -> [F, E, D, C, B, 5 | T];
flip([6, B, C, D, E, F, G | T]) -> [G, F, E, D, C, B, 6 | T];
flip([7, B, C, D, E, F, G, H | T]) -> [H, G, F, E, D, C, B, 7 | T];
flip([8, B, C, D, E, F, G, H, I | T]) -> [I, H, G, F, E, D, C, B, 8 | T];
flip([9, B, C, D, E, F, G, H, I, J | T]) -> [J, I, H, G, F, E, D, C, B, 9 | T];
flip([10, B, C, D, E, F, G, H, I, J, K | T]) -> [K, J, I, H, G, F, E, D, C, B, 10 | T];
flip([11, B, C, D, E, F, G, H, I, J, K, L | T]) -> [L, K, J, I, H, G, F, E, D, C, B, 11 | T].

factorial(0) -> 1;
factorial(N) -> N * factorial(N - 1).
