% Burton, human needs theory (1990): protracted conflicts are driven by frustrated
% basic human needs (identity, security, recognition, participation), which, unlike
% interests, no party will trade away. Where such needs are at stake, bargaining fails
% and the needs must be met (analytical problem-solving, "provention").
%   threatened need: a Grievance or RedLine claim whose text names the need (keyword
%                    lists below), by the actor who asserts it; an Interest of
%                    interest_type identity, security, recognition or participation an actor holds
%   bargainable:     no when a need is at stake; yes when grievances, red lines and
%                    interests name none
% Needs are read from whole sets: mentioning/3 over the Grievance and RedLine claims,
% speakers/2 for who asserts them, group_by_edge/5 for who holds which interests.
% Shape: the rules work on sets, so that their cost grows with the number of actors and
% groupings rather than with every claim and event: each source of needs is an Actor-Ids
% grouping made in one step by a set predicate, passed over once; count_ids/2 counts a list
% (lib); evidence cites the first ids of each list.

:- module(burton, [
    indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, ranks/1, keywords/2, threatened_need/2
]).

% ---- applies --------------------------------------------------------------

missing('no grievances, red lines or interests: needs are read from what parties complain of (Grievance), refuse to give up (RedLine) or hold (HOLDS_INTEREST)') :-
    bn_sources([[], []]), nodes_where('Interest', _, _, []).

% ---- indicators -------------------------------------------------------------

indicator(identity_need, 1, 'identity named in Grievance or RedLine claims (identity, culture, language, religion, ethnicity, heritage), or identity interests held').
indicator(security_need, 1, 'security named in Grievance or RedLine claims (security, safety, survival, attacks, protection, killings), or security interests held').
indicator(recognition_need, 1, 'recognition named in Grievance or RedLine claims (recognition, respect, dignity, status), or recognition interests held').
indicator(participation_need, 1, 'participation named in Grievance or RedLine claims (participation, representation, exclusion, vote, voice, elections), or participation interests held').
indicator(grievances, 0.5, 'grievances voiced (Grievance claims)').
indicator(red_lines, 0.5, 'conditions declared non-negotiable (RedLine claims)').

present(Indicator, Ids) :-
    bn_indicator(Indicator, Need), bn_need_ids(Need, Ids), nonempty(Ids).
present(grievances, Ids) :- claims_of_type('Grievance', G), take(10, G, Ids), nonempty(Ids).
present(red_lines, Ids) :- claims_of_type('RedLine', R), take(10, R, Ids), nonempty(Ids).

bn_indicator(identity_need, identity).
bn_indicator(security_need, security).
bn_indicator(recognition_need, recognition).
bn_indicator(participation_need, participation).

% the needs, in the order findings list them
bn_need(identity). bn_need(security). bn_need(recognition). bn_need(participation).

keywords(bn_words(identity), ['identity', 'culture', 'cultural', 'language', 'mother tongue', 'religion', 'religious', 'faith', 'ethnic', 'heritage', 'traditions']).
keywords(bn_words(security), ['security', 'safety', 'survival', 'attack', 'protect', 'killed', 'killing', 'massacre', 'fear for our lives']).
keywords(bn_words(recognition), ['recognition', 'recognise', 'recognize', 'respect', 'dignity', 'status', 'acknowledge', 'humiliat']).
keywords(bn_words(participation), ['participation', 'participate', 'represent', 'exclude', 'exclusion', ' vote', 'voting', 'voice', 'inclusion', 'election']).

% ---- list tools that never walk a list id by id ------------------------------------

% bn_tally(+Groups, +Need, +Kind, -Tallies): (Actor-Need)-t(Kind, Count, FirstIds) per Actor-Ids group.
bn_tally([], _, _, []).
bn_tally([A-Ids|Gs], Need, Kind, [(A-Need)-t(Kind, N, S)|Ts]) :- count_ids(Ids, N), take(5, Ids, S), bn_tally(Gs, Need, Kind, Ts).

% ---- the sets it reads ----------------------------------------------------------------

% bn_sources(-Lists): the Grievance claims and the RedLine claims (two lists).
bn_sources([G, R]) :- claims_of_type('Grievance', G), claims_of_type('RedLine', R).

% bn_claims(+Need, -Hits): Grievance or RedLine claims that name Need (one list per claim type).
bn_claims(Need, Hits) :- bn_sources(Lists), member(Cs, Lists), keywords(bn_words(Need), Words), mentioning(Cs, Words, Hits).

% bn_interests(+Need, -Interests): the Interest nodes whose interest_type is Need.
bn_interests(Need, Is) :- nodes_where('Interest', interest_type, Need, Is).

% bn_held(+Need, -Groups): Actor-Interests for the interests of type Need that actors hold.
bn_held(Need, G) :- bn_interests(Need, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, G).

% bn_threatened(-Groups): (Actor-Need)-[t(claims or interests, Count, FirstIds)...], sorted.
% Kept for the view (view_set/3, read without the copy a table makes): the ranking and the findings read it.
bn_threatened(Groups) :- view_set(bn_threatened, bn_compute_threatened, Groups).

bn_compute_threatened(Groups) :-
    findall(Ts, (bn_need(N), bn_claims(N, Hits), speakers(Hits, G), bn_tally(G, N, claims, Ts)), L1),
    findall(Ts, (bn_need(N), bn_held(N, G), bn_tally(G, N, interests, Ts)), L2),
    append(L1, L2, Lists), append(Lists, All), msort(All, Sorted), group_pairs_by_key(Sorted, Groups).

% added_parts(bn_threatened, +Added, +Groups, -Puts): the entries of each node a write touched (added_ends/2), found
% again from its own claims and interests (bn_own_threatened/2), to put in place of its old ones (as put_by_subject/3
% would): an actor's needs are read from the claims it asserts and the interests it holds, each an edge at that actor,
% and a write only adds, so an actor's entries only grow. Found again whole after every write of a claim before (130k
% inferences at 1M facts). Kept in parts by Actor-Need (parted_answer/2, lib/graph.pl), as the ranking table is.
parted_answer(bn_threatened, list(1)).
added_parts(bn_threatened, Added, _, New) :- bn_touched_threatened(Added, New).

% bn_touched_threatened(+Added, -Entries): the entries of bn_threatened/1 of the nodes a write touched, sorted; read once
% a write for the needs and the ranking table both (write_memo/3)
bn_touched_threatened(Added, Entries) :-
    added_ends(Added, Touched),
    write_memo(bn_touched_threatened, Entries, bn_touched_threatened_(Touched, Entries)).
bn_touched_threatened_(Touched, Entries) :-
    findall(Ts, ( member(X, Touched), bn_own_tallies(X, Ts) ), Lists),
    append(Lists, All), msort(All, Sorted), group_pairs_by_key(Sorted, Entries).

% bn_own_tallies(+X, -Tallies): X's tallies as bn_compute_threatened/1 makes them, read from X's own edges: per need,
% the claims of each type in bn_sources/1 that name it (own_claims/3, own_mentioning/3) and the interests of its type held
bn_own_tallies(X, Ts) :-
    bn_need(N), keywords(bn_words(N), Words), member(Type, ['Grievance', 'RedLine']),
    own_claims(X, Type, Cs), own_mentioning(Cs, Words, Hits), Hits \== [], bn_tally([X-Hits], N, claims, Ts).
bn_own_tallies(X, Ts) :-
    own_ends(X, 'HOLDS_INTEREST', _, 'Interest', Is), Is \== [],
    bn_need(N), filter_ids(Is, prop(interest_type, N), Held), Held \== [], bn_tally([X-Held], N, interests, Ts).

% bn_at_stake(-Needs, -Ids): the needs named or held anywhere (attributed or not), and the first
% ids that show each.
bn_at_stake(Needs, Ids) :-
    findall(N-NIds, (bn_need(N), bn_need_ids(N, NIds), NIds \== []), Pairs),
    findall(N, member(N-_, Pairs), Needs),
    findall(NIds, member(_-NIds, Pairs), Ls), append(Ls, L), sort(L, Ids).

% bn_need_ids(+Need, -Ids): the first claims naming Need and the first interests of that type held.
bn_need_ids(Need, Ids) :-
    findall(P, (bn_claims(Need, Hits), take(10, Hits, P)), Ps),
    bn_held(Need, G), take(5, G, G5), findall(F, (member(_-Is, G5), take(5, Is, F)), Fs),
    append(Ps, Fs, Ls), append(Ls, L), sort(L, Ids).

% ---- query-callable ------------------------------------------------------------------

% threatened_need(?A, ?Need): A names Need as threatened, or holds it as an interest.
threatened_need(A, Need) :- bn_threatened(Groups), member((A-Need)-_, Groups).

% ---- findings ------------------------------------------------------------------------

% per actor and need, ranked by the claims and interests naming it: a run keeps its findings limit of them (kept/2)
rank(threatened_need, A-Need, N) :- bn_threatened(Groups), member((A-Need)-Ts, Groups), bn_score(Ts, N).

bn_score(Ts, N) :- ( member(t(claims, NC, _), Ts) -> true ; NC = 0 ), ( member(t(interests, _, Is), Ts) -> length(Is, NI) ; NI = 0 ), N is NC + NI.

% ranks(-Table): the candidates of rank/3 as a ranking table (lib/conflict.pl rank_table/2), kept with view_set/3 and
% grown with the entries bn_threatened/1's growth finds again, where they were all ranked again after a write of a claim
ranks(Table) :- view_set(bn_ranks, bn_ranks_, Table).
bn_ranks_(Table) :- bn_threatened(Groups), bn_scored(Groups, Scored), rank_entries(Scored, Table).
parted_answer(bn_ranks, list(4)).
added_parts(bn_ranks, Added, _, New) :- bn_touched_threatened(Added, Touched), bn_scored(Touched, Scored), rank_entries(Scored, New).

bn_scored(Groups, Scored) :- findall(threatened_need-(A-Need)-N, ( member((A-Need)-Ts, Groups), bn_score(Ts, N) ), Scored).

finding(threatened_need, [A, Need], Sentence, Evidence, [Indicator, Rule]) :-
    bn_threatened(Groups), kept_member(threatened_need, A-Need, (A-Need)-Ts, Groups), bn_indicator(Indicator, Need),
    ( member(t(claims, NC, Cs), Ts) -> true ; NC = 0, Cs = [] ),
    ( member(t(interests, _, Interests), Ts) -> true ; Interests = [] ),
    findall(E, (member(I, Interests), holds_interest_edge(A, I, E)), Edges),
    append([[A], Cs, Interests, Edges], E0), sort(E0, Evidence),
    (   Interests == []
    ->  Rule = 'a need is threatened when a Grievance or RedLine claim of the actor names it',
        join([[A], '''s need for ', Need, ' is threatened: its grievances or red lines name it (claims: ', NC, ').'], Sentence)
    ;   NC =:= 0
    ->  Rule = 'an interest of type identity, security, recognition or participation an actor holds is one of its basic needs',
        join([[A], '''s need for ', Need, ' is at stake: it holds it as an interest (', Interests, ').'], Sentence)
    ;   Rule = 'a need is threatened when a Grievance or RedLine claim of the actor names it, or it holds it as an interest',
        join([[A], '''s need for ', Need, ' is threatened: its grievances or red lines name it (claims: ', NC, '), and it holds it as an interest (', Interests, ').'], Sentence)
    ).

finding(bargainable, Value, Sentence, Evidence, Because) :-
    bn_at_stake(Needs, Ids),
    (   Needs \== []
    ->  Value = no, Evidence = Ids, atomic_list_concat(Needs, ', ', NeedText),
        findall(I, (member(N, Needs), bn_indicator(I, N)), Indicators),
        append(Indicators, ['such needs are non-negotiable, so bargaining over them fails'], Because),
        join(['Basic needs are at stake (', NeedText, '): such needs are non-negotiable, so bargaining over them fails. ',
              'Burton calls for analytical problem-solving that finds ways to meet every party''s needs rather than trading them.'], Sentence)
    ;   Value = yes, bn_sources(Lists), findall(P, (member(L, Lists), take(10, L, P)), Ps),
        nodes_where('Interest', _, _, Is), take(10, Is, IP), append([IP|Ps], E0), sort(E0, Evidence),
        Lists = [G, R], findall(I, member(I-[_|_], [grievances-G, red_lines-R]), Indicators),
        append(Indicators, ['no grievance, red line or interest names identity, security, recognition or participation, so what is at stake can be bargained over'], Because),
        join(['The grievances, red lines and interests name no basic need (identity, security, recognition, participation): ',
              'what divides the parties are interests, which can be bargained over.'], Sentence)
    ).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% needs declared non-negotiable are the needs reading's home; bargainable ones a weak reading
strength(bargainable-no, Score, Ids) :- finding(bargainable, no, _, Ids, _), reading_strength(0.85, Ids, Score).
strength(bargainable-yes, Score, Ids) :- finding(bargainable, yes, _, Ids, _), reading_strength(0.3, Ids, Score).
