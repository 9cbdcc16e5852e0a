%% @doc bang: many senders flooding one receiver (BenchErl's bang).
%%
%% The runner spawns one receiver and `Senders' sender processes. Each sender
%% sends `Messages' `{msg, self()}' messages to the receiver and then
%% `{done, self()}'. Messages from one sender arrive in the order sent, so a
%% sender's `done' comes after all its messages. The receiver counts every
%% `msg' it takes from its mailbox until it has seen `Senders' `done'
%% messages, then sends the count to the runner: the check.
%%
%% The receiver keeps its message queue off its heap
%% (`{message_queue_data, off_heap}'): a sender then never needs the
%% receiver's heap lock, and the queue that builds up is not copied by the
%% receiver's garbage collections.
-module(bang).

-export([run/1]).

-spec run(#{senders := pos_integer(), messages := non_neg_integer()}) ->
          [{check, non_neg_integer()}].
run(#{senders := Senders, messages := Messages}) ->
    Runner = self(),
    Receiver = spawn_opt(fun() -> receiver(Senders, 0, Runner) end,
                         [link, {message_queue_data, off_heap}]),
    lists:foreach(fun(_) -> spawn_link(fun() -> sender(Messages, Receiver) end) end,
                  lists:seq(1, Senders)),
    receive
        {received, Count} -> [{check, Count}]
    end.

receiver(0, Count, Runner) ->
    Runner ! {received, Count};
receiver(Senders, Count, Runner) ->
    receive
        {msg, _From} -> receiver(Senders, Count + 1, Runner);
        {done, _From} -> receiver(Senders - 1, Count, Runner)
    end.

sender(0, Receiver) ->
    Receiver ! {done, self()};
sender(Left, Receiver) ->
    Receiver ! {msg, self()},
    sender(Left - 1, Receiver).
