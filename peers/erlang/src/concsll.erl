%% @doc concsll: workers inserting into, searching and sizing one sorted-list
%% process (Savina's concurrent sorted linked list).
%%
%% The list process holds its values as an Erlang list in ascending order
%% (equal values all kept) and its length. An insert walks from the front to
%% the first element that is not smaller and puts the value before it
%% (rebuilding the prefix it walked, as a list insert in Erlang does); a lookup
%% walks until it finds the value or passes it; a size query answers the
%% length. Every request carries the sender's pid, and the answer is
%% `{List, Answer}'.
%%
%% Worker W draws from a generator seeded with W. For each of its `Messages'
%% operations it draws R = below(100): R < SizePct asks for the size,
%% R < SizePct + WritePct inserts V = below(1024)*Workers + W, and otherwise it
%% looks up such a V. It waits for each answer before the next, counts its
%% answers and its lookups answered true, and sends both to the runner.
%%
%% Once every worker has reported, the runner asks the list for its length and
%% the sum of (P+1)*Value over positions P (the list's last message). The check
%% is `ANSWERS:SIZE:CONTENTS:HITS'.
-module(concsll).

-export([run/1]).

-spec run(#{workers := pos_integer(), messages := non_neg_integer(),
            write_pct := 0..100, size_pct := 0..100}) -> [{check, binary()}].
run(#{workers := Workers, messages := Messages, write_pct := WritePct, size_pct := SizePct}) ->
    Runner = self(),
    List = spawn_link(fun() -> sorted_list([], 0) end),
    Mix = {Workers, WritePct, SizePct},
    lists:foreach(fun(W) ->
                          spawn_link(fun() -> worker(Messages, W, Mix, List, Runner, W, 0, 0) end)
                  end,
                  lists:seq(0, Workers - 1)),
    {Answers, Hits} = collect(Workers, 0, 0),
    List ! {summary, self()},
    receive
        {List, Size, Contents} -> [{check, splitmix:check([Answers, Size, Contents, Hits])}]
    end.

collect(0, Answers, Hits) ->
    {Answers, Hits};
collect(Left, Answers, Hits) ->
    receive
        {worker_done, A, H} -> collect(Left - 1, Answers + A, Hits + H)
    end.

sorted_list(Values, Length) ->
    receive
        {insert, V, From} ->
            From ! {self(), ok},
            sorted_list(insert(V, Values), Length + 1);
        {contains, V, From} ->
            From ! {self(), contains(V, Values)},
            sorted_list(Values, Length);
        {size, From} ->
            From ! {self(), Length},
            sorted_list(Values, Length);
        {summary, From} ->
            From ! {self(), Length, contents(Values, 1, 0)}
    end.

insert(V, [H | T]) when H < V -> [H | insert(V, T)];
insert(V, Values) -> [V | Values].

contains(V, [H | T]) when H < V -> contains(V, T);
contains(V, [V | _]) -> true;
contains(_, _) -> false.

contents([], _Position, Sum) -> Sum;
contents([V | T], Position, Sum) -> contents(T, Position + 1, splitmix:wrap(Sum + Position * V)).

worker(0, _W, _Mix, _List, Runner, _Rand, Answers, Hits) ->
    Runner ! {worker_done, Answers, Hits};
worker(Left, W, {Workers, WritePct, SizePct} = Mix, List, Runner, Rand0, Answers, Hits) ->
    {R, Rand1} = splitmix:below(Rand0, 100),
    {Request, Rand2} =
        if
            R < SizePct ->
                {{size, self()}, Rand1};
            R < SizePct + WritePct ->
                {V, Rand} = splitmix:below(Rand1, 1024),
                {{insert, V * Workers + W, self()}, Rand};
            true ->
                {V, Rand} = splitmix:below(Rand1, 1024),
                {{contains, V * Workers + W, self()}, Rand}
        end,
    List ! Request,
    receive
        {List, true} -> worker(Left - 1, W, Mix, List, Runner, Rand2, Answers + 1, Hits + 1);
        {List, _} -> worker(Left - 1, W, Mix, List, Runner, Rand2, Answers + 1, Hits)
    end.
