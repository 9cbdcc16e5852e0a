%% @doc Parsing and validating `BENCH [NAME=VALUE ...]' for the suite.
%%
%% The arguments are read in order. The first names the benchmark; every later
%% one must be `NAME=VALUE' (split at the first `='), where NAME is one of the
%% benchmark's parameters, given at most once, and VALUE is a non-negative
%% decimal integer (ASCII digits only) inside the parameter's inclusive range.
%% The first argument that breaks a rule decides the error. Parameters not
%% given take their quick defaults; only then is skynet's rule checked (`size'
%% must be a power of `div', `div^0 = 1' allowed).
%%
%% Errors come back as `{error, Message}' where Message is the text after
%% `error: ' in the line the program prints; it always names the benchmark, the
%% parameter and the bad value as given on the command line.
-module(suite_args).

-export([parse/1, benchmarks/0, names/0, params/1]).

-export_type([bench/0, params/0]).

-type bench() :: threadring | chameneos | big | fannkuch | fibtree | skynet
               | spreading | mixed | bang | serialmsg | pingpong | counting
               | fjthrput | fjcreate | concdict | concsll | bndbuffer | philosopher
               | barber | cigsmok | logmap | banking.
-type params() :: #{atom() => non_neg_integer()}.

%% {Name, Quick, Min, Max} for one parameter.
-type param_spec() :: {atom(), non_neg_integer(), non_neg_integer(), non_neg_integer()}.

%% @doc Every benchmark with its parameters, in the contract's order.
-spec benchmarks() -> [{bench(), [param_spec()]}].
benchmarks() ->
    [{threadring, [{actors, 503, 1, 1000000}, {hops, 1000000, 0, 1000000000}]},
     {chameneos, [{creatures, 70, 2, 1000000}, {meetings, 200000, 0, 100000000}]},
     {big, [{workers, 500, 1, 1000000}, {pings, 2000, 0, 100000000},
            {hood, 1000, 1, 1000000}]},
     {fannkuch, [{n, 10, 3, 12}]},
     {fibtree, [{n, 20, 0, 40}]},
     {skynet, [{size, 100000, 1, 100000000}, {'div', 10, 2, 1000}]},
     {spreading, [{depth, 16, 0, 24}]},
     {mixed, [{rings, 4, 1, 10000}, {ring_size, 50, 2, 100000},
              {token, 100, 0, 100000000}, {reps, 2, 1, 1000}]},
     {bang, [{senders, 100, 1, 1000000}, {messages, 1000, 0, 100000000}]},
     {serialmsg, [{pairs, 40, 1, 100000}, {messages, 1000, 0, 100000000}]},
     {pingpong, [{pings, 100000, 0, 1000000000}]},
     {counting, [{count, 1000000, 0, 1000000000}]},
     {fjthrput, [{actors, 60, 1, 100000}, {messages, 2000, 0, 100000000}]},
     {fjcreate, [{actors, 20000, 1, 10000000}]},
     {concdict, [{workers, 20, 1, 10000}, {messages, 5000, 0, 100000000},
                 {write_pct, 10, 0, 100}]},
     {concsll, [{workers, 20, 1, 10000}, {messages, 1000, 0, 100000000},
                {write_pct, 10, 0, 100}, {size_pct, 1, 0, 100}]},
     {bndbuffer, [{buffer, 50, 1, 1000000}, {producers, 40, 1, 10000},
                  {consumers, 40, 1, 10000}, {items, 500, 0, 100000000},
                  {cost, 25, 0, 1000000}]},
     {philosopher, [{philosophers, 20, 1, 10000}, {rounds, 5000, 0, 100000000}]},
     {barber, [{haircuts, 1000, 0, 10000000}, {room, 1000, 1, 1000000},
               {arrival, 1000, 0, 1000000}, {cut, 1000, 0, 1000000}]},
     {cigsmok, [{rounds, 1000, 0, 100000000}, {smokers, 200, 1, 100000}]},
     {logmap, [{terms, 10000, 0, 100000000}, {series, 10, 1, 100},
               {rate, 34600, 0, 36000}, {increment, 25, 0, 40}]},
     {banking, [{accounts, 1000, 2, 1000000}, {transactions, 30000, 0, 100000000}]}].

%% @doc The benchmark names, in order.
-spec names() -> [bench()].
names() -> [B || {B, _} <- benchmarks()].

%% @doc The parameter specs of one benchmark.
-spec params(bench()) -> [param_spec()].
params(Bench) ->
    {Bench, Specs} = lists:keyfind(Bench, 1, benchmarks()),
    Specs.

%% @doc Parses the program's arguments (strings).
-spec parse([string()]) -> {ok, bench(), params()} | {error, string()}.
parse(Args) ->
    case parse_args(Args) of
        {error, Message} -> {error, lists:flatten(Message)};
        Ok -> Ok
    end.

parse_args([]) ->
    {error, "no benchmark given (known: " ++ known_benches() ++ ")"};
parse_args([Name | Args]) ->
    case [B || B <- names(), atom_to_list(B) =:= Name] of
        [Bench] ->
            parse_params(Bench, params(Bench), Args, #{});
        [] ->
            {error, "unknown benchmark '" ++ Name ++ "' (known: "
                    ++ known_benches() ++ ")"}
    end.

parse_params(Bench, Specs, [], Given) ->
    Defaults = maps:from_list([{P, Quick} || {P, Quick, _, _} <- Specs]),
    check_rule(Bench, maps:merge(Defaults, Given));
parse_params(Bench, Specs, [Arg | Rest], Given) ->
    case parse_one(Bench, Specs, Arg, Given) of
        {ok, Param, Value} ->
            parse_params(Bench, Specs, Rest, Given#{Param => Value});
        {error, _} = Error ->
            Error
    end.

%% One `NAME=VALUE' argument: shape, name, repetition, digits, range.
parse_one(Bench, Specs, Arg, Given) ->
    B = atom_to_list(Bench),
    case string:split(Arg, "=") of
        [_] ->
            {error, B ++ ": argument '" ++ Arg ++ "' is not NAME=VALUE"};
        [Name, Value] ->
            case [S || {P, _, _, _} = S <- Specs, atom_to_list(P) =:= Name] of
                [] ->
                    {error, B ++ ": unknown parameter " ++ Arg ++ " (known: "
                            ++ lists:join(", ", [atom_to_list(P) || {P, _, _, _} <- Specs])
                            ++ ")"};
                [{Param, _, _, _}] when is_map_key(Param, Given) ->
                    {error, B ++ ": parameter " ++ Arg ++ " given twice"};
                [{Param, _, Min, Max}] ->
                    case is_digits(Value) of
                        false ->
                            {error, B ++ ": " ++ Arg ++ " is not a non-negative integer"};
                        true ->
                            N = list_to_integer(Value),
                            case N >= Min andalso N =< Max of
                                true ->
                                    {ok, Param, N};
                                false ->
                                    {error, io_lib:format("~s: ~ts is out of range (~b..=~b)",
                                                          [B, Arg, Min, Max])}
                            end
                    end
            end
    end.

is_digits([]) -> false;
is_digits(S) -> lists:all(fun(C) -> C >= $0 andalso C =< $9 end, S).

check_rule(skynet, #{size := Size, 'div' := Div} = Params) ->
    case is_power_of(Size, Div) of
        true ->
            {ok, skynet, Params};
        false ->
            {error, io_lib:format("skynet: size=~b is not a power of div=~b", [Size, Div])}
    end;
check_rule(Bench, Params) ->
    {ok, Bench, Params}.

is_power_of(1, _Div) -> true;
is_power_of(Size, Div) when Size > 1, Size rem Div =:= 0 -> is_power_of(Size div Div, Div);
is_power_of(_, _) -> false.

known_benches() ->
    lists:join(", ", [atom_to_list(B) || B <- names()]).
