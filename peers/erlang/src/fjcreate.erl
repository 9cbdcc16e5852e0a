%% @doc fjcreate: fork-join creation, many processes that each handle one
%% message and end (Savina's ForkJoin creation).
%%
%% The runner spawns processes 0..Actors-1 one after the other and sends
%% process K the bare integer K right after spawning it, without waiting for
%% anything. A process receives its message, sends `step(K)' to the runner
%% (the collector) and ends. The runner then adds up the `Actors' reports:
%% `HANDLED:DIGEST'.
%%
%% The processes are started with `spawn/3' and not linked, as the trees are
%% (peers/README.md): nothing can fail in them, and a link costs every spawn
%% and exit. Spawning can fail (`system_limit'); it then fails the runner.
-module(fjcreate).

-export([run/1, actor/1]).

-spec run(#{actors := pos_integer()}) -> [{check, binary()}].
run(#{actors := Actors}) ->
    create(0, Actors, self()),
    {Handled, Digest} = collect(Actors, 0, 0),
    [{check, splitmix:check([Handled, Digest])}].

create(Actors, Actors, _Collector) ->
    ok;
create(K, Actors, Collector) ->
    spawn(?MODULE, actor, [Collector]) ! K,
    create(K + 1, Actors, Collector).

collect(0, Handled, Digest) ->
    {Handled, Digest};
collect(Left, Handled, Digest) ->
    receive
        {step, S} -> collect(Left - 1, Handled + 1, splitmix:wrap(Digest + S))
    end.

%% @doc One created process: handles its message and ends.
-spec actor(pid()) -> ok.
actor(Collector) ->
    receive
        K -> Collector ! {step, splitmix:step(K)}, ok
    end.
