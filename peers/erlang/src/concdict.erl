%% @doc concdict: workers reading and writing through one dictionary process
%% (Savina's concurrent dictionary).
%%
%% The dictionary is a process whose state is a map from keys to values. It
%% answers `{read, Key, From}' with `{Dict, Value}' (0 for a key it does not
%% hold) and `{write, Key, Value, From}' by storing the value and answering
%% `{Dict, Value}'.
%%
%% Worker W draws from a generator seeded with W. For each of its `Messages'
%% operations it draws R = below(100) and Key = W*1024 + below(1024); when
%% R < WritePct it draws Value = next() bsr 32 and writes, otherwise it reads.
%% It waits for each answer before the next operation, counts its answers,
%% adds up the answers to its reads, and sends both to the runner.
%%
%% Once every worker has reported, the runner asks the dictionary for its size
%% and the sum of (Key+1)*Value over its entries (the dictionary's last
%% message). The check is `ANSWERS:SIZE:CONTENTS:READSUM'.
-module(concdict).

-export([run/1]).

-spec run(#{workers := pos_integer(), messages := non_neg_integer(),
            write_pct := 0..100}) -> [{check, binary()}].
run(#{workers := Workers, messages := Messages, write_pct := WritePct}) ->
    Runner = self(),
    Dict = spawn_link(fun() -> dictionary(#{}) end),
    lists:foreach(fun(W) ->
                          spawn_link(fun() -> worker(W, Messages, WritePct, Dict, Runner) end)
                  end,
                  lists:seq(0, Workers - 1)),
    {Answers, ReadSum} = collect(Workers, 0, 0),
    Dict ! {summary, self()},
    receive
        {Dict, Size, Contents} ->
            [{check, splitmix:check([Answers, Size, Contents, ReadSum])}]
    end.

collect(0, Answers, ReadSum) ->
    {Answers, ReadSum};
collect(Left, Answers, ReadSum) ->
    receive
        {worker_done, A, S} -> collect(Left - 1, Answers + A, ReadSum + S)
    end.

dictionary(Table) ->
    receive
        {read, Key, From} ->
            From ! {self(), maps:get(Key, Table, 0)},
            dictionary(Table);
        {write, Key, Value, From} ->
            From ! {self(), Value},
            dictionary(Table#{Key => Value});
        {summary, From} ->
            Contents = maps:fold(fun(K, V, Sum) -> splitmix:wrap(Sum + (K + 1) * V) end,
                                 0, Table),
            From ! {self(), map_size(Table), Contents}
    end.

worker(W, Messages, WritePct, Dict, Runner) ->
    worker(Messages, W, WritePct, Dict, Runner, W, 0, 0).

worker(0, _W, _WritePct, _Dict, Runner, _Rand, Answers, ReadSum) ->
    Runner ! {worker_done, Answers, ReadSum};
worker(Left, W, WritePct, Dict, Runner, Rand0, Answers, ReadSum) ->
    {R, Rand1} = splitmix:below(Rand0, 100),
    {K, Rand2} = splitmix:below(Rand1, 1024),
    Key = W * 1024 + K,
    case R < WritePct of
        true ->
            {X, Rand3} = splitmix:next(Rand2),
            Dict ! {write, Key, X bsr 32, self()},
            receive
                {Dict, _Stored} ->
                    worker(Left - 1, W, WritePct, Dict, Runner, Rand3, Answers + 1, ReadSum)
            end;
        false ->
            Dict ! {read, Key, self()},
            receive
                {Dict, Value} ->
                    worker(Left - 1, W, WritePct, Dict, Runner, Rand2, Answers + 1,
                           ReadSum + Value)
            end
    end.
