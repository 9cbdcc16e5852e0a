%% @doc philosopher: dining philosophers with an arbitrator (Savina's dining
%% philosophers).
%%
%% The arbitrator is a process whose state is the set of forks in use (a map,
%% so that granting or freeing forks costs the same for any number of them)
%% and its meal count. Philosopher I needs forks I and (I+1) rem N. Until it has
%% eaten `Rounds' meals it sends `{hungry, I, self()}': the arbitrator
%% answers `eat', and takes both forks, when both are free, and `denied'
%% otherwise, and a denied philosopher asks again at once. A philosopher told to
%% eat eats one meal and sends `{done, I}', which frees its forks and counts
%% the meal. After its last meal it sends `finished'; when all have, the
%% arbitrator sends its meal count to the runner: `MEALS'.
-module(philosopher).

-export([run/1]).

-spec run(#{philosophers := pos_integer(), rounds := non_neg_integer()}) ->
          [{check, non_neg_integer()}].
run(#{philosophers := N, rounds := Rounds}) ->
    Runner = self(),
    Arbitrator = spawn_link(fun() -> arbitrator(N, N, #{}, 0, Runner) end),
    lists:foreach(fun(I) -> spawn_link(fun() -> philosopher(I, Rounds, Arbitrator) end) end,
                  lists:seq(0, N - 1)),
    receive
        {meals, Meals} -> [{check, Meals}]
    end.

arbitrator(_N, 0, _Taken, Meals, Runner) ->
    Runner ! {meals, Meals};
arbitrator(N, Left, Taken, Meals, Runner) ->
    receive
        {hungry, I, From} ->
            L = I,
            R = (I + 1) rem N,
            case is_map_key(L, Taken) orelse is_map_key(R, Taken) of
                true ->
                    From ! denied,
                    arbitrator(N, Left, Taken, Meals, Runner);
                false ->
                    From ! eat,
                    arbitrator(N, Left, Taken#{L => true, R => true}, Meals, Runner)
            end;
        {done, I} ->
            arbitrator(N, Left, maps:remove((I + 1) rem N, maps:remove(I, Taken)), Meals + 1,
                       Runner);
        finished ->
            arbitrator(N, Left - 1, Taken, Meals, Runner)
    end.

philosopher(_I, 0, Arbitrator) ->
    Arbitrator ! finished;
philosopher(I, Left, Arbitrator) ->
    Arbitrator ! {hungry, I, self()},
    receive
        eat ->
            Arbitrator ! {done, I},
            philosopher(I, Left - 1, Arbitrator);
        denied ->
            philosopher(I, Left, Arbitrator)
    end.
