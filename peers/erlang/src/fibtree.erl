%% @doc fibtree: one process per call of the naive Fibonacci recursion.
%%
%% The process for `n' (with its parent's pid) replies `{fib, 0}' for n = 0
%% and `{fib, 1}' for n = 1 or 2. For n > 2 it spawns (linked) a child
%% process for n-1 and one for n-2, receives their two replies, and replies
%% their sum to its parent. The runner is the root's parent; the sum that
%% arrives there is the check. Every process ends after replying, so the
%% tree grows and shrinks as the scheduler runs it.
-module(fibtree).

-export([run/1]).

-spec run(#{n := 0..40}) -> [{check, non_neg_integer()}].
run(#{n := N}) ->
    Root = self(),
    spawn_link(fun() -> fib(N, Root) end),
    receive
        {fib, F} -> [{check, F}]
    end.

fib(0, Parent) ->
    Parent ! {fib, 0};
fib(N, Parent) when N =< 2 ->
    Parent ! {fib, 1};
fib(N, Parent) ->
    Self = self(),
    spawn_link(fun() -> fib(N - 1, Self) end),
    spawn_link(fun() -> fib(N - 2, Self) end),
    receive
        {fib, A} ->
            receive
                {fib, B} -> Parent ! {fib, A + B}
            end
    end.
