%% @doc fjcreate: fork-join creation, many processes that each handle one
%% message and end (Savina's ForkJoin creation).
%%
%% The runner spawns processes 0..Actors-1 one after the other and sends
%% process K the bare integer K right after spawning it, without waiting for
%% anything. A process receives its message, sends `step(K)' to a collector
%% process and ends. The collector adds up the `Actors' reports as they come
%% and hands `HANDLED:DIGEST' to the runner. (With the runner itself as the
%% collector, every report waited in its mailbox until the last process was
%% spawned: 2,000,000 processes peaked at 450 MB.)
%%
%% The processes are started with `spawn/3' and not linked, as the trees are
%% (peers/README.md): nothing can fail in them, and a link costs every spawn
%% and exit. Spawning can fail (`system_limit'); it then fails the runner.
-module(fjcreate).

-export([run/1, actor/1]).

-spec run(#{actors := pos_integer()}) -> [{check, binary()}].
run(#{actors := Actors}) ->
    Runner = self(),
    Collector = spawn_link(fun() -> Runner ! {collected, collect(Actors, 0, 0)} end),
    create(0, Actors, Collector),
    receive
        {collected, {Handled, Digest}} -> [{check, splitmix:check([Handled, Digest])}]
    end.

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
