%% @doc spreading: a binary tree of processes (libcppa's actor creation).
%%
%% The process for depth `D' replies 1 to its parent when D = 0. Otherwise it
%% spawns (linked) two children for D-1, receives their two replies and
%% replies their sum. The runner is the root's parent; the sum that arrives
%% there, the number of leaves that answered, is the check.
-module(spreading).

-export([run/1]).

-spec run(#{depth := 0..24}) -> [{check, pos_integer()}].
run(#{depth := Depth}) ->
    Root = self(),
    spawn_link(fun() -> node(Depth, Root) end),
    receive
        {leaves, N} -> [{check, N}]
    end.

node(0, Parent) ->
    Parent ! {leaves, 1};
node(D, Parent) ->
    Self = self(),
    spawn_link(fun() -> node(D - 1, Self) end),
    spawn_link(fun() -> node(D - 1, Self) end),
    receive
        {leaves, A} ->
            receive
                {leaves, B} -> Parent ! {leaves, A + B}
            end
    end.
