%% @doc bndbuffer: producers and consumers through a manager with a bounded
%% buffer (Savina's producer-consumer with a bounded buffer).
%%
%% The manager is a process whose state is the buffer (a `queue' of at most
%% `Buffer' items), the queue of producers it holds back and the queue of
%% consumers waiting for data.
%%
%% - Producer P draws from a generator seeded with P. It makes item I as
%%   `work(next(), Cost)', sends `{data, self(), Item}' to the manager and
%%   waits for `produce' before the next; after its last item (and that
%%   `produce') it sends `{producer_done, self()}'.
%% - The manager hands an arriving item to a waiting consumer, or else buffers
%%   it; then it tells the producer to produce while the buffer has room, and
%%   otherwise holds the producer back until a consumer takes an item.
%% - A consumer sends `{available, self()}', receives `{item, Item}', adds
%%   `work(Item, Cost)' to its sum and says it is available again. The
%%   manager answers an available consumer with the oldest buffered item (and
%%   lets the oldest held-back producer go on), or queues it.
%% - When every producer is done and every consumer waits (so the buffer is
%%   empty), the manager sends the consumers `stop'; each sends its count and
%%   sum to the runner. The check is `CONSUMED:SUM'.
-module(bndbuffer).

-export([run/1]).

-record(manager, {buffer, data = queue:new(), size = 0, held = queue:new(),
                  waiting = queue:new(), idle = 0, producers, consumers, done = 0}).

-spec run(#{buffer := pos_integer(), producers := pos_integer(),
            consumers := pos_integer(), items := non_neg_integer(),
            cost := non_neg_integer()}) -> [{check, binary()}].
run(#{buffer := Buffer, producers := Producers, consumers := Consumers, items := Items,
      cost := Cost}) ->
    Runner = self(),
    Manager = spawn_link(fun() -> manager(#manager{buffer = Buffer, producers = Producers,
                                                   consumers = Consumers})
                         end),
    lists:foreach(fun(P) -> spawn_link(fun() -> producer(Items, Cost, P, Manager) end) end,
                  lists:seq(0, Producers - 1)),
    lists:foreach(fun(_) -> spawn_link(fun() -> consumer(Manager, Cost, Runner, 0, 0) end) end,
                  lists:seq(1, Consumers)),
    {Consumed, Sum} = collect(Consumers, 0, 0),
    [{check, splitmix:check([Consumed, Sum])}].

collect(0, Consumed, Sum) ->
    {Consumed, Sum};
collect(Left, Consumed, Sum) ->
    receive
        {consumed, N, S} -> collect(Left - 1, Consumed + N, splitmix:wrap(Sum + S))
    end.

manager(#manager{done = Done, producers = Done, idle = Idle, consumers = Idle,
                 waiting = Waiting}) ->
    lists:foreach(fun(Consumer) -> Consumer ! stop end, queue:to_list(Waiting));
manager(M) ->
    receive
        {data, Producer, Item} ->
            M1 = case queue:out(M#manager.waiting) of
                     {{value, Consumer}, Rest} ->
                         Consumer ! {item, Item},
                         M#manager{waiting = Rest, idle = M#manager.idle - 1};
                     {empty, _} ->
                         M#manager{data = queue:in(Item, M#manager.data),
                                   size = M#manager.size + 1}
                 end,
            case M1#manager.size < M1#manager.buffer of
                true ->
                    Producer ! produce,
                    manager(M1);
                false ->
                    manager(M1#manager{held = queue:in(Producer, M1#manager.held)})
            end;
        {available, Consumer} ->
            case queue:out(M#manager.data) of
                {{value, Item}, Data} ->
                    Consumer ! {item, Item},
                    M1 = M#manager{data = Data, size = M#manager.size - 1},
                    case queue:out(M1#manager.held) of
                        {{value, Producer}, Held} ->
                            Producer ! produce,
                            manager(M1#manager{held = Held});
                        {empty, _} ->
                            manager(M1)
                    end;
                {empty, _} ->
                    manager(M#manager{waiting = queue:in(Consumer, M#manager.waiting),
                                      idle = M#manager.idle + 1})
            end;
        {producer_done, _Producer} ->
            manager(M#manager{done = M#manager.done + 1})
    end.

producer(Items, Cost, P, Manager) ->
    produce(Items, Cost, Manager, P).

produce(0, _Cost, Manager, _Rand) ->
    Manager ! {producer_done, self()};
produce(Left, Cost, Manager, Rand0) ->
    {X, Rand1} = splitmix:next(Rand0),
    Manager ! {data, self(), splitmix:work(X, Cost)},
    receive
        produce -> produce(Left - 1, Cost, Manager, Rand1)
    end.

consumer(Manager, Cost, Runner, Count, Sum) ->
    Manager ! {available, self()},
    receive
        {item, Item} ->
            consumer(Manager, Cost, Runner, Count + 1,
                     splitmix:wrap(Sum + splitmix:work(Item, Cost)));
        stop ->
            Runner ! {consumed, Count, Sum}
    end.
