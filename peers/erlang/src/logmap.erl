%% @doc logmap: logistic-map series computed through rate processes
%% (Savina's logistic map).
%%
%% For every I from 0 to Series-1 the runner (the master) spawns rate
%% process I and series process I. Rate process I has the rate
%% R + float(I) * D (R = Rate / 10000, D = Increment / 10000, IEEE doubles)
%% and answers `{X, From}' with `{self(), (Rate * X) * (1.0 - X)}'. Series I
%% starts from X = (I+1) / (Series+1) and asks its rate process for `Terms'
%% terms one after the other, adding `floor(X * 2^32)' of every term it
%% receives to its sum; then it stops the rate process and sends the sum to
%% the master, which adds up the reports: `SUM' (mod 2^64).
-module(logmap).

-export([run/1]).

-spec run(#{terms := non_neg_integer(), series := pos_integer(), rate := 0..36000,
            increment := 0..40}) -> [{check, non_neg_integer()}].
run(#{terms := Terms, series := Series, rate := Rate, increment := Increment}) ->
    Master = self(),
    R = Rate / 10000,
    D = Increment / 10000,
    lists:foreach(fun(I) ->
                          RateI = R + float(I) * D,
                          X = (I + 1) / (Series + 1),
                          RatePid = spawn_link(fun() -> rate(RateI) end),
                          spawn_link(fun() -> series(Terms, X, 0, RatePid, Master) end)
                  end,
                  lists:seq(0, Series - 1)),
    [{check, splitmix:wrap(collect(Series, 0))}].

collect(0, Sum) ->
    Sum;
collect(Left, Sum) ->
    receive
        {term, T} -> collect(Left - 1, Sum + T)
    end.

rate(Rate) ->
    receive
        {X, From} ->
            From ! {self(), (Rate * X) * (1.0 - X)},
            rate(Rate);
        stop ->
            ok
    end.

series(0, _X, Sum, RatePid, Master) ->
    RatePid ! stop,
    Master ! {term, Sum};
series(Left, X, Sum, RatePid, Master) ->
    RatePid ! {X, self()},
    receive
        {RatePid, Next} ->
            series(Left - 1, Next, Sum + floor(Next * 4294967296.0), RatePid, Master)
    end.
