%% @doc fibtree: one process per call of the naive Fibonacci recursion.
%%
%% The process for `n' (with its parent's pid) replies 0 for n = 0 and 1 for
%% n = 1 or 2. For n > 2 it spawns a child process for n-1 and one for n-2,
%% receives their two replies, and replies their sum to its parent. The
%% runner is the root's parent; the sum that arrives there is the check.
%% Every process ends after replying, so the tree grows and shrinks as the
%% scheduler runs it. Replies are bare integers: a process's mailbox only ever
%% holds its children's replies.
%%
%% Processes are spawned with `spawn/3' and are not linked (see skynet.erl): a process that cannot spawn
%% its children sends `{failed, Reason}' to the runner, which ends the run
%% with that error.
-module(fibtree).

-export([run/1, fib/3]).

-spec run(#{n := 0..40}) -> [{check, non_neg_integer()}].
run(#{n := N}) ->
    Runner = self(),
    spawn(?MODULE, fib, [N, Runner, Runner]),
    receive
        F when is_integer(F) -> [{check, F}];
        {failed, Reason} -> error(Reason)
    end.

%% @private The process for n, spawned by its parent.
fib(0, Parent, _Runner) ->
    Parent ! 0;
fib(N, Parent, _Runner) when N =< 2 ->
    Parent ! 1;
fib(N, Parent, Runner) ->
    Self = self(),
    try
        spawn(?MODULE, fib, [N - 1, Self, Runner]),
        spawn(?MODULE, fib, [N - 2, Self, Runner])
    of
        _ -> receive A -> receive B -> Parent ! A + B end end
    catch
        error:Reason -> Runner ! {failed, Reason}
    end.
