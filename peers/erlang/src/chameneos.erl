%% @doc chameneos: creatures meeting in pairs at one meeting-place process.
%%
%% One broker process (the meeting place) and `Creatures' creature processes.
%% Creature I (0-based) starts with colour `[blue, red, yellow][I rem 3]' and
%% sends `{Pid, I, Colour}' to the broker, then waits. The broker holds at
%% most one waiting creature: when a second request arrives it pairs the two
%% (never a creature with itself: each has only one request outstanding, and
%% the broker crashes the run if the ids were ever equal), computes
%% `complement(A, B)' and sends each `{OtherId, NewColour}'. A creature counts
%% the meeting, takes the new colour and asks again. The messages carry no
%% tag atom: each process receives only one shape of message on the hot path
%% (3-tuples at the broker, 2-tuples at a creature), and the smaller tuples
%% cost less to build and copy, as in the Benchmarks Game's chameneos-redux.
%%
%% After `Meetings' meetings the broker sends `stop' to every creature and
%% ends. A meeting's answer always reaches a creature before its `stop'
%% (messages between two processes stay in order), so each creature's count is
%% final when it sends `{count, I, N}' to the runner. The runner sums the
%% counts it received: that sum is the check, and the counts in creature order
%% are printed too.
-module(chameneos).

-export([run/1]).

-spec run(#{creatures := pos_integer(), meetings := non_neg_integer()}) ->
          [{check, non_neg_integer()} | {counts, [non_neg_integer()]}].
run(#{creatures := Creatures, meetings := Meetings}) ->
    Runner = self(),
    Broker = spawn_link(fun() -> broker_start(Meetings) end),
    Colours = {blue, red, yellow},
    Pids = [spawn_link(fun() ->
                               creature(I, element(I rem 3 + 1, Colours), Broker, Runner)
                       end)
            || I <- lists:seq(0, Creatures - 1)],
    Broker ! {creatures, Pids},
    Counts = collect(Creatures, #{}),
    [{check, lists:sum(Counts)}, {counts, Counts}].

%% The runner: one count per creature, returned in creature order.
collect(0, Counts) ->
    [N || {_, N} <- lists:sort(maps:to_list(Counts))];
collect(Left, Counts) ->
    receive
        {count, I, N} -> collect(Left - 1, Counts#{I => N})
    end.

creature(Id, Colour, Broker, Runner) ->
    Broker ! {self(), Id, Colour},
    wait(Id, Broker, Runner, 0).

wait(Id, Broker, Runner, Met) ->
    receive
        {_OtherId, NewColour} ->
            Broker ! {self(), Id, NewColour},
            wait(Id, Broker, Runner, Met + 1);
        stop ->
            Runner ! {count, Id, Met}
    end.

%% The broker first learns every creature (to stop them all at the end).
broker_start(Meetings) ->
    receive
        {creatures, Pids} -> broker(Meetings, Pids)
    end.

broker(0, Pids) ->
    lists:foreach(fun(P) -> P ! stop end, Pids);
broker(Left, Pids) ->
    receive
        {P1, Id1, C1} ->
            receive
                {P2, Id2, C2} ->
                    Id1 =/= Id2 orelse error({creature_met_itself, Id1}),
                    New = complement(C1, C2),
                    P1 ! {Id2, New},
                    P2 ! {Id1, New},
                    broker(Left - 1, Pids)
            end
    end.

complement(C, C) -> C;
complement(blue, red) -> yellow;
complement(blue, yellow) -> red;
complement(red, blue) -> yellow;
complement(red, yellow) -> blue;
complement(yellow, blue) -> red;
complement(yellow, red) -> blue.
