%% @doc big: many-to-many ping/pong among workers in neighbourhoods.
%%
%% `Workers' worker processes, numbered 1..Workers, are split into
%% neighbourhoods of `Hood' consecutive numbers (the last may be smaller).
%% The runner spawns them, writes number -> pid into a public ETS table (the
%% directory every worker reads the pid of its ping target from, so no worker
%% holds a copy of its whole neighbourhood), and then sends each `go'.
%%
%% A worker sends `{ping, self()}' to a uniformly random other member of its
%% neighbourhood (itself when it is alone), and waits for the `pong' while
%% answering every ping it receives with a pong. Each pong it receives is
%% counted; after `Pings' pongs it sends `{pongs, Count}' to the runner, the
%% sink, and goes on answering pings (its neighbours may still be pinging it).
%% A worker has at most one ping outstanding, so every pong it gets is the
%% answer to its own ping. The sink sums the counts of all `Workers' reports:
%% that sum is the check. The ETS table and the workers go down with the runner.
-module(big).

-export([run/1]).

-spec run(#{workers := pos_integer(), pings := non_neg_integer(), hood := pos_integer()}) ->
          [{check, non_neg_integer()}].
run(#{workers := Workers, pings := Pings, hood := Hood}) ->
    Sink = self(),
    Directory = ets:new(?MODULE, [set, public, {read_concurrency, true}]),
    Pids = [begin
                Base = (I - 1) div Hood * Hood,     % numbers Base+1 .. Base+Size
                Size = min(Hood, Workers - Base),
                Pid = spawn_link(fun() ->
                                         start(I, Base, Size, Directory, Pings, Sink)
                                 end),
                true = ets:insert(Directory, {I, Pid}),
                Pid
            end
            || I <- lists:seq(1, Workers)],
    lists:foreach(fun(P) -> P ! go end, Pids),
    [{check, sink(Workers, 0)}].

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
    Rand = rand:seed_s(exsss, {I, Size, 16#b16}),
    Me = {I, Base, Size, Directory},
    case Pings of
        0 ->
            Sink ! {pongs, 0},
            serve();
        _ ->
            Rand1 = ping(Me, Rand),
            wait(Me, Rand1, Pings, 0, Sink)
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

%% Done with its own pings: only answers the neighbours' pings.
serve() ->
    receive
        {ping, From} ->
            From ! pong,
            serve()
    end.

%% Pings a random other member of the neighbourhood (itself if alone).
ping({_I, _Base, 1, _Directory}, Rand) ->
    self() ! {ping, self()},
    Rand;
ping({I, Base, Size, Directory}, Rand) ->
    {R, Rand1} = rand:uniform_s(Size - 1, Rand),   % 1..Size-1 among the others
    Target = case Base + R >= I of
                 true -> Base + R + 1;
                 false -> Base + R
             end,
    ets:lookup_element(Directory, Target, 2) ! {ping, self()},
    Rand1.
