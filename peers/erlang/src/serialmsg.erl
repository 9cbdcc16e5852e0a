%% @doc serialmsg: messages proxied through one dispatcher (BenchErl's serialmsg).
%%
%% The runner spawns one dispatcher and `Pairs' generator/receiver pairs.
%% Each generator sends `Messages' `{forward, Receiver, {msg, N}}' to the
%% dispatcher, then `{forward, Receiver, done}'. The dispatcher sends the
%% payload of every `forward' to the addressed receiver. Order is kept on both
%% hops (generator to dispatcher, dispatcher to receiver), so a receiver's
%% `done' arrives after all its messages. Each receiver counts the `msg'
%% payloads it gets and, on `done', sends its count to the runner, which sums
%% the `Pairs' counts: the check.
%%
%% The dispatcher, which every generator floods, keeps its message queue off
%% its heap (`{message_queue_data, off_heap}'; see bang.erl).
-module(serialmsg).

-export([run/1]).

-spec run(#{pairs := pos_integer(), messages := non_neg_integer()}) ->
          [{check, non_neg_integer()}].
run(#{pairs := Pairs, messages := Messages}) ->
    Runner = self(),
    Dispatcher = spawn_opt(fun dispatcher/0, [link, {message_queue_data, off_heap}]),
    lists:foreach(
      fun(_) ->
              Receiver = spawn_link(fun() -> receiver(0, Runner) end),
              spawn_link(fun() -> generator(Messages, Receiver, Dispatcher) end)
      end,
      lists:seq(1, Pairs)),
    [{check, sum_counts(Pairs, 0)}].

sum_counts(0, Sum) ->
    Sum;
sum_counts(Left, Sum) ->
    receive
        {delivered, N} -> sum_counts(Left - 1, Sum + N)
    end.

generator(0, Receiver, Dispatcher) ->
    Dispatcher ! {forward, Receiver, done};
generator(Left, Receiver, Dispatcher) ->
    Dispatcher ! {forward, Receiver, {msg, Left}},
    generator(Left - 1, Receiver, Dispatcher).

dispatcher() ->
    receive
        {forward, To, Payload} ->
            To ! Payload,
            dispatcher()
    end.

receiver(Count, Runner) ->
    receive
        {msg, _} -> receiver(Count + 1, Runner);
        done -> Runner ! {delivered, Count}
    end.
