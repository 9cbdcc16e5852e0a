%% @doc spreading: a binary tree of processes (libcppa's actor creation).
%%
%% The process for depth `D' replies 1 to its parent when D = 0. Otherwise it
%% spawns two children for D-1, receives their two replies and replies their
%% sum. The runner is the root's parent; the sum that arrives there, the
%% number of leaves that answered, is the check. Replies are bare integers.
%%
%% The processes are not linked (see skynet.erl): a process that cannot spawn
%% its children sends `{failed, Reason}' to the runner, which ends the run
%% with that error.
-module(spreading).

-export([run/1]).

-spec run(#{depth := 0..24}) -> [{check, pos_integer()}].
run(#{depth := Depth}) ->
    Runner = self(),
    spawn(fun() -> node(Depth, Runner, Runner) end),
    receive
        N when is_integer(N) -> [{check, N}];
        {failed, Reason} -> error(Reason)
    end.

node(0, Parent, _Runner) ->
    Parent ! 1;
node(D, Parent, Runner) ->
    Self = self(),
    try
        spawn(fun() -> node(D - 1, Self, Runner) end),
        spawn(fun() -> node(D - 1, Self, Runner) end)
    of
        _ -> receive A -> receive B -> Parent ! A + B end end
    catch
        error:Reason -> Runner ! {failed, Reason}
    end.
