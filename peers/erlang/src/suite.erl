%% @doc Entry point of the Erlang/OTP suite: `suite:main/1' gets the argument
%% strings, validates them with `suite_args', runs the benchmark and prints the
%% one result line. The run template is `peers/erlang/run N BENCH ARGS',
%% which execs
%%
%%   erl -noshell -noinput +S N:N [+P LIMIT] -pa peers/erlang/ebin
%%       -run suite main -extra BENCH NAME=VALUE ...
%%
%% erl hands everything after `-extra' over verbatim (`main/0' reads it),
%% while `-run suite main BENCH NAME=VALUE ...' (`main/1') would let erl take
%% an argument that starts with `-' or `+' for itself.
%%
%% The benchmark runs in its own process, the runner, watched by a monitor:
%% the runner calls `Bench:run(Params)', sends the result back and then exits
%% with reason `shutdown', so that every process it linked (rings, workers)
%% goes down with it. If the runner ends any other way (a crash in a linked
%% process reaches it through its link; a tree process that cannot spawn
%% sends it the reason, and it raises it), the main
%% process sees the `DOWN' message, prints one error line and halts with 1.
%% A guard timer (default one hour, `SUITE_TIMEOUT_SECS' to change it) ends a
%% run that stops making progress, so the program never hangs.
%%
%% The work time, `seconds=S' in the result line, is read from the
%% monotonic clock just before the runner is spawned (the benchmark's first
%% process) and again when its result arrives; it leaves out the VM's boot,
%% loading the code and halting.
%%
%% Exit statuses: 0 success, 1 failure during the run, 2 bad input.
%% The only line on standard output is
%% `result bench=NAME check=VALUE [counts=...] seconds=S'.
-module(suite).

-export([main/0, main/1, run/2, run_args/1, result_line/2]).

-define(DEFAULT_TIMEOUT_SECS, 3600).

%% @doc Called by `-run suite main' with no arguments: takes the plain
%% arguments (those after `-extra'), so `-run suite main -extra ARGS' works too.
-spec main() -> no_return().
main() ->
    main(init:get_plain_arguments()).

%% @doc Validates the arguments, runs the benchmark, prints, halts.
-spec main([string()]) -> no_return().
main(Args) ->
    ok = io:setopts(standard_error, [{encoding, unicode}]),
    logger_to_stderr(),
    case suite_args:parse(Args) of
        {error, Message} ->
            io:format(standard_error, "error: ~ts~n", [Message]),
            halt(2);
        {ok, Bench, Params} ->
            case run(Bench, Params) of
                {ok, Line} ->
                    io:format("~s~n", [Line]),
                    halt(0);
                {error, Reason} ->
                    io:format(standard_error, "error: ~s: run failed: ~ts~n",
                              [Bench, describe(Reason)]),
                    halt(1)
            end
    end.

%% @doc Parses and runs in the calling Erlang node (used by the tests).
-spec run_args([string()]) -> {ok, string()} | {error, term()}.
run_args(Args) ->
    case suite_args:parse(Args) of
        {ok, Bench, Params} -> run(Bench, Params);
        {error, Message} -> {error, {bad_input, Message}}
    end.

%% @doc Runs one benchmark in a monitored runner process and formats its
%% result line, work time included. The benchmark's module has the
%% benchmark's name and exports `run/1', which returns `[{check, V} | Extra]'
%% (values: integers, binaries or lists of integers).
-spec run(suite_args:bench(), suite_args:params()) -> {ok, string()} | {error, term()}.
run(Bench, Params) ->
    Parent = self(),
    Tag = make_ref(),
    Start = erlang:monotonic_time(),
    {Runner, Monitor} =
        spawn_monitor(fun() ->
                              Result = Bench:run(Params),
                              Parent ! {Tag, Result},
                              exit(shutdown)
                      end),
    receive
        {Tag, Result} ->
            Seconds = erlang:convert_time_unit(erlang:monotonic_time() - Start,
                                               native, nanosecond) / 1.0e9,
            erlang:demonitor(Monitor, [flush]),
            {ok, result_line(Bench, Result ++ [{seconds, Seconds}])};
        {'DOWN', Monitor, process, Runner, Reason} ->
            {error, Reason}
    after timeout_ms() ->
            exit(Runner, kill),
            erlang:demonitor(Monitor, [flush]),
            {error, {timeout, timeout_ms() div 1000, seconds}}
    end.

%% @doc `result bench=NAME key=value ...' from a benchmark's result pairs.
-spec result_line(atom(), [{atom(), term()}]) -> string().
result_line(Bench, Pairs) ->
    lists:flatten(["result bench=", atom_to_list(Bench),
                   [[" ", atom_to_list(K), "=", value(V)] || {K, V} <- Pairs]]).

%% An integer, a float (seconds: nine decimals), a binary (printed as is) or a
%% list of integers (comma-joined).
value(V) when is_integer(V) -> integer_to_list(V);
value(V) when is_float(V) -> float_to_list(V, [{decimals, 9}]);
value(V) when is_binary(V) -> binary_to_list(V);
value(L) when is_list(L) -> lists:join(",", [integer_to_list(I) || I <- L]).

%% One line that says why a run failed.
describe({system_limit, _Stack}) ->
    io_lib:format("system_limit: more than ~b processes alive at once "
                  "(raise the limit with erl +P)", [erlang:system_info(process_limit)]);
describe({timeout, Secs, seconds}) ->
    io_lib:format("no result after ~b s (SUITE_TIMEOUT_SECS)", [Secs]);
describe(Reason) ->
    io_lib:format("~0tP", [Reason, 30]).

timeout_ms() ->
    case os:getenv("SUITE_TIMEOUT_SECS") of
        false ->
            ?DEFAULT_TIMEOUT_SECS * 1000;
        S ->
            try list_to_integer(S) * 1000
            catch error:badarg -> ?DEFAULT_TIMEOUT_SECS * 1000
            end
    end.

%% Crash reports and other log events go to standard error, never stdout.
logger_to_stderr() ->
    _ = logger:remove_handler(default),
    ok = logger:add_handler(default, logger_std_h,
                            #{config => #{type => standard_error}}).
