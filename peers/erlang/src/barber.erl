%% @doc barber: the sleeping barber (Savina's sleeping barber).
%%
%% A factory (the runner), a waiting room, a barber and one process per
%% customer. A customer is known to the others as `{K, Cut, Pid}'.
%%
%% - The factory draws from a generator seeded with 0. For each customer K in
%%   order it draws A = below(Arrival+1) and C = below(Cut+1), adds
%%   `work(K, A)' (the time until the customer arrives) to its digest, spawns
%%   customer K knowing C and sends it to the room. Then it serves its
%%   mailbox: a customer that was sent away goes to the room again, a customer
%%   that is done adds its result to the digest. When all `Haircuts'
%%   customers are done it stops the room, which stops the barber. The check is
%%   `HAIRCUTS:DIGEST'.
%% - The room seats an arriving customer if one of its `Room' chairs is free
%%   and sends it away (`full') otherwise. It keeps the seated customers in a
%%   queue and knows whether the barber sleeps: a customer that arrives while
%%   he does goes straight to him. When the barber asks for the next customer,
%%   the room sends him the oldest seated one, or notes that he sleeps.
%% - The barber cuts customer K's hair by computing `work(K, C)', asks the room
%%   for the next customer and tells the customer it is done, with the result.
%% - A customer sent away tells the factory; a customer that is done tells the
%%   factory its result and ends.
%%
%% The factory yields (`erlang:yield()') before it sends a customer back to
%% the room: without it, at one scheduler, Savina's parameters cost ten times
%% the CPU, as customers went round the factory and the room between the
%% barber's haircuts (peers/README.md).
-module(barber).

-export([run/1]).

-spec run(#{haircuts := non_neg_integer(), room := pos_integer(),
            arrival := non_neg_integer(), cut := non_neg_integer()}) -> [{check, binary()}].
run(#{haircuts := Haircuts, room := Chairs, arrival := Arrival, cut := Cut}) ->
    Factory = self(),
    Room = spawn_link(fun() -> open_room(Chairs) end),
    Digest = arrivals(0, Haircuts, Arrival, Cut, Room, Factory, 0, 0),
    {Count, Total} = serve(Haircuts, Room, 0, Digest),
    Room ! stop,
    [{check, splitmix:check([Count, Total])}].

%% The factory sends every customer in, drawing their arrival and haircut.
arrivals(Haircuts, Haircuts, _Arrival, _Cut, _Room, _Factory, _Rand, Digest) ->
    Digest;
arrivals(K, Haircuts, Arrival, Cut, Room, Factory, Rand0, Digest) ->
    {A, Rand1} = splitmix:below(Rand0, Arrival + 1),
    {C, Rand2} = splitmix:below(Rand1, Cut + 1),
    Digest1 = splitmix:wrap(Digest + splitmix:work(K, A)),
    Customer = spawn_link(fun() -> customer(Factory) end),
    Room ! {enter, {K, C, Customer}},
    arrivals(K + 1, Haircuts, Arrival, Cut, Room, Factory, Rand2, Digest1).

%% The factory sends customers that were sent away back, and counts results.
serve(Haircuts, _Room, Haircuts, Digest) ->
    {Haircuts, Digest};
serve(Haircuts, Room, Done, Digest) ->
    receive
        {sent_away, Customer} ->
            erlang:yield(),
            Room ! {enter, Customer},
            serve(Haircuts, Room, Done, Digest);
        {haircut, Result} ->
            serve(Haircuts, Room, Done + 1, splitmix:wrap(Digest + Result))
    end.

customer(Factory) ->
    receive
        {full, Customer} ->
            Factory ! {sent_away, Customer},
            customer(Factory);
        {done, Result} ->
            Factory ! {haircut, Result}
    end.

%% The room starts its barber, linked, and has him asleep.
open_room(Chairs) ->
    Room = self(),
    Barber = spawn_link(fun() -> barber(Room) end),
    room(Chairs, queue:new(), 0, {asleep, Barber}).

%% The waiting room: Seated customers in a queue of length N; the barber is
%% `{asleep, Pid}' or `{busy, Pid}'.
room(Chairs, Seated, N, Barber) ->
    receive
        {enter, Customer} ->
            case Barber of
                {asleep, Pid} ->
                    Pid ! Customer,
                    room(Chairs, Seated, N, {busy, Pid});
                {busy, _} when N < Chairs ->
                    room(Chairs, queue:in(Customer, Seated), N + 1, Barber);
                {busy, _} ->
                    {_K, _C, Pid} = Customer,
                    Pid ! {full, Customer},
                    room(Chairs, Seated, N, Barber)
            end;
        next ->
            {_, Pid} = Barber,
            case queue:out(Seated) of
                {{value, Customer}, Rest} ->
                    Pid ! Customer,
                    room(Chairs, Rest, N - 1, Barber);
                {empty, _} ->
                    room(Chairs, Seated, N, {asleep, Pid})
            end;
        stop ->
            {_, Pid} = Barber,
            Pid ! stop
    end.

barber(Room) ->
    receive
        {K, C, Customer} ->
            Result = splitmix:work(K, C),
            Room ! next,
            Customer ! {done, Result},
            barber(Room);
        stop ->
            ok
    end.
