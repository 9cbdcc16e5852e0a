%% @doc counting: one producer, one counter process, then one query (Savina).
%%
%% The runner spawns a counter, which adds one for every `increment' it
%% receives and answers `{get, From}' with `{count, Value}', and a producer,
%% which sends `Count' increments and then a `get'. Messages from the producer
%% arrive in order, so the answer covers every increment. The producer passes
%% the answer to the runner: the check.
%%
%% The counter keeps its message queue off its heap
%% (`{message_queue_data, off_heap}'; see bang.erl).
-module(counting).

-export([run/1]).

-spec run(#{count := non_neg_integer()}) -> [{check, non_neg_integer()}].
run(#{count := Count}) ->
    Runner = self(),
    Counter = spawn_opt(fun() -> counter(0) end, [link, {message_queue_data, off_heap}]),
    spawn_link(fun() -> producer(Count, Counter, Runner) end),
    receive
        {answer, Value} -> [{check, Value}]
    end.

producer(0, Counter, Runner) ->
    Counter ! {get, self()},
    receive
        {count, Value} -> Runner ! {answer, Value}
    end;
producer(Left, Counter, Runner) ->
    Counter ! increment,
    producer(Left - 1, Counter, Runner).

counter(Value) ->
    receive
        increment -> counter(Value + 1);
        {get, From} -> From ! {count, Value}
    end.
