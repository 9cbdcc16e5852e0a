%% @doc skynet: a tree of processes that sum their leaf numbers.
%%
%% The process for `(Num, Size)' replies `Num' to its parent when Size = 1.
%% Otherwise it spawns (linked) `Div' children for `(Num + K*Size/Div,
%% Size/Div)', K = 0..Div-1, receives one reply from each, and replies the
%% sum. Size is a power of Div (checked by suite_args), so the leaves are
%% exactly the numbers 0..Size-1. The runner is the root's parent and the sum
%% that arrives there is the check.
-module(skynet).

-export([run/1]).

-spec run(#{size := pos_integer(), 'div' := pos_integer()}) -> [{check, non_neg_integer()}].
run(#{size := Size, 'div' := Div}) ->
    Root = self(),
    spawn_link(fun() -> node(0, Size, Div, Root) end),
    receive
        {sum, Sum} -> [{check, Sum}]
    end.

node(Num, 1, _Div, Parent) ->
    Parent ! {sum, Num};
node(Num, Size, Div, Parent) ->
    Self = self(),
    Child = Size div Div,
    spawn_children(Div, Num, Child, Div, Self),
    Parent ! {sum, sum_replies(Div, 0)}.

spawn_children(0, _Num, _Child, _Div, _Self) ->
    ok;
spawn_children(K, Num, Child, Div, Self) ->
    ChildNum = Num + (K - 1) * Child,
    spawn_link(fun() -> node(ChildNum, Child, Div, Self) end),
    spawn_children(K - 1, Num, Child, Div, Self).

sum_replies(0, Sum) ->
    Sum;
sum_replies(Left, Sum) ->
    receive
        {sum, S} -> sum_replies(Left - 1, Sum + S)
    end.
