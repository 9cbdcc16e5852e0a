%% @doc EUnit tests of the Erlang/OTP suite.
%%
%% - Every line of the contract's vectors file (path from the environment variable
%%   VECTORS, else `docs/vectors.tsv' relative to the repository
%%   root, the working directory of test.sh) is run in this node through
%%   `suite:run_args/1', and its check must match.
%% - The argument rules of suite_args: every error shape, exact messages.
%% - The program as a process (a child `erl'): a result gives exit 0 and one
%%   stdout line with a positive `seconds=' at 1 and 2 schedulers; bad input gives exit 2, nothing on stdout and one stderr line
%%   naming the benchmark, the parameter and the value; a run that cannot
%%   finish in time exits 1.
-module(suite_tests).

-include_lib("eunit/include/eunit.hrl").

-define(KNOWN, "threadring, chameneos, big, fannkuch, fibtree, skynet, spreading, "
               "mixed, bang, serialmsg, pingpong, counting, fjthrput, fjcreate, concdict, "
               "concsll, bndbuffer, philosopher, barber, cigsmok, logmap, banking").

%%% The shared vectors, in process.

vectors_test_() ->
    Path = case os:getenv("VECTORS") of
               false -> "docs/vectors.tsv";
               P -> P
           end,
    Lines = case file:read_file(Path) of
                {ok, Bin} ->
                    [L || L <- string:split(binary_to_list(Bin), "\n", all),
                          L =/= "", hd(L) =/= $#];
                {error, Reason} ->
                    error({vectors_unreadable, filename:absname(Path), Reason})
            end,
    ?assert(length(Lines) >= 12),
    [vector(L) || L <- Lines].

vector(Line) ->
    [Bench, Params, Check] = string:split(string:trim(Line, trailing, "\r"), "\t", all),
    Args = [Bench | string:lexemes(Params, " ")],
    {Bench ++ " " ++ Params,
     {timeout, 300,
      fun() ->
              {ok, Result} = suite:run_args(Args),
              ["result", "bench=" ++ Bench, "check=" ++ Got | Rest] =
                  string:lexemes(Result, " "),
              ?assertEqual(Check, Got),
              ["seconds=" ++ Seconds | RevExtra] = lists:reverse(Rest),
              ?assert(positive_seconds(Seconds)),
              check_extra(Bench, Got, lists:reverse(RevExtra))
      end}}.

%% `seconds=' holds a positive decimal number.
positive_seconds(Text) ->
    try binary_to_float(list_to_binary(Text)) > 0.0
    catch error:badarg -> false
    end.

%% Chameneos also prints the counts, one per creature, summing to the check.
check_extra("chameneos", Check, ["counts=" ++ Counts]) ->
    Ns = [list_to_integer(N) || N <- string:lexemes(Counts, ",")],
    ?assertEqual(list_to_integer(Check), lists:sum(Ns));
check_extra(_Bench, _Check, Extra) ->
    ?assertEqual([], Extra).

chameneos_counts_per_creature_test() ->
    {ok, Line} = suite:run_args(["chameneos", "creatures=7", "meetings=1000"]),
    ["counts=" ++ Counts] = [F || "counts=" ++ _ = F <- string:lexemes(Line, " ")],
    ?assertEqual(7, length(string:lexemes(Counts, ","))).

defaults_are_the_quick_values_test() ->
    {ok, threadring, Params} = suite_args:parse(["threadring"]),
    ?assertEqual(#{actors => 503, hops => 1000000}, Params),
    {ok, big, Big} = suite_args:parse(["big", "hood=4", "workers=10"]),
    ?assertEqual(#{workers => 10, pings => 2000, hood => 4}, Big).

%% The generator and work/2 give the values docs/benchmarks.md lists.
splitmix_known_values_test() ->
    Draws = fun(Seed) ->
                    {A, S1} = splitmix:next(Seed),
                    {B, S2} = splitmix:next(S1),
                    {C, _} = splitmix:next(S2),
                    [A, B, C]
            end,
    ?assertEqual([16294208416658607535, 7960286522194355700, 487617019471545679], Draws(0)),
    ?assertEqual([10451216379200822465, 13757245211066428519, 17911839290282890590],
                 Draws(1)),
    ?assertEqual(16294208416658607535, splitmix:step(0)),
    ?assertEqual(12035550249420947055, splitmix:work(0, 2)),
    ?assertEqual(2513630078224190977, splitmix:work(5, 1000)),
    ?assertEqual(7, splitmix:work(7, 0)),
    ?assertEqual({7960286522194355700 rem 10, 2 * 16#9E3779B97F4A7C15 band (1 bsl 64 - 1)},
                 splitmix:below(16#9E3779B97F4A7C15, 10)),
    ?assertEqual(<<"1:18446744073709551615:0">>, splitmix:check([1, -1, 1 bsl 64])).

%%% Argument errors, exact messages.

error_of(Args) ->
    {error, Message} = suite_args:parse(Args),
    Message.

no_benchmark_test() ->
    ?assertEqual("no benchmark given (known: " ?KNOWN ")", error_of([])).

unknown_benchmark_test() ->
    ?assertEqual("unknown benchmark 'foo' (known: " ?KNOWN ")", error_of(["foo"])),
    ?assertEqual("unknown benchmark 'Threadring' (known: " ?KNOWN ")",
                 error_of(["Threadring"])).

not_name_value_test() ->
    ?assertEqual("threadring: argument 'hops' is not NAME=VALUE",
                 error_of(["threadring", "hops"])).

unknown_parameter_test() ->
    ?assertEqual("threadring: unknown parameter foo=1 (known: actors, hops)",
                 error_of(["threadring", "foo=1"])),
    ?assertEqual("mixed: unknown parameter ringsize=1 (known: rings, ring_size, token, reps)",
                 error_of(["mixed", "ringsize=1"])),
    ?assertEqual("fibtree: unknown parameter =3 (known: n)", error_of(["fibtree", "=3"])).

repeated_parameter_test() ->
    ?assertEqual("threadring: parameter hops=5 given twice",
                 error_of(["threadring", "hops=4", "hops=5"])).

non_numeric_test_() ->
    [?_assertEqual("threadring: hops=" ++ Bad ++ " is not a non-negative integer",
                   error_of(["threadring", "hops=" ++ Bad]))
     || Bad <- ["abc", "", "-1", "+5", " 5", "5 ", "1e3", "0x10", "3.0", "1=2"]].

out_of_range_test() ->
    ?assertEqual("fannkuch: n=13 is out of range (3..=12)", error_of(["fannkuch", "n=13"])),
    ?assertEqual("fannkuch: n=2 is out of range (3..=12)", error_of(["fannkuch", "n=2"])),
    ?assertEqual("counting: count=99999999999999999999999 is out of range (0..=1000000000)",
                 error_of(["counting", "count=99999999999999999999999"])),
    ?assertEqual("spreading: depth=0025 is out of range (0..=24)",
                 error_of(["spreading", "depth=0025"])).

every_range_bound_test() ->
    lists:foreach(
      fun({Bench, Specs}) ->
              B = atom_to_list(Bench),
              lists:foreach(
                fun({P, _Quick, Min, Max}) ->
                        Arg = fun(V) -> atom_to_list(P) ++ "=" ++ integer_to_list(V) end,
                        % skynet: keep size a power of div while probing the bounds
                        Pad = case {Bench, P} of
                                  {skynet, size} -> ["div=10"];
                                  {skynet, _} -> ["size=1"];
                                  _ -> []
                              end,
                        ?assertMatch({ok, Bench, #{P := Min}},
                                     suite_args:parse([B, Arg(Min) | Pad])),
                        ?assertMatch({ok, Bench, #{P := Max}},
                                     suite_args:parse([B, Arg(Max) | Pad])),
                        ?assertMatch({error, _}, suite_args:parse([B, Arg(Max + 1) | Pad])),
                        Min > 0 andalso
                            ?assertMatch({error, _},
                                         suite_args:parse([B, Arg(Min - 1) | Pad]))
                end,
                Specs)
      end,
      suite_args:benchmarks()).

skynet_rule_test() ->
    ?assertEqual("skynet: size=1000 is not a power of div=7",
                 error_of(["skynet", "size=1000", "div=7"])),
    ?assertEqual("skynet: size=100000 is not a power of div=4", error_of(["skynet", "div=4"])),
    ?assertEqual("skynet: size=0 is out of range (1..=100000000)",
                 error_of(["skynet", "size=0", "div=2"])),
    ?assertMatch({ok, skynet, #{size := 1, 'div' := 7}},
                 suite_args:parse(["skynet", "size=1", "div=7"])),
    ?assertMatch({ok, skynet, #{size := 65536, 'div' := 4}},
                 suite_args:parse(["skynet", "size=65536", "div=4"])).

first_bad_argument_decides_test() ->
    ?assertEqual("threadring: hops=x is not a non-negative integer",
                 error_of(["threadring", "hops=x", "actors=0"])),
    ?assertEqual("threadring: actors=0 is out of range (1..=1000000)",
                 error_of(["threadring", "actors=0", "hops=x"])).

%%% The program as a process.

%% Runs the suite as the harness does, through the run script (which execs
%% `erl' with N schedulers and the arguments after `-extra'), with one
%% scheduler unless told; returns {ExitStatus, Stdout, Stderr}.
program(Args) ->
    program(Args, "").

program(Args, Env) ->
    program(Args, Env, 1).

program(Args, Env, Schedulers) ->
    Cmd = lists:flatten([Env, " ", quote(run_script()), " ", integer_to_list(Schedulers),
                         [[" ", quote(A)] || A <- Args]]),
    {Status, Out} = shell(Cmd ++ " 2>/dev/null"),
    {Status, Err} = shell(Cmd ++ " 2>&1 >/dev/null"),
    {Status, Out, Err}.

%% peers/erlang/run, beside the ebin directory the suite was loaded from.
run_script() ->
    filename:join(filename:dirname(filename:dirname(code:which(suite))), "run").

shell(Cmd) ->
    Port = open_port({spawn_executable, "/bin/sh"},
                     [{args, ["-c", Cmd]}, exit_status, binary, stderr_to_stdout]),
    collect(Port, <<>>).

collect(Port, Acc) ->
    receive
        {Port, {data, D}} -> collect(Port, <<Acc/binary, D/binary>>);
        {Port, {exit_status, S}} -> {S, binary_to_list(Acc)}
    end.

quote(S) -> "'" ++ S ++ "'".

%% One result line, its work time positive, at 1 and 2 schedulers.
program_prints_one_result_line_test_() ->
    [{"+S " ++ integer_to_list(S),
      {timeout, 60,
       fun() ->
               {Status, Out, Err} = program(["pingpong", "pings=3"], "", S),
               ?assertEqual({0, ""}, {Status, Err}),
               ["result bench=pingpong check=3 seconds=" ++ Seconds, ""] =
                   string:split(Out, "\n", all),
               ?assert(positive_seconds(Seconds))
       end}}
     || S <- [1, 2]].

bad_input_exits_2_with_one_stderr_line_test_() ->
    Cases = [{["fannkuch", "n=13"], ["fannkuch", "n=13"]},
             {["skynet", "size=1000", "div=7"], ["skynet", "size=1000", "div=7"]},
             {["foo"], ["unknown benchmark", "foo"]},
             {["threadring", "foo=1"], ["threadring", "foo=1"]},
             {["threadring", "hops=abc"], ["threadring", "hops=abc"]},
             {["threadring", "--help"], ["threadring", "--help"]},
             {["threadring", "+S"], ["threadring", "+S"]},
             {[], ["no benchmark given"]}],
    [{string:join(Args, " "),
      {timeout, 60,
       fun() ->
               {Status, Out, Err} = program(Args),
               ?assertEqual(2, Status),
               ?assertEqual("", Out),
               ?assertMatch(["error: " ++ _], string:split(string:trim(Err, trailing, "\n"),
                                                           "\n", all)),
               [?assertNotEqual(nomatch, string:find(Err, N)) || N <- Needles]
       end}}
     || {Args, Needles} <- Cases].

run_past_its_time_exits_1_test_() ->
    {timeout, 60,
     fun() ->
             {Status, Out, Err} = program(["counting", "count=1000000000"],
                                          "SUITE_TIMEOUT_SECS=1"),
             ?assertEqual(1, Status),
             ?assertEqual("", Out),
             ?assertNotEqual(nomatch, string:find(Err, "error: counting: run failed"))
     end}.

%%% The run script's process limit: +P only for runs that need it.

%% The erl command line the run script would exec for these arguments.
command_of(Args) ->
    {0, Out} = shell(lists:flatten(["ERLANG_PEER_PRINT_COMMAND=1 ", quote(run_script()),
                                    [[" ", quote(A)] || A <- Args]])),
    string:trim(Out, trailing, "\n").

process_limit_test_() ->
    Limit = fun(Args) ->
                    case string:split(command_of(Args), " +P ") of
                        [_] -> default;
                        [_, Rest] -> list_to_integer(hd(string:lexemes(Rest, " ")))
                    end
            end,
    [?_assertEqual(default, Limit(["1", "pingpong"])),
     ?_assertEqual(default, Limit(["2", "skynet"])),                      % 111,111
     ?_assertEqual(default, Limit(["2", "spreading", "depth=16"])),       % 131,071
     ?_assertEqual(default, Limit(["2", "fibtree", "n=25"])),             % 150,049
     ?_assertEqual(default, Limit(["2", "threadring", "actors=abc"])),    % left to suite_args
     ?_assertEqual(1111111 + 1000, Limit(["2", "skynet", "size=1000000"])),
     ?_assertEqual(1048575 + 1000, Limit(["2", "spreading", "depth=19"])),
     ?_assertEqual(1664079 + 1000, Limit(["2", "fibtree", "n=30"])),
     ?_assertEqual(1048575 + 1000, Limit(["1", "spreading", "depth=0019"])), % decimal
     ?_assertEqual(300000 + 1000, Limit(["1", "threadring", "hops=5", "actors=300000"])),
     ?_assertEqual(4194304, Limit(["1", "bang", "senders=999999999"])),
     ?_assertEqual(4194304, Limit(["1", "fibtree", "n=32"])),
     ?_assertEqual(default, Limit(["2", "banking"])),
     ?_assertEqual(1000000 + 1000, Limit(["2", "banking", "accounts=1000000"])),
     ?_assertEqual(300000 + 2 + 1000, Limit(["1", "barber", "haircuts=300000"])),
     ?_assertEqual(default, Limit(["1", "fjcreate", "actors=10000000"])),
     ?_assertEqual(default, Limit(["1", "cigsmok", "smokers=100000"])),
     ?_assertEqual(default, Limit(["2", "fjthrput", "actors=100000"])),
     ?_assertEqual("erl -noshell -noinput +S 2:2 -pa " ++
                       filename:join(filename:dirname(run_script()), "ebin") ++
                       " -run suite main -extra threadring hops=-1 +S",
                   command_of(["2", "threadring", "hops=-1", "+S"]))].

%% The trees, and only they, start their processes with a smaller heap.
tree_heap_test_() ->
    HasHms = fun(Args) -> string:find(command_of(Args), " +hms 38 ") =/= nomatch end,
    [?_assert(HasHms(["1", "fibtree"])),
     ?_assert(HasHms(["2", "skynet", "size=1000000"])),
     ?_assert(HasHms(["2", "spreading"])),
     ?_assertNot(HasHms(["1", "threadring"])),
     ?_assertNot(HasHms(["1", "big"])),
     ?_assertNot(HasHms(["1"]))].

%% The ten Savina benchmarks as the harness runs them: at 1 and 2
%% schedulers a small case prints the oracle's check, and a bad value exits 2
%% with one stderr line naming the benchmark, the parameter and the value.
savina_programs_test_() ->
    Cases = [{["fjthrput", "actors=3", "messages=5"], "15:9541978460438545511",
              "actors=0", "fjthrput: actors=0 is out of range (1..=100000)"},
             {["fjcreate", "actors=10"], "10:7438657777315996608",
              "actors=10000001", "fjcreate: actors=10000001 is out of range (1..=10000000)"},
             {["concdict", "workers=2", "messages=50", "write_pct=100"],
              "100:98:233176387078928:0",
              "write_pct=101", "concdict: write_pct=101 is out of range (0..=100)"},
             {["concsll", "workers=1", "messages=20", "write_pct=50", "size_pct=10"],
              "20:9:36599:0",
              "size_pct=x", "concsll: size_pct=x is not a non-negative integer"},
             {["bndbuffer", "buffer=2", "producers=3", "consumers=2", "items=10", "cost=3"],
              "30:14693027747183956667",
              "buffer=0", "bndbuffer: buffer=0 is out of range (1..=1000000)"},
             {["philosopher", "philosophers=2", "rounds=10"], "20",
              "philosophers=0", "philosopher: philosophers=0 is out of range (1..=10000)"},
             {["barber", "haircuts=10", "room=1", "arrival=5", "cut=50"],
              "10:1351256199984715530",
              "room=0", "barber: room=0 is out of range (1..=1000000)"},
             {["cigsmok", "rounds=10", "smokers=3"], "20:7265486000446837202",
              "smokers=0", "cigsmok: smokers=0 is out of range (1..=100000)"},
             {["logmap", "terms=100", "series=2", "rate=36000", "increment=40"], "556817300049",
              "rate=36001", "logmap: rate=36001 is out of range (0..=36000)"},
             {["banking", "accounts=3", "transactions=20"], "20:6004220",
              "accounts=1", "banking: accounts=1 is out of range (2..=1000000)"}],
    [{string:join(Args, " "),
      {timeout, 120,
       fun() ->
               [begin
                    {Status, Out, Err} = program(Args, "", S),
                    ?assertEqual({S, 0, ""}, {S, Status, Err}),
                    Prefix = "result bench=" ++ Bench ++ " check=" ++ Check ++ " seconds=",
                    [Line, ""] = string:split(Out, "\n", all),
                    ?assertEqual(Prefix, lists:sublist(Line, length(Prefix)))
                end
                || S <- [1, 2]],
               ?assertEqual({2, "", "error: " ++ Message ++ "\n"}, program([Bench, Bad]))
       end}}
     || {[Bench | _] = Args, Check, Bad, Message} <- Cases].

%% A run with more processes than the default limit (262,144) finishes.
run_above_the_default_process_limit_test_() ->
    {timeout, 120,
     fun() ->
             {Status, Out, _Err} = program(["threadring", "actors=300000", "hops=1"]),
             ?assertEqual(0, Status),
             ?assertMatch("result bench=threadring check=2 seconds=" ++ _, Out)
     end}.
