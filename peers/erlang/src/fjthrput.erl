%% @doc fjthrput: fork-join throughput, one sender and many receivers
%% (Savina's ForkJoin throughput).
%%
%% The runner spawns `Actors' receivers, numbered from 0, and a sender. The
%% sender sends, for I from 0 to Messages-1 and within that to every receiver
%% R in turn, the bare integer `R*Messages + I'. A receiver handles a message
%% by counting it and adding `step(V)' to its digest; when it has handled its
%% `Messages' messages it sends `{handled, Count, Digest}' to the runner, the
%% collector, and ends. The check is `HANDLED:DIGEST', the sums of the
%% reports.
%%
%% The receivers keep their message queues off their heaps
%% (`{message_queue_data, off_heap}', as bang's receiver does): at two
%% schedulers the sender's flood otherwise cost seven times the CPU
%% (peers/README.md).
-module(fjthrput).

-export([run/1]).

-spec run(#{actors := pos_integer(), messages := non_neg_integer()}) -> [{check, binary()}].
run(#{actors := Actors, messages := Messages}) ->
    Collector = self(),
    Receivers = [{spawn_opt(fun() -> receiver(Messages, 0, 0, Collector) end, [link, {message_queue_data, off_heap}]), R * Messages}
                 || R <- lists:seq(0, Actors - 1)],
    spawn_link(fun() -> sender(0, Messages, Receivers) end),
    {Handled, Digest} = collect(Actors, 0, 0),
    [{check, splitmix:check([Handled, Digest])}].

collect(0, Handled, Digest) ->
    {Handled, Digest};
collect(Left, Handled, Digest) ->
    receive
        {handled, N, D} -> collect(Left - 1, Handled + N, splitmix:wrap(Digest + D))
    end.

%% Message I to every receiver (whose first value is Base) before I+1 to any.
sender(Messages, Messages, _Receivers) ->
    ok;
sender(I, Messages, Receivers) ->
    lists:foreach(fun({Pid, Base}) -> Pid ! Base + I end, Receivers),
    sender(I + 1, Messages, Receivers).

receiver(0, Count, Digest, Collector) ->
    Collector ! {handled, Count, Digest};
receiver(Left, Count, Digest, Collector) ->
    receive
        V -> receiver(Left - 1, Count + 1, splitmix:wrap(Digest + splitmix:step(V)), Collector)
    end.
