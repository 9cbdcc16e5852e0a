%% @doc cigsmok: cigarette smokers and an arbiter (Savina's cigarette
%% smokers).
%%
%% The arbiter (the runner) draws from a generator seeded with 0. In each
%% round R it draws S = below(Smokers) and T = below(1000), sends smoker S
%% `{smoke, R, T}', and waits for the smoker's `started' before the next
%% round. A smoker sends `started', then smokes: it counts the smoke and adds
%% `work(R, T)' to its digest. After the last round the arbiter sends every
%% smoker `stop'; each answers with its id, count and digest. The check is
%% `WEIGHTED:DIGEST', WEIGHTED being the sum of (Id+1)*Count.
-module(cigsmok).

-export([run/1]).

-spec run(#{rounds := non_neg_integer(), smokers := pos_integer()}) -> [{check, binary()}].
run(#{rounds := Rounds, smokers := Smokers}) ->
    Arbiter = self(),
    Pids = list_to_tuple([spawn_link(fun() -> smoker(Id, Arbiter, 0, 0) end)
                          || Id <- lists:seq(0, Smokers - 1)]),
    rounds(0, Rounds, Pids, 0),
    lists:foreach(fun(Pid) -> Pid ! stop end, tuple_to_list(Pids)),
    {Weighted, Digest} = collect(Smokers, 0, 0),
    [{check, splitmix:check([Weighted, Digest])}].

rounds(Rounds, Rounds, _Pids, _Rand) ->
    ok;
rounds(Round, Rounds, Pids, Rand0) ->
    {S, Rand1} = splitmix:below(Rand0, tuple_size(Pids)),
    {T, Rand2} = splitmix:below(Rand1, 1000),
    element(S + 1, Pids) ! {smoke, Round, T},
    receive
        started -> rounds(Round + 1, Rounds, Pids, Rand2)
    end.

collect(0, Weighted, Digest) ->
    {Weighted, Digest};
collect(Left, Weighted, Digest) ->
    receive
        {smoked, Id, Count, D} ->
            collect(Left - 1, Weighted + (Id + 1) * Count, splitmix:wrap(Digest + D))
    end.

smoker(Id, Arbiter, Count, Digest) ->
    receive
        {smoke, Round, T} ->
            Arbiter ! started,
            smoker(Id, Arbiter, Count + 1, splitmix:wrap(Digest + splitmix:work(Round, T)));
        stop ->
            Arbiter ! {smoked, Id, Count, Digest}
    end.
