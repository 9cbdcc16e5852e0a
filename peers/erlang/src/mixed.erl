%% @doc mixed: token rings created and ended, plus CPU work (libcppa's mixed case).
%%
%% The runner spawns one collector and `Rings' masters. Each master spawns
%% its own worker process and then does `Reps' repetitions of:
%%   1. send `{calc, N}' to its worker, which factorises N = 28350160440309881
%%      by trial division and sends `{factors, Fs}' to the collector;
%%   2. spawn `RingSize - 1' chain processes in a ring behind it (the last one
%%      sends to the master, the master to the first);
%%   3. send `Token' into the ring. A chain process forwards every token and
%%      ends after forwarding 0; the master forwards T-1 when it receives
%%      T > 0, and ends the repetition when it receives 0.
%% After its repetitions a master tells its worker to stop (the worker still
%% answers every `calc' queued before that) and sends `master_done' to the
%% collector. The collector takes `Rings * Reps' factorisations and `Rings'
%% `master_done' messages in any order, verifies each factorisation (two
%% factors, both above 1, whose product is N) and sends the runner the number
%% that were correct: the check.
-module(mixed).

-export([run/1, factorise/1]).

-define(N, 28350160440309881).

-spec run(#{rings := pos_integer(), ring_size := pos_integer(),
            token := non_neg_integer(), reps := pos_integer()}) ->
          [{check, non_neg_integer()}].
run(#{rings := Rings, ring_size := RingSize, token := Token, reps := Reps}) ->
    Runner = self(),
    Collector = spawn_link(fun() -> collector(Rings * Reps, Rings, 0, Runner) end),
    lists:foreach(fun(_) ->
                          spawn_link(fun() -> master(RingSize, Token, Reps, Collector) end)
                  end,
                  lists:seq(1, Rings)),
    receive
        {verified, Count} -> [{check, Count}]
    end.

collector(0, 0, Verified, Runner) ->
    Runner ! {verified, Verified};
collector(Results, Masters, Verified, Runner) ->
    receive
        {factors, Factors} ->
            collector(Results - 1, Masters, Verified + verify(Factors), Runner);
        master_done ->
            collector(Results, Masters - 1, Verified, Runner)
    end.

verify([P, Q]) when P > 1, Q > 1, P * Q =:= ?N -> 1;
verify(_) -> 0.

master(RingSize, Token, Reps, Collector) ->
    Worker = spawn_link(fun() -> worker(Collector) end),
    lists:foreach(fun(_) -> repetition(RingSize, Token, Worker) end, lists:seq(1, Reps)),
    Worker ! stop,
    Collector ! master_done.

repetition(RingSize, Token, Worker) ->
    Worker ! {calc, ?N},
    First = ring(RingSize - 1, self()),
    First ! {token, Token},
    forward(First).

%% Spawns K chain processes ending at Next; returns the first.
ring(0, Next) ->
    Next;
ring(K, Next) ->
    ring(K - 1, spawn_link(fun() -> chain(Next) end)).

chain(Next) ->
    receive
        {token, T} ->
            Next ! {token, T},
            case T of
                0 -> ok;
                _ -> chain(Next)
            end
    end.

%% The master's side of the ring, until token 0 comes back.
forward(First) ->
    receive
        {token, 0} ->
            ok;
        {token, T} ->
            First ! {token, T - 1},
            forward(First)
    end.

worker(Collector) ->
    receive
        {calc, N} ->
            Collector ! {factors, factorise(N)},
            worker(Collector);
        stop ->
            ok
    end.

%% @doc The prime factors of N (N >= 2), ascending, by trial division.
-spec factorise(pos_integer()) -> [pos_integer()].
factorise(N) ->
    factorise(N, 2, []).

factorise(1, _D, Acc) ->
    lists:reverse(Acc);
factorise(N, D, Acc) when D * D > N ->
    lists:reverse(Acc, [N]);
factorise(N, D, Acc) when N rem D =:= 0 ->
    factorise(N div D, D, [D | Acc]);
factorise(N, 2, Acc) ->
    factorise(N, 3, Acc);
factorise(N, D, Acc) ->
    factorise(N, D + 2, Acc).
