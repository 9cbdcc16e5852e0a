%% @doc pingpong: request/reply latency between two processes (Savina).
%%
%% The runner spawns a ponger, which answers every `{ping, From}' with `pong',
%% and a pinger, which sends a ping, waits for the pong, and does so `Pings'
%% times, counting the pongs it receives. The pinger sends its count to the
%% runner: the check.
-module(pingpong).

-export([run/1]).

-spec run(#{pings := non_neg_integer()}) -> [{check, non_neg_integer()}].
run(#{pings := Pings}) ->
    Runner = self(),
    Ponger = spawn_link(fun ponger/0),
    spawn_link(fun() -> Runner ! {pongs, pinger(Pings, Ponger, 0)} end),
    receive
        {pongs, Count} -> [{check, Count}]
    end.

pinger(0, _Ponger, Pongs) ->
    Pongs;
pinger(Left, Ponger, Pongs) ->
    Ponger ! {ping, self()},
    receive
        pong -> pinger(Left - 1, Ponger, Pongs + 1)
    end.

ponger() ->
    receive
        {ping, From} ->
            From ! pong,
            ponger()
    end.
