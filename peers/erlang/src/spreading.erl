%% @doc spreading: a binary tree of processes (libcppa's actor creation).
%%
%% The process for depth `D' replies 1 to its parent when D = 0. Otherwise it
%% spawns two children for D-1, receives their two replies and replies their
%% sum. The runner is the root's parent; the sum that arrives there, the
%% number of leaves that answered, is the check. Replies are bare integers.
%%
%% Processes are spawned with `spawn/3' and are not linked (see skynet.erl): a process that cannot spawn
%% its children sends `{failed, Reason}' to the runner, which ends the run
%% with that error.
-module(spreading).

-export([run/1, node/3]).

-spec run(#{depth := 0..24}) -> [{check, pos_integer()}].
run(#{depth := Depth}) ->
    Runner = self(),
    spawn(?MODULE, node, [Depth, Runner, Runner]),
    receive
        N when is_integer(N) -> [{check, N}];
        {failed, Reason} -> error(Reason)
    end.

%% @private The process for depth D, spawned by its parent.
node(0, Parent, _Runner) ->
    Parent ! 1;
node(D, Parent, Runner) ->
    Self = self(),
    try
        spawn(?MODULE, node, [D - 1, Self, Runner]),
        spawn(?MODULE, node, [D - 1, Self, Runner])
    of
        _ -> receive A -> receive B -> Parent ! A + B end end
    catch
        error:Reason -> Runner ! {failed, Reason}
    end.
