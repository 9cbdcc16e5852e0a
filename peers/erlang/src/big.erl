%% @doc big: many-to-many ping/pong among workers in neighbourhoods.
%%
%% `Workers' worker processes, numbered 1..Workers, are split into
%% neighbourhoods of `Hood' consecutive numbers (the last may be smaller).
%% The runner spawns them, publishes the tuple of all their pids as a
%% persistent term (a read-only directory that every worker reads without
%% copying it into its own heap), and then sends each `go'.
%%
%% A worker sends `{ping, self()}' to a uniformly random other member of its
%% neighbourhood (itself when it is alone), and waits for the `pong' while
%% answering every ping it receives with a pong. Each pong it receives is
%% counted; after `Pings' pongs it sends `{pongs, Count}' to the runner, the
%% sink, and goes on answering pings (its neighbours may still be pinging it).
%% A worker has at most one ping outstanding, so every pong it gets is the
%% answer to its own ping.
%%
%% The random choice is a 32-bit xorshift generator (Marsaglia's 13/17/5
%% triple) whose state is one small integer in the worker's loop: three
%% shifts and xors per ping, no allocation, no call into `rand' (whose
%% general-purpose state is a tuple rebuilt on every draw). Each worker seeds
%% it from its own number. `X rem (Size - 1)' over 2^32 - 1 states is uniform
%% to within (Size - 1) / 2^32. The sink sums the counts of all `Workers' reports:
%% that sum is the check.
%%
%% Once every worker has reported, every ping ever sent has been answered, so
%% the sink sends `stop' to all workers, waits until they are gone (monitors)
%% and only then erases the directory, which then costs no copying.
-module(big).

-export([run/1]).

-spec run(#{workers := pos_integer(), pings := non_neg_integer(), hood := pos_integer()}) ->
          [{check, non_neg_integer()}].
run(#{workers := Workers, pings := Pings, hood := Hood}) ->
    Sink = self(),
    Directory = {?MODULE, make_ref()},
    Spawned = [begin
                   Base = (I - 1) div Hood * Hood,     % numbers Base+1 .. Base+Size
                   Size = min(Hood, Workers - Base),
                   spawn_opt(fun() -> start(I, Base, Size, Directory, Pings, Sink) end,
                             [link, monitor])
               end
               || I <- lists:seq(1, Workers)],
    persistent_term:put(Directory, list_to_tuple([Pid || {Pid, _} <- Spawned])),
    lists:foreach(fun({Pid, _}) -> Pid ! go end, Spawned),
    Sum = sink(Workers, 0),
    lists:foreach(fun({Pid, _}) -> Pid ! stop end, Spawned),
    lists:foreach(fun({Pid, Ref}) -> receive {'DOWN', Ref, process, Pid, _} -> ok end end,
                  Spawned),
    persistent_term:erase(Directory),
    [{check, Sum}].

sink(0, Sum) ->
    Sum;
sink(Left, Sum) ->
    receive
        {pongs, N} -> sink(Left - 1, Sum + N)
    end.

start(I, Base, Size, Directory, Pings, Sink) ->
    receive
        go -> ok
    end,
    Me = {I, Base, Size, persistent_term:get(Directory)},
    Rand = seed(I),
    case Pings of
        0 ->
            Sink ! {pongs, 0},
            serve();
        _ ->
            wait(Me, ping(Me, Rand), Pings, 0, Sink)
    end.

%% Waiting for the pong of the one ping this worker has out.
wait(Me, Rand, Pings, Got, Sink) ->
    receive
        {ping, From} ->
            From ! pong,
            wait(Me, Rand, Pings, Got, Sink);
        pong when Got + 1 =:= Pings ->
            Sink ! {pongs, Got + 1},
            serve();
        pong ->
            wait(Me, ping(Me, Rand), Pings, Got + 1, Sink)
    end.

%% Done with its own pings: answers the neighbours' pings until `stop'.
serve() ->
    receive
        {ping, From} ->
            From ! pong,
            serve();
        stop ->
            ok
    end.

%% Pings a random other member of the neighbourhood (itself if alone).
ping({_I, _Base, 1, _Pids}, Rand) ->
    self() ! {ping, self()},
    Rand;
ping({I, Base, Size, Pids}, Rand) ->
    Rand1 = xorshift32(Rand),
    R = Rand1 rem (Size - 1) + 1,                  % 1..Size-1 among the others
    Target = case Base + R >= I of
                 true -> Base + R + 1;
                 false -> Base + R
             end,
    element(Target, Pids) ! {ping, self()},
    Rand1.

%% A non-zero 32-bit state from the worker's number (Fibonacci hashing).
seed(I) ->
    case I * 16#9E3779B9 band 16#FFFFFFFF of
        0 -> 1;
        X -> X
    end.

%% One step of xorshift32; the state stays a non-zero small integer.
xorshift32(X0) ->
    X1 = X0 bxor ((X0 bsl 13) band 16#FFFFFFFF),
    X2 = X1 bxor (X1 bsr 17),
    X2 bxor ((X2 bsl 5) band 16#FFFFFFFF).
