% Thomas & Kilmann (1974): five conflict-handling modes on two dimensions,
% assertiveness (pursuing one's own concerns) and cooperativeness (the other's):
%   competing      assertive, uncooperative:  Demand, Threat, RedLine claims
%   collaborating  assertive, cooperative:    Offer claims, taking part in CONSULT events,
%                                             interests of a type another actor holds too
%   compromising   intermediate:              Concession claims met by an Offer or Concession
%                                             of the other side
%   avoiding       unassertive, uncooperative: REJECT events (perpetrator or participant),
%                                             claims refusing talks
%   accommodating  unassertive, cooperative:  Concession claims the other side has not met
%                                             with any Offer or Concession
% Each actor's mode is the one with the most moves; ties go in the order above.
% "The other side" is the actors hostile to it (OPPOSES edges, hostile events, threats,
% accusations, demands and red lines aimed at it); an actor with no identified opponent is
% measured against every other actor.
%
% Shape: each source of moves is an Actor-Ids grouping made in one step by a set predicate
% (claims_by_actor, participants, perpetrators, speakers); one pass over its groups counts each
% group (functor/3 of a term built from it) and keeps its first five ids as evidence, so that the
% cost grows with the number of actors rather than with every claim and event.

:- module(thomas_kilmann, [
    indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, ranks/1, keywords/2, competing/1
]).

% ---- applies --------------------------------------------------------------

missing('no actor with attributed moves: modes are read from the claims an actor asserts (ASSERTS) and the events it takes part in (PARTICIPATES_IN)') :-
    \+ (tk_sources(Ss), member(S, Ss), tk_source(S, _, [_|_])).

% ---- indicators -------------------------------------------------------------

indicator(competing_moves, 1, 'assertive, uncooperative moves: Demand, Threat and RedLine claims an actor asserts').
indicator(collaborating_moves, 1, 'assertive, cooperative moves: Offer claims, taking part in CONSULT events, interests of a type another actor holds too').
indicator(compromising_moves, 1, 'give and take: Concession claims met by an Offer or Concession of the other side').
indicator(avoiding_moves, 1, 'withdrawal: REJECT events (perpetrator or participant) and claims refusing talks').
indicator(accommodating_moves, 1, 'yielding: Concession claims the other side has not met with an Offer or Concession').

present(Indicator, Ids) :-
    tk_indicator_kinds(Indicator, Kinds),
    findall(S, (tk_sources(Ss), member(Src, Ss), tk_source(Src, Kind, G), member(Kind, Kinds),
                take(5, G, G5), tk_tally(G5, Kind, Ts), member(_-t(_, _, S), Ts)), L),
    append(L, Ids0), sort(Ids0, Ids), nonempty(Ids).
present(Indicator, Ids) :-
    findall(R-U, tk_concessions(R, U), [Returned-Unreturned]),
    member(Indicator-Ids, [compromising_moves-Returned, accommodating_moves-Unreturned]), nonempty(Ids).

tk_indicator_kinds(competing_moves, [competing]).
tk_indicator_kinds(collaborating_moves, [offer, collaborating]).
tk_indicator_kinds(avoiding_moves, [avoiding]).

tk_indicator_mode(competing_moves, competing).
tk_indicator_mode(collaborating_moves, collaborating).
tk_indicator_mode(compromising_moves, compromising).
tk_indicator_mode(avoiding_moves, avoiding).
tk_indicator_mode(accommodating_moves, accommodating).

% tk_concessions(-Returned, -Unreturned): the concessions cited (first five of each actor)
% that the other side met with an Offer or Concession, and those it did not.
tk_concessions(Returned, Unreturned) :-
    claims_by_actor('Concession', GC), GC \== [], tk_concession_flags(Flags0), msort(Flags0, Flags),
    tk_split(GC, Flags, [], R0, [], U0), append(R0, R), sort(R, Returned), append(U0, U), sort(U, Unreturned).

tk_split([], _, R, R, U, U).
tk_split([_-Cs|Gs], [_-t(returned, yes, _)|Fs], R0, R, U0, U) :- !, take(5, Cs, S), tk_split(Gs, Fs, [S|R0], R, U0, U).
tk_split([_-Cs|Gs], [_|Fs], R0, R, U0, U) :- take(5, Cs, S), tk_split(Gs, Fs, R0, R, [S|U0], U).

keywords(tk_refusal_words, ['no negotiation', 'not negotiate', 'never negotiate', 'no talks', 'refuse talks', 'refuses talks', 'refuse to talk', 'reject talks', 'rejects talks', 'no dialogue', 'will not talk', 'never talk', 'boycott the talks', 'walk out of the talks', 'walked out of the talks']).

% ---- passes over groupings (never id by id) -------------------------------------------

% tk_tally(+Groups, +Kind, -Tallies): Actor-t(Kind, Count, FirstIds) for each Actor-Ids group.
tk_tally([], _, []).
tk_tally([A-Ids|Gs], Kind, [A-t(Kind, N, S)|Ts]) :- C =.. [n|Ids], functor(C, _, N), take(5, Ids, S), tk_tally(Gs, Kind, Ts).

% tk_member(-X, +List): each element of List, found by halving its index range (arg/3 on a term
% built by =..); the same answers, in the same order, as member/2.
tk_member(X, L) :- T =.. [l|L], functor(T, _, K), K > 0, tk_range(T, 1, K, X).
tk_range(T, I, I, X) :- arg(I, T, X).
tk_range(T, Lo, Hi, X) :- Lo < Hi, Mid is (Lo + Hi) // 2, ( tk_range(T, Lo, Mid, X) ; Mid1 is Mid + 1, tk_range(T, Mid1, Hi, X) ).

% tk_keys(+Groups, +Acc0, -Keys): the keys of Key-Value groups.
tk_keys([], Acc, Acc).
tk_keys([K-_|Gs], Acc0, Acc) :- tk_keys(Gs, [K|Acc0], Acc).

% ---- moves per actor ----------------------------------------------------------------

% tk_source(?Source, -Kind, -Groups): Actor-Ids groupings of the moves of each kind (offers are
% collaborating moves that also answer concessions; concessions are split per actor into
% compromising and accommodating). tk_sources/1 lists the sources.
tk_sources([demand, threat, red_line, offer, consult, reject_perpetrator, reject_participant, refusal, concession, shared_typed, shared_same]).

% (kept for the view, per source: the applicability test, the indicators and the records all read
% them; view_set/3 hands the groupings over without the copy out of a table each call would make)
tk_source(Source, Kind, Groups) :- view_set(tk_source(Source), tk_source_kind(Source), Kind-Groups).
tk_source_kind(Source, Kind-Groups) :- tk_source_of(Source, Kind, Groups).

% added_answer(tk_source(refusal), ...): the speakers of claims refusing talks grown with a write, where a write of a
% claim or an ASSERTS edge had them found again (49k inferences at 1M facts after an ingest-like write). A write only
% adds: a speaker's refusals only grow, and change only at an ASSERTS edge added from it (an end of an edge added:
% added_ends/2); each such group is found again from the speaker's own claims, as the model's growth reads it
% (tk_own_source/5), and put in place of its old one
added_answer(tk_source(refusal), Added, Kind-Groups0, Kind-Groups) :-
    added_ends(Added, Ends),
    findall(X-G, ( member(X, Ends), own_ends(X, 'ASSERTS', _, 'Claim', Cs), tk_own_source(refusal, X, Cs-[], Kind, G), G \== [] ), New),
    put_by_subject(Groups0, New, Groups).

tk_source_of(demand, competing, G) :- claims_by_actor('Demand', G).
tk_source_of(threat, competing, G) :- claims_by_actor('Threat', G).
tk_source_of(red_line, competing, G) :- claims_by_actor('RedLine', G).
tk_source_of(offer, offer, G) :- claims_by_actor('Offer', G).
tk_source_of(consult, collaborating, G) :- events_of_type('CONSULT', Es), participants(Es, G).
tk_source_of(reject_perpetrator, avoiding, G) :- events_of_type('REJECT', Es), perpetrators(Es, G).
tk_source_of(reject_participant, avoiding, G) :- events_of_type('REJECT', Es), group_by_edge(Es, 'PARTICIPATES_IN', in, participant, G).
tk_source_of(refusal, avoiding, G) :- keywords(tk_refusal_words, W), nodes_mentioning('Claim', W, Hits), speakers(Hits, G).
tk_source_of(concession, concession, G) :- claims_by_actor('Concession', G).
tk_source_of(shared_typed, collaborating, G) :- findall(TG, tk_shared_type_groups(TG), TGs), append(TGs, G).
tk_source_of(shared_same, collaborating, G) :- tk_shared_same_groups(G).

% tk_shared_type_groups(-Groups): Actor-Interests for an interest type held by two actors or
% more (one grouping per type); tk_shared_same_groups: an untyped interest two actors hold.
tk_shared_type_groups(G) :-
    interest_types(Types), member(T, Types),
    nodes_where('Interest', interest_type, T, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, G),
    G = [_, _|_].
tk_shared_same_groups(G) :-
    nodes_where('Interest', _, _, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, Holders),
    tk_keys(Holders, [], As), group_by_edge(As, 'HOLDS_INTEREST', out, _, ByInterest),
    findall(A-[I], (member(I-[H1, H2|Hs], ByInterest), \+ tk_typed(I), member(A, [H1, H2|Hs])), G).

tk_typed(I) :- prop(I, interest_type, T), T \== other.

% tk_tallies(+Flags, -ByActor): Actor-[t(Kind, Count, FirstIds)...], sorted by actor; an actor with
% concessions also has t(returned, yes or no, []) (Flags: tk_concession_flags/1).
tk_tallies(Flags, ByActor) :-
    findall(Ts, (tk_sources(Ss), member(S, Ss), tk_source(S, Kind, G), tk_tally(G, Kind, Ts)), Lists),
    append([Flags|Lists], All), msort(All, Sorted), group_pairs_by_key(Sorted, ByActor).

% tk_concession_flags(-Flags): A-t(returned, Y, []) for each actor with concessions: Y is yes when
% someone on its other side (its opponents; everyone else when it has none) made an Offer or a
% Concession. The concession groups and the opponents map, both sorted by actor, are walked
% together. Read by the records and by the concessions' check, so kept for the graph view (tk_model/1).
tk_concession_flags(Flags) :- tk_model(tkm(Flags, _, _, _)).

tk_concession_flags_(Flags) :-
    claims_by_actor('Concession', GC),
    (   GC == [] -> Flags = []
    ;   claims_by_actor('Offer', GO), tk_keys(GC, [], R1), tk_keys(GO, R1, R0), sort(R0, Reciprocators),
        trie_new(Trie), forall(member(R, Reciprocators), trie_insert(Trie, R)),
        tk_opponents(Opponents), findall(F, tk_recip(GC, Opponents, Reciprocators-Trie, F), [Flags])
    ).

tk_recip([], _, _, []).
tk_recip([A-_|Gs], Opp0, R-Trie, [A-t(returned, Y, [])|Fs]) :-
    tk_skip(Opp0, A, Opp),
    (   Opp = [A-Os|_] -> tk_intersect(Os, Trie, Y)
    ;   R = [B|Bs], (B \== A ; Bs = [_|_]) -> Y = yes
    ;   Y = no
    ),
    tk_recip(Gs, Opp, R-Trie, Fs).

tk_skip([K-_|T], A, Rest) :- K @< A, !, tk_skip(T, A, Rest).
tk_skip(L, _, L).

% tk_intersect(+Few, +Trie, -YesNo): whether one of the few (an actor's opponents) is in the trie of the
% many (the actors with offers or concessions, a thousand at 100k facts, ten thousand at 1M): a lookup
% each, where memberchk/2 scanned the many for each opponent of each actor (seconds at 1M facts)
tk_intersect(Few, Trie, Y) :- ( member(X, Few), trie_lookup(Trie, X, _) -> Y = yes ; Y = no ).

% tk_opponents(-Map): Actor-[Opponents], from OPPOSES edges and hostile claims and events: the
% library's hostile_partners/1, and an actor that OPPOSES itself among its own opponents.
tk_opponents(Map) :-
    hostile_partners(Partners), findall(X-X, edge(_, 'OPPOSES', X, X, _), Selves),
    (   Selves == [] -> Map = Partners
    ;   findall(A-B, (member(A-Bs, Partners), member(B, Bs)), L0), append(L0, Selves, L), sort(L, S), group_pairs_by_key(S, Map)
    ).

% tk_records(-Records): r(Actor, [Mode-c(Count, Samples)...], Mode) for each actor with moves:
% the five modes in tie-break order (Samples: lists of the ids cited) and the dominant mode.
tk_records(Records) :- tk_model(tkm(_, Records, _, _)).

% ranks(-Table): the candidates of rank/3 as a ranking table (lib/conflict.pl rank_table/2), kept in the model and grown
% with its records, so that the ranking after a write no longer scores every record again (211k inferences at 1M facts
% after an ingest-like write)
ranks(Table) :- tk_model(tkm(_, _, Table, _)).

% tk_model(-tkm(Flags, Records, Ranks, Cited)): the concession flags, the records, their ranking table and the ids the
% records' modes cite (lib/conflict.pl cited_counts/3), computed once per graph view and kept together (view_set/3: read
% without the copy a table makes, some 17 ms at 100k facts), so that a write grows them all (added_parts/4 below)
tk_model(Model) :- view_set(tk_model, tk_model_, Model).
tk_model_(tkm(Flags, Records, Ranks, Cited)) :-
    tk_concession_flags_(Flags), tk_tallies(Flags, ByActor),
    findall(R, ( member(A-Ts, ByActor), tk_record(A, Ts, R) ), Records),
    tk_scored(Records, Scored), rank_entries(Scored, Ranks), cited_counts(tk_cites, Records, Cited).

% tk_cites(+Record, -Ids): each list of ids a record cites as samples of its mode (strength/3's evidence: lib/conflict.pl
% cited_counts/3)
tk_cites(r(_, Lists, Mode), Ids) :- memberchk(Mode-c(_, Samples), Lists), member(Ids, Samples).

% tk_scored(+Records, -Scored): the Key-Subject-Score candidates of the records (rank/3's)
tk_scored(Records, Scored) :- findall(mode-A-N, ( member(R, Records), tk_rank(R, A, N) ), Scored).

% tk_record(+Actor, +Tallies, -Record): the actor's record from its tallies (sorted)
tk_record(A, Ts, r(A, Lists, Mode)) :-
    tk_acc(Ts, k(c(0, []), c(0, []), c(0, []), c(0, []), no), K), tk_lists(K, Lists), tk_best(Lists, Mode).

% added_parts(+Key, +Added, +Answer, -Puts): the flags and records grown with a write (lib/graph.pl grown/3), where a
% write of a claim or an event had them found again whole. The flag and the record of each node whose moves or
% opponents the write may have changed (added_sides/2), and of each opponent of a node that now makes its first
% Offer or Concession, are found again from their own edges and put in place of their old ones. A write of a
% HOLDS_INTEREST edge has them found again whole (the interests shared change the records of other holders), and so
% has a first Offer or Concession while fewer than two actors conceded before, or a flag that would need the
% reciprocators of the whole view (an actor with no opponents, when no other actor conceded before or in the write).
% The model is kept in parts (parted_answer/2, lib/graph.pl: its three lists, the flags and the records by actor, the
% ranking table by Key-Subject as ranks_put/3 merges it), its old records read whole only where those checks need them.
parted_answer(tk_model, [1-1, 2-1, 3-4, 4-1]).
added_parts(tk_model, Added, Model0, [1-NewFlags, 2-NewRecords, 3-NewRanks, 4-CitedPuts]) :-
    Added = added(_, _, Flat), edges_added(Flat, Edges), \+ memberchk(e('HOLDS_INTEREST', _, _), Edges),
    findall(O, ( member(e('ASSERTS', O, C), Edges), claim(C, T), tk_reciprocation_type(T), \+ tk_was_reciprocator(O, Edges) ), R0),
    sort(R0, NewReciprocators),
    ( NewReciprocators == [] -> true ; arg(2, Model0, Held), kept_list(Held, Records0), tk_two_conceded(Records0) ),
    added_sides(Added, Sides),
    findall(X, ( member(O, NewReciprocators), own_opponents(O, Os), member(X, Os) ), Others),
    append(Sides, Others, Touched0), sort(Touched0, Touched),
    findall(X-Y, ( member(X, Touched), own_claims(X, 'Concession', [_|_]), tk_own_flag(X, NewReciprocators, Y) ), OwnFlags),
    % the old records read whole (a copy of every part) once for all the flags that need them, unless the check of the
    % new reciprocators above read them already
    ( NewReciprocators == [], memberchk(_-conceded_before, OwnFlags) -> arg(2, Model0, Held), kept_list(Held, Records0) ; true ),
    maplist(tk_flag_returned(Records0), OwnFlags, NewFlags),
    \+ memberchk(_-t(returned, unknown, []), NewFlags),
    findall(R, ( member(X, Touched), tk_own_tallies(X, NewFlags, Ts), Ts \== [], tk_record(X, Ts, R) ), NewRecords),
    % a record's one candidate (its mode) takes the place of its old one
    tk_scored(NewRecords, Scored), rank_entries(Scored, NewRanks),
    arg(2, Model0, HeldRecords), arg(4, Model0, HeldCited),
    cited_moved(tk_cites, 1, NewRecords, HeldRecords, HeldCited, CitedPuts, Gone, Came),
    note_evidence_moved(tk_modes, Gone, Came).

tk_reciprocation_type('Offer').
tk_reciprocation_type('Concession').

% tk_was_reciprocator(+O, +Edges): O asserts an Offer or Concession by an edge not among Edges (the write's);
% tk_reciprocator(+O): by any edge
tk_was_reciprocator(O, Edges) :- edge(_, 'ASSERTS', O, C, _), claim(C, T), tk_reciprocation_type(T), \+ memberchk(e('ASSERTS', O, C), Edges), !.
tk_reciprocator(O) :- tk_was_reciprocator(O, []).

% tk_two_conceded(+Records): two actors had concessions (each of them a reciprocator for every other actor)
tk_two_conceded(Records) :- once(( member(r(A, LA, _), Records), tk_conceded(LA), member(r(B, LB, _), Records), B \== A, tk_conceded(LB) )).
tk_conceded(Lists) :- member(M-c(N, _), Lists), memberchk(M, [compromising, accommodating]), N > 0, !.

% tk_own_flag(+X, +NewReciprocators, -YesNo): X's flag as tk_concession_flags_/1 finds it, read from its own edges and
% its opponents'; conceded_before when X has no opponent and no other actor makes a first move of reciprocation in
% the write: whether another actor conceded before tells (the model's old records: tk_flag_returned/3)
tk_own_flag(X, NewReciprocators, Y) :-
    own_opponents(X, Os0), ( edge(_, 'OPPOSES', X, X, _) -> ord_add_element(Os0, X, Os) ; Os = Os0 ),
    (   Os \== [] -> ( member(O, Os), tk_reciprocator(O) -> Y = yes ; Y = no )
    ;   member(O, NewReciprocators), O \== X -> Y = yes
    ;   Y = conceded_before
    ).

% tk_flag_returned(+Records0, +X-YesNo, -X-Flag): X's flag entry; a conceded_before flag yes when another actor
% conceded in the old records Records0, unknown when none did (the reciprocators of the whole view would tell)
tk_flag_returned(Records0, X-Y0, X-t(returned, Y, [])) :-
    (   Y0 \== conceded_before -> Y = Y0
    ;   member(r(A, L, _), Records0), A \== X, tk_conceded(L) -> Y = yes
    ;   Y = unknown
    ).

% tk_own_tallies(+X, +Flags, -Tallies): X's tallies in tk_tallies/2 (sorted), read from its own edges (the claims it
% asserts and the events it takes part in read once for all the sources)
tk_own_tallies(X, Flags, Tallies) :-
    own_ends(X, 'ASSERTS', _, 'Claim', Cs), own_ends(X, 'PARTICIPATES_IN', _, 'Event', Es),
    findall(X-T, ( tk_sources(Ss), member(S, Ss), tk_own_source(S, X, Cs-Es, Kind, Ids), Ids \== [], tk_tally([X-Ids], Kind, [X-T]) ), L0),
    ( memberchk(X-F, Flags) -> L = [X-F | L0] ; L = L0 ), msort(L, Sorted), pairs_values(Sorted, Tallies).

% tk_own_source(+Source, +X, +Claims-Events, -Kind, -Ids): X's group in tk_source(Source, Kind, Groups), from the claims
% X asserts and the events it takes part in (one group for each type of interest it shares, one for each untyped
% interest it shares)
tk_own_source(demand, _, Cs-_, competing, G) :- filter_ids(Cs, prop(type, 'Demand'), G).
tk_own_source(threat, _, Cs-_, competing, G) :- filter_ids(Cs, prop(type, 'Threat'), G).
tk_own_source(red_line, _, Cs-_, competing, G) :- filter_ids(Cs, prop(type, 'RedLine'), G).
tk_own_source(offer, _, Cs-_, offer, G) :- filter_ids(Cs, prop(type, 'Offer'), G).
tk_own_source(consult, _, _-Es, collaborating, G) :- filter_ids(Es, prop(event_type, 'CONSULT'), G).
tk_own_source(reject_perpetrator, X, _-[_|_], avoiding, G) :- own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', Es), filter_ids(Es, prop(event_type, 'REJECT'), G).
tk_own_source(reject_participant, X, _-[_|_], avoiding, G) :- own_ends(X, 'PARTICIPATES_IN', participant, 'Event', Es), filter_ids(Es, prop(event_type, 'REJECT'), G).
tk_own_source(refusal, _, Cs-_, avoiding, G) :- keywords(tk_refusal_words, W), own_mentioning(Cs, W, G).
tk_own_source(concession, _, Cs-_, concession, G) :- filter_ids(Cs, prop(type, 'Concession'), G).
tk_own_source(shared_typed, X, _, collaborating, G) :-
    own_ends(X, 'HOLDS_INTEREST', _, 'Interest', Is), Is \== [], interest_types(Types), member(T, Types),
    filter_ids(Is, prop(interest_type, T), G), G \== [],
    nodes_where('Interest', interest_type, T, All), once(( member(I, All), edge(_, 'HOLDS_INTEREST', H, I, _), H \== X )).
tk_own_source(shared_same, X, _, collaborating, [I]) :-
    tk_interest_holder(X), group_by_edge([X], 'HOLDS_INTEREST', out, _, G), member(I-_, G), \+ tk_typed(I),
    once(( edge(_, 'HOLDS_INTEREST', H, I, _), H \== X, tk_interest_holder(H) )).

% tk_interest_holder(+X): X holds an Interest (a key of tk_shared_same_groups/1's Holders)
tk_interest_holder(X) :- edge(_, 'HOLDS_INTEREST', X, I, _), node(I, 'Interest'), !.

% tk_acc(+Tallies, +K0, -K): one pass over an actor's tallies, summing the counts of each kind.
tk_acc([], K, K).
tk_acc([t(Kind, N, S)|Ts], K0, K) :- tk_add(Kind, N, S, K0, K1), tk_acc(Ts, K1, K).

tk_add(competing, N, S, k(c(N0, S0), B, C, D, R), k(c(N1, [S|S0]), B, C, D, R)) :- N1 is N0 + N.
tk_add(offer, N, S, k(A, c(N0, S0), C, D, R), k(A, c(N1, [S|S0]), C, D, R)) :- N1 is N0 + N.
tk_add(collaborating, N, S, k(A, c(N0, S0), C, D, R), k(A, c(N1, [S|S0]), C, D, R)) :- N1 is N0 + N.
tk_add(avoiding, N, S, k(A, B, c(N0, S0), D, R), k(A, B, c(N1, [S|S0]), D, R)) :- N1 is N0 + N.
tk_add(concession, N, S, k(A, B, C, c(N0, S0), R), k(A, B, C, c(N1, [S|S0]), R)) :- N1 is N0 + N.
tk_add(returned, Y, _, k(A, B, C, D, _), k(A, B, C, D, Y)).

% tk_lists(+k(Competing, Collaborating, Avoiding, Concessions, Returned), -Lists): concessions are
% compromising when returned, accommodating when not.
tk_lists(k(Cmp, Col, Avo, Conc, Returned),
         [competing-Cmp, collaborating-Col, compromising-Comp, avoiding-Avo, accommodating-Acc]) :-
    (   Conc = c(0, _) -> Comp = c(0, []), Acc = c(0, [])
    ;   Returned == yes -> Comp = Conc, Acc = c(0, [])
    ;   Comp = c(0, []), Acc = Conc
    ).

% tk_best(+Lists, -Mode): the mode with the most moves, the first in order on a tie.
tk_best([M1-c(N1, _), M2-c(N2, _), M3-c(N3, _), M4-c(N4, _), M5-c(N5, _)], Mode) :-
    Max is max(N1, max(N2, max(N3, max(N4, N5)))), Max > 0,
    (   N1 =:= Max -> Mode = M1 ; N2 =:= Max -> Mode = M2 ; N3 =:= Max -> Mode = M3
    ;   N4 =:= Max -> Mode = M4 ; Mode = M5 ).

tk_counts(Lists, Text) :-
    findall(Part, (member(M-c(N, _), Lists), atomic_list_concat([M, ' ', N], Part)), Parts),
    atomic_list_concat(Parts, ', ', Text).

tk_mode_text(competing, 'competing (assertive and uncooperative): its demands, threats and red lines outweigh its other moves').
tk_mode_text(collaborating, 'collaborating (assertive and cooperative): offers, talks and interests it shares with others lead its moves').
tk_mode_text(compromising, 'compromising: it makes concessions, and the other side answers with offers or concessions of its own').
tk_mode_text(avoiding, 'avoiding (unassertive and uncooperative): it rejects or refuses talks more than it does anything else').
tk_mode_text(accommodating, 'accommodating (unassertive and cooperative): it makes concessions the other side has not returned').

% ---- query-callable ------------------------------------------------------------------

% competing(?A): A's dominant conflict mode is competing (WHERE competing(a)).
competing(A) :- tk_records(Records), tk_member(r(A, _, competing), Records).

% tk_mode(?A, ?Mode): A's dominant conflict mode.
tk_mode(A, Mode) :- tk_records(Records), tk_member(r(A, _, Mode), Records).

% ---- findings ------------------------------------------------------------------------

% per actor, ranked by the moves of its mode: a run keeps its findings limit of them (kept/2)
rank(mode, A, N) :- tk_records(Records), tk_member(R, Records), tk_rank(R, A, N).
tk_rank(r(A, Lists, Mode), A, N) :- member(Mode-c(N, _), Lists).

finding(mode, [A, Mode], Sentence, [A | Ids], [Indicator, 'an actor''s mode is the one with the most moves; ties go in the order competing, collaborating, compromising, avoiding, accommodating']) :-
    tk_records(Records), kept_member(mode, A, r(A, Lists, Mode), Records), member(Mode-c(_, Samples), Lists),
    append(Samples, Ids0), sort(Ids0, Ids),
    tk_indicator_mode(Indicator, Mode), tk_mode_text(Mode, Text), tk_counts(Lists, Counts),
    join([[A], ' is ', Text, ' (moves: ', Counts, ').'], Sentence).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% the styles are the reading when the sides handle the conflict differently (one competes, the
% other yields or avoids); one style for all is a weak reading
% (the evidence, the ids the records' modes cite, is kept in the model with the times they cite each: cited_counts/3)
strength(modes-N, Score, Ids) :-
    tk_model(tkm(_, Records, _, Cited)), Records = [_|_],
    findall(M, member(r(_, _, M), Records), M0), sort(M0, Modes), length(Modes, N),
    pairs_keys(Cited, Ids),
    ( N >= 2 -> W = 0.8 ; W = 0.45 ), reading_strength(W, Ids, Score).
