%% @doc threadring: one token hopping around a ring of processes.
%%
%% Processes 1..Actors form a ring; each knows only the pid of the next one.
%% The ring is built backwards: process 1 is spawned first and waits to be
%% told its successor, then Actors, Actors-1, ..., 2 are spawned, each with the
%% pid spawned before it as its successor (Actors' successor is process 1),
%% and finally process 1 learns that its successor is process 2.
%%
%% Process 1 gets the token `Hops'. The token is a bare integer, the cheapest
%% message there is (nothing to allocate or copy). A process that receives
%% T > 0 sends T - 1 to its successor and waits for the next token; the one
%% that receives 0 sends its own id to the runner, which is the check. All
%% ring processes are linked to the runner and go down when it exits.
-module(threadring).

-export([run/1]).

-spec run(#{actors := pos_integer(), hops := non_neg_integer()}) -> [{check, pos_integer()}].
run(#{actors := Actors, hops := Hops}) ->
    Runner = self(),
    First = spawn_link(fun() -> receive {next, Next} -> node(1, Next, Runner) end end),
    Second = lists:foldl(fun(Id, Next) -> spawn_link(fun() -> node(Id, Next, Runner) end) end,
                         First, lists:seq(Actors, 2, -1)),
    First ! {next, Second},
    First ! Hops,
    receive
        {received_zero, Id} -> [{check, Id}]
    end.

node(Id, Next, Runner) ->
    receive
        0 ->
            Runner ! {received_zero, Id};
        T ->
            Next ! T - 1,
            node(Id, Next, Runner)
    end.
