%% @doc skynet: a tree of processes that sum their leaf numbers.
%%
%% The process for `(Num, Size)' replies `Num' to its parent when Size = 1.
%% Otherwise it spawns `Div' children for `(Num + K*Size/Div, Size/Div)',
%% K = 0..Div-1, receives one reply from each, and replies the sum. Size is a
%% power of Div (checked by suite_args), so the leaves are exactly the numbers
%% 0..Size-1. The runner is the root's parent and the sum that arrives there
%% is the check. Replies are bare integers: a process's mailbox only ever holds
%% its children's replies.
%%
%% Processes are spawned with `spawn/3' (module, function, arguments), which
%% starts the function directly; `spawn/1' with a closure starts
%% `erlang:apply/2' on the closure, one more step for every process of the
%% tree. The processes are not linked: a link costs every spawn and every
%% exit, and a tree has nothing to supervise. What can fail is spawning (the
%% process limit, `system_limit'), so a process that cannot spawn its
%% children sends `{failed, Reason}' straight to the runner, which ends the
%% run with that error instead of waiting for a sum that will never come.
-module(skynet).

-export([run/1, node/5]).

-spec run(#{size := pos_integer(), 'div' := pos_integer()}) -> [{check, non_neg_integer()}].
run(#{size := Size, 'div' := Div}) ->
    Runner = self(),
    spawn(?MODULE, node, [0, Size, Div, Runner, Runner]),
    receive
        Sum when is_integer(Sum) -> [{check, Sum}];
        {failed, Reason} -> error(Reason)
    end.

%% @private The process for (Num, Size), spawned by its parent.
node(Num, 1, _Div, Parent, _Runner) ->
    Parent ! Num;
node(Num, Size, Div, Parent, Runner) ->
    Child = Size div Div,
    try spawn_children(Div, Num, Child, Div, self(), Runner) of
        ok -> Parent ! sum_replies(Div, 0)
    catch
        error:Reason -> Runner ! {failed, Reason}
    end.

spawn_children(0, _Num, _Child, _Div, _Self, _Runner) ->
    ok;
spawn_children(K, Num, Child, Div, Self, Runner) ->
    spawn(?MODULE, node, [Num + (K - 1) * Child, Child, Div, Self, Runner]),
    spawn_children(K - 1, Num, Child, Div, Self, Runner).

sum_replies(0, Sum) ->
    Sum;
sum_replies(Left, Sum) ->
    receive
        S -> sum_replies(Left - 1, Sum + S)
    end.
