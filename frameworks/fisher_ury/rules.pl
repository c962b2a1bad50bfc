% Fisher & Ury, Getting to Yes (1981): principled negotiation. Focus on interests,
% not positions; invent options for mutual gain; insist on objective criteria; know
% your best alternative to a negotiated agreement (BATNA).
%   positions: Demand and RedLine claims
%   interests: HOLDS_INTEREST edges (held) and Justification claims (the reasons a
%              party states for its stance)
%   positional bargaining: positions many, interests few
%   shared interests: two actors who are not on the same side hold interests of the
%              same interest_type (or the same Interest node): where agreement may lie
%   BATNA (kept simple): alternatives an actor has without agreement (allies, its own
%              sanctions, coercion, violence, mobilisation) against the pressure on it
%
% Shape: per-actor figures come from Actor-Ids groupings made in one step by set predicates
% (claims_by_actor, group_by_edge, perpetrators, targets) and passed over once, so that the cost
% grows with the number of actors and interests rather than with every claim and event;
% count_ids/2 counts a list; evidence cites the first ids of
% each list.

:- module(fisher_ury, [indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, ranks/1, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no positions and no interests: neither Demand or RedLine claims nor interests held (HOLDS_INTEREST) or stated (Justification claims), so there is no negotiation to read') :-
    claims_of_type('Demand', []), claims_of_type('RedLine', []), claims_of_type('Justification', []),
    fu_holders([]).

% ---- indicators -------------------------------------------------------------

indicator(positions, 1, 'positions stated (Demand and RedLine claims)').
indicator(red_lines, 0.5, 'positions declared non-negotiable (RedLine claims)').
indicator(interests_stated, 1, 'interests held or stated (HOLDS_INTEREST edges, Justification claims)').
indicator(shared_interests, 1, 'actors who are not allies hold interests of the same type (HOLDS_INTEREST to Interest nodes with the same interest_type, or to the same Interest)').
indicator(options, 1, 'options for mutual gain put forward (Offer and Concession claims)').
indicator(objective_criteria, 0.5, 'claims appealing to objective criteria (fairness, precedent, independent or expert standards, international law)').
indicator(talks, 0.5, 'the parties negotiate (CONSULT events)').
indicator(alternatives, 0.5, 'what negotiating actors can do without agreement: allies (ALLIED_WITH) and their own SANCTION, COERCE, ASSAULT or MOBILIZE events, against the SANCTION, COERCE and ASSAULT events aimed at them').

present(positions, Ids) :- claims_of_type('Demand', D), claims_of_type('RedLine', R), fu_cite([D, R], Ids), nonempty(Ids).
present(red_lines, Ids) :- claims_of_type('RedLine', R), fu_cite([R], Ids), nonempty(Ids).
present(interests_stated, Ids) :- fu_interest_evidence(Ids), nonempty(Ids).
present(shared_interests, Ids) :-
    fu_shared(Shared), take(5, Shared, First),
    findall(I, (member(s(_, _, _, Is, _), First), member(I, Is)), L), sort(L, Ids), nonempty(Ids).
present(options, Ids) :- claims_of_type('Offer', O), claims_of_type('Concession', C), fu_cite([O, C], Ids), nonempty(Ids).
present(objective_criteria, Ids) :-
    keywords(fu_criteria_words, Words), nodes_mentioning('Claim', Words, Hits), fu_cite([Hits], Ids), nonempty(Ids).
present(talks, Ids) :- events_of_type('CONSULT', Es), fu_cite([Es], Ids), nonempty(Ids).
present(alternatives, Ids) :-
    fu_batna_records(Records), take(5, Records, First),
    findall(Id, (member(b(_, _, _, Alt, Press, _), First), (member(Id, Alt) ; member(Id, Press))), L),
    sort(L, Ids), nonempty(Ids).

keywords(fu_criteria_words, [' fair', 'fairness', 'unfair', 'precedent', 'independent', 'objective', 'criteria', 'standard', 'market value', 'international law', 'expert', 'scientific', 'impartial', 'benchmark']).

% ---- list tools that never walk a list id by id ------------------------------------

% fu_cite(+Lists, -Ids): the first ten ids of each list, sorted (evidence to cite).
fu_cite(Lists, Ids) :- findall(P, (member(L, Lists), take(10, L, P)), Ps), append(Ps, L0), sort(L0, Ids).

% fu_tally(+Groups, +Tag, -Tallies): Actor-t(Tag, Count, FirstIds) for each Actor-Ids group.
fu_tally([], _, []).
fu_tally([A-Ids|Gs], Tag, [A-t(Tag, N, S)|Ts]) :- count_ids(Ids, N), take(5, Ids, S), fu_tally(Gs, Tag, Ts).

% fu_sum(+Groups, +N0, -N): the number of ids in Actor-Ids groups.
fu_sum([], N, N).
fu_sum([_-L|Gs], N0, N) :- count_ids(L, K), N1 is N0 + K, fu_sum(Gs, N1, N).

% ---- the sets it reads -------------------------------------------------------------

% fu_holders(-Groups): Actor-[Interests] for the interests actors hold (HOLDS_INTEREST).
fu_holders(G) :- nodes_where('Interest', _, _, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, G).

% fu_interest_evidence(-Ids): the first interests held and Justification claims.
fu_interest_evidence(Ids) :-
    fu_holders(HG), take(5, HG, HG5), findall(F, (member(_-Is, HG5), take(5, Is, F)), Fs),
    claims_of_type('Justification', J), take(10, J, JP), append([JP|Fs], L), sort(L, Ids).

% ---- positional bargaining ----------------------------------------------------------

% fu_positional(-Value, -Evidence, -Because, -Sentence)
fu_positional(Value, Evidence, Because, Sentence) :-
    claims_of_type('Demand', D), claims_of_type('RedLine', R), count_ids(D, ND), count_ids(R, NR), NP is ND + NR,
    fu_holders(HG), fu_sum(HG, 0, NH), claims_of_type('Justification', J), count_ids(J, NJ), NI is NH + NJ,
    (   NP >= 2, NP >= 2 * NI
    ->  Value = yes, fu_cite([D, R], Evidence),
        Because = [positions, 'positional bargaining holds when Demand and RedLine claims number at least two and at least twice the interests held or stated'],
        join(['The parties bargain over positions: ', NP, ' demands and red lines against ', NI,
              ' interests held or stated. Fisher and Ury advise looking behind each position for the interests that drive it.'], Sentence)
    ;   NI > 0
    ->  Value = no, fu_interest_evidence(IIds), fu_cite([D, R], PIds), append(IIds, PIds, E0), sort(E0, Evidence),
        Because = [interests_stated, 'no positional bargaining when interests held or stated are at least half as many as the demands and red lines'],
        join(['Interests are on the table: ', NI, ' interests held or stated against ', NP,
              ' demands and red lines, so the parties are not locked in positional bargaining.'], Sentence)
    ;   Value = no, fu_cite([D, R], Evidence),
        Because = [positions, 'a single demand or red line is too little to speak of positional bargaining'],
        join(['Only one demand or red line and no interest are stated: too little to speak of positional bargaining.'], Sentence)
    ).

% ---- interests ----------------------------------------------------------------------

% fu_interest_answers(-Held-Stated): h(A, I, Type) per interest held, s(A, C) per Justification claim, each list sorted.
% Kept for the view with view_set/3 (as fu_shared/1 and fu_batna_records/1): the ranking and the findings read them.
fu_interest_answers(Answers) :- view_set(fu_interest_answers, fu_compute_interests, Answers).

fu_compute_interests(Hs-Ss) :-
    fu_holders(HG), fu_holdings(HG, Hs),
    claims_by_actor('Justification', JG), fu_stated(JG, Ss).

% added_parts(fu_interest_answers, +Added, +Answers, -Puts): the answers of each node a write touched (added_ends/2),
% read from its own HOLDS_INTEREST edges and Justification claims, merged into those held (a write only adds, so an
% actor's answers only grow, and an answer found again is the one held). Found again whole after every write of an
% ASSERTS edge before (71k inferences at 1M facts). Kept in parts (parted_answer/2, lib/graph.pl), each list by its
% entries' first two arguments (an actor and its interest or claim, each pair once: their standard order), so that a
% write stores the parts of the actors it touched, not both lists whole.
parted_answer(fu_interest_answers, [1-(1-2), 2-(1-2)]).
added_parts(fu_interest_answers, Added, _, [1-Hs, 2-Ss]) :- fu_touched_interests(Added, Hs, Ss).

% fu_touched_interests(+Added, -Held, -Stated): the answers of fu_interest_answers/1 of the nodes a write touched; read
% once a write for the answers and the ranking table both (write_memo/3), as fu_touched_shared/2 and fu_touched_batna/2
fu_touched_interests(Added, Hs, Ss) :-
    added_ends(Added, Touched), write_memo(fu_touched_interests, Hs-Ss, fu_touched_interests_(Touched, Hs-Ss)).
fu_touched_interests_(Touched, Hs-Ss) :-
    findall(X-Is, ( member(X, Touched), own_ends(X, 'HOLDS_INTEREST', _, 'Interest', Is), Is \== [] ), HG), fu_holdings(HG, Hs),
    findall(X-Cs, ( member(X, Touched), own_claims(X, 'Justification', Cs), Cs \== [] ), JG), fu_stated(JG, Ss).

fu_holdings([], []).
fu_holdings([A-Is|Gs], Hs) :- fu_holdings_of(A, Is, Hs, Rest), fu_holdings(Gs, Rest).
fu_holdings_of(_, [], Rest, Rest).
fu_holdings_of(A, [I|Is], [h(A, I, T)|Hs], Rest) :- interest_type_of(I, T), fu_holdings_of(A, Is, Hs, Rest).

fu_stated([], []).
fu_stated([A-Cs|Gs], Ss) :- fu_stated_of(A, Cs, Ss, Rest), fu_stated(Gs, Rest).
fu_stated_of(_, [], Rest, Rest).
fu_stated_of(A, [C|Cs], [s(A, C)|Ss], Rest) :- fu_stated_of(A, Cs, Ss, Rest).

% ---- shared interests ----------------------------------------------------------------

% fu_shared(-Shared): s(A, B, Type, Interests, Hostility) once per pair (A @< B) and interest
% type: both hold an interest of Type (untyped interests: the same Interest node), sorted. When the
% graph shows hostility between any two actors, only pairs that stand against each other are kept
% (opposing parties are where agreement matters); otherwise every pair that is not allied.
% Hostility is the first ids that show it (none for a pair that is not hostile).
fu_shared(Shared) :- view_set(fu_shared, fu_compute_shared, Shared).

fu_compute_shared(Shared) :-
    (   hostile_actor_pairs([]), \+ edge(_, 'OPPOSES', _, _, _)
    ->  findall(k(A, B, T)-Is, fu_pair(A, B, T, Is), P0), msort(P0, P1), group_pairs_by_key(P1, Pairs),
        findall(s(A, B, T, Is, []), ( member(k(A, B, T)-Iss, Pairs), \+ allied(A, B), append(Iss, Is0), sort(Is0, Is) ), Shared)
    ;   % the opposing pairs both of whose sides hold interests, read from each holder's opponents
        fu_keyed_holders(KG), hostile_pairs_among(KG, Both),
        findall(s(A, B, T, Is, Hostility),
                ( member(p(A, B, KA, KB), Both), fu_common(KA, KB, Common), Common \== [],
                  fu_pair_hostility(A, B, Hostility), member(T-Is, Common) ),
                Shared)
    ).

% fu_pair(-A, -B, -Type, -Interests): a pair of holders of one interest type, or of one untyped interest.
fu_pair(A, B, T, Is) :-
    interest_types(Types), member(T, Types),
    nodes_where('Interest', interest_type, T, TIs), group_by_edge(TIs, 'HOLDS_INTEREST', in, _, G), G = [_, _|_],
    member(A-IA, G), member(B-IB, G), A @< B, append(IA, IB, Is).
fu_pair(A, B, other, [I]) :-
    fu_holders(HG), findall(X, member(X-_, HG), As), group_by_edge(As, 'HOLDS_INTEREST', out, _, ByInterest),
    member(I-[H1, H2|Hs], ByInterest), fu_untyped(I),
    member(A, [H1, H2|Hs]), member(B, [H1, H2|Hs]), A @< B.

% an interest without a type of its own (none, or other): shared only as the same node
fu_untyped(I) :- \+ (prop(I, interest_type, T), T \== other).

% fu_common(+KeyedA, +KeyedB, -Common): Type-Interests for each interest type both hold (the
% interests of that type of either), and other-Interests for the untyped interests both hold, by type
% (KeyedA and KeyedB are k(Keys, Keyed) of fu_keyed_holders/1: most pairs share no key, and fail at the
% intersection of keys read once per holder)
fu_common(k(KsA, KA), k(KsB, KB), Common) :-
    ord_intersection(KsA, KsB, Ks), Ks \== [],
    findall(T-Is, ( member(T, Ks), atom(T), findall(I, ( member(T-I, KA) ; member(T-I, KB) ), Is0), sort(Is0, Is) ), Typed),
    findall(I, member(u(I), Ks), Same),
    ( Same == [] -> Untyped = [] ; Untyped = [other-Same] ),
    append(Typed, Untyped, Common0), msort(Common0, Common).

fu_keys(Keyed, Keys) :- findall(K, member(K-_, Keyed), Ks), sort(Ks, Keys).

% fu_keyed_holders(-Groups): Actor-k(Keys, Keyed) for each holder, Keyed being Key-Interest, Key the
% interest's type, or u(Interest) for an untyped one (shared only as the same node), and Keys its keys
fu_keyed_holders(Groups) :-
    fu_holders(HG), interest_types(Types),
    findall(A-Keyed, ( member(A-Is, HG), fu_keyed(Is, Types, Keyed) ), Groups).

% fu_keyed(+Interests, +Types, -Keyed): k(Keys, Keyed) of a holder of Interests
fu_keyed(Is, Types, k(Keys, Keyed)) :- findall(K-I, ( member(I, Is), fu_share_key(I, Types, K) ), Keyed), fu_keys(Keyed, Keys).

fu_share_key(I, Types, K) :- prop(I, interest_type, T), memberchk(T, Types), !, K = T.
fu_share_key(I, _, u(I)) :- fu_untyped(I).

% fu_pair_hostility(+A, +B, -First): the first ids (sorted) that show A and B against each other,
% either way: OPPOSES edges, Threat, Accusation, Demand and RedLine claims one asserts aimed at the
% other, ASSAULT, COERCE, THREATEN, SANCTION and ACCUSE events one perpetrates with the other as target
fu_pair_hostility(A, B, First) :-
    findall(Id, ( opposes(A, B, Id) ; member(X-Y, [A-B, B-A]), fu_hostile_act(X, Y, Id) ), L), sort(L, Ids), take(5, Ids, First).

fu_hostile_act(X, Y, C) :-
    claim_target(C, Y), prop(C, type, T), once(hostile_claim_type(T)), asserts(X, C).
fu_hostile_act(X, Y, E) :-
    edge(P, 'PARTICIPATES_IN', Y, E, _), prop(E, event_type, T), once(hostile_event_type(T)),
    participation_role(P, target), participant(E, X, perpetrator).

% added_answer(fu_shared, +Added, +Shared, -Grown): the common ground of each pair with a side among added_ends/2 found
% again, from each such side's own interests and opponents (own_ends/5, own_opponents/2), and put in place of the old;
% a pair whose sides a write touches by no edge keeps its interests, its hostility and its standing as opponents (each
% read from an edge at one side: an OPPOSES edge, a hostile claim's ASSERTS and TARGETS, a hostile event's two
% participations). Only over a hostile graph (an answer with hostility), which a write leaves hostile: over one without,
% a write may add the first hostility, which has fu_compute_shared/1 keep opposing pairs instead of pairs not allied.
% Found again whole after every write of a claim or an event before (919k inferences at 1M facts).
added_answer(fu_shared, Added, Shared, Grown) :-
    fu_hostile(Shared),
    added_ends(Added, Touched),
    exclude(fu_shared_at(Touched), Shared, Kept),
    fu_touched_shared(Added, New),
    append(New, Kept, All), sort(All, Grown).

% fu_hostile(+Shared): the common ground is read over a hostile graph (an entry has hostility), so a write may grow it
fu_hostile(Shared) :- memberchk(s(_, _, _, _, [_|_]), Shared).

% fu_touched_shared(+Added, -Shared): the entries of fu_shared/1 of the pairs with a side among added_ends/2 (write_memo/3)
fu_touched_shared(Added, New) :-
    added_ends(Added, Touched), write_memo(fu_touched_shared, New, findall(S, ( member(X, Touched), fu_own_shared(X, S) ), New)).

fu_shared_at(Touched, s(A, B, _, _, _)) :- ( memberchk(A, Touched) -> true ; memberchk(B, Touched) ).

% fu_own_shared(+X, -Shared): an entry of fu_shared/1 of a pair of X and an opponent of X, both holders
fu_own_shared(X, s(A, B, T, Is, Hostility)) :-
    interest_types(Types), fu_own_keyed(X, Types, KX), own_opponents(X, Opponents),
    member(Y, Opponents), fu_own_keyed(Y, Types, KY),
    ( X @< Y -> A-B = X-Y, KA-KB = KX-KY ; A-B = Y-X, KA-KB = KY-KX ),
    fu_common(KA, KB, Common), Common \== [], fu_pair_hostility(A, B, Hostility), member(T-Is, Common).

fu_own_keyed(X, Types, Keyed) :- own_ends(X, 'HOLDS_INTEREST', _, 'Interest', Is), Is \== [], fu_keyed(Is, Types, Keyed).

fu_type_text(other, 'the same interest') :- !.
fu_type_text(T, Text) :- atomic_list_concat([T, ' interests'], Text).

% ---- BATNA ------------------------------------------------------------------------

% fu_batna_records(-Records): b(A, NAlt, NPress, AltIds, PressIds, NegIds) for each actor that
% states a position or holds or states an interest (it negotiates). Alternatives: its alliances
% and the sanctions, coercion, attacks and mobilisations it perpetrates; pressure: the
% sanctions, coercion and attacks aimed at it.
fu_batna_records(Records) :- view_set(fu_batna_records, fu_compute_batna, Records).

fu_compute_batna(Records) :-
    findall(Ts, (fu_batna_source(Tag, G), fu_tally(G, Tag, Ts)), Lists),
    findall(A-t(alt, 1, [E]), allied(A, _, E), Allies),
    append([Allies|Lists], All), msort(All, Sorted), group_pairs_by_key(Sorted, ByActor),
    findall(R, ( member(A-Ts, ByActor), fu_batna_record(A, Ts, R) ), Records).

% fu_batna_record(+A, +Tallies, -Record): A's record from its tallies (sorted), none when it states no position or interest
fu_batna_record(A, Ts, b(A, NA, NP, Alt, Press, Neg)) :-
    fu_batna_acc(Ts, 0, NA, [], AltL, 0, NP, [], PressL, [], NegL),
    NegL \== [], append(AltL, Alt0), sort(Alt0, Alt), append(PressL, Press0), sort(Press0, Press),
    append(NegL, Neg0), sort(Neg0, Neg).

% added_parts(+Key, +Added, +Answer, -Puts): the records with the records a write added (lib/graph.pl grown/3): the
% record of each node the write added or an edge added ends at (added_ends/2), found again from its own edges
% (fu_own_batna_source/3), to put in place of its old one (as put_by_subject/3 would), where a write of a claim or an
% event had every record found again from every grouping. Kept in parts by actor (parted_answer/2, lib/graph.pl).
parted_answer(fu_batna_records, list(1)).
added_parts(fu_batna_records, Added, _, New) :- fu_touched_batna(Added, New).

% fu_touched_batna(+Added, -Records): the records of fu_batna_records/1 of the nodes a write touched (write_memo/3)
fu_touched_batna(Added, New) :-
    added_ends(Added, Touched), write_memo(fu_touched_batna, New, findall(R, ( member(X, Touched), fu_own_batna_record(X, R) ), New)).

fu_own_batna_record(X, Record) :-
    findall(Ts, ( fu_own_batna_source(X, Tag, G), fu_tally(G, Tag, Ts) ), Lists),
    findall(X-t(alt, 1, [E]), allied(X, _, E), Allies),
    append([Allies|Lists], All), msort(All, Sorted), pairs_values(Sorted, Ts), fu_batna_record(X, Ts, Record).

% fu_own_batna_source(+X, ?Tag, -Groups): X's groups (X-Ids) in each fu_batna_source/2 grouping, read from X's own edges
fu_own_batna_source(X, neg, [X-Cs]) :-
    fu_position_claim_type(T), own_claims(X, T, Cs), Cs \== [].
fu_own_batna_source(X, neg, [X-Is]) :- own_ends(X, 'HOLDS_INTEREST', _, 'Interest', Is), Is \== [].
fu_own_batna_source(X, alt, [X-Es]) :-
    own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', Es0), fu_alternative_event_type(T), filter_ids(Es0, prop(event_type, T), Es), Es \== [].
fu_own_batna_source(X, press, [X-Es]) :-
    own_ends(X, 'PARTICIPATES_IN', target, 'Event', Es0), fu_pressure_event_type(T), filter_ids(Es0, prop(event_type, T), Es), Es \== [].

fu_batna_source(neg, G) :- fu_position_claim_type(T), claims_by_actor(T, G).
fu_batna_source(neg, G) :- fu_holders(G).
fu_batna_source(alt, G) :- fu_alternative_event_type(T), events_of_type(T, Es), perpetrators(Es, G).
fu_batna_source(press, G) :- fu_pressure_event_type(T), events_of_type(T, Es), targets(Es, G).

% The types each grouping reads, one list for fu_batna_source/2 and its growth (fu_own_batna_source/3) both: the
% claims that state a position, the events an actor's alternatives are made of, the events that press on their target
fu_position_claim_type(T) :- member(T, ['Demand', 'RedLine', 'Justification']).
fu_alternative_event_type(T) :- member(T, ['SANCTION', 'COERCE', 'ASSAULT', 'MOBILIZE']).
fu_pressure_event_type(T) :- member(T, ['SANCTION', 'COERCE', 'ASSAULT']).

fu_batna_acc([], NA, NA, AL, AL, NP, NP, PL, PL, NL, NL).
fu_batna_acc([t(Tag, N, S)|Ts], NA0, NA, AL0, AL, NP0, NP, PL0, PL, NL0, NL) :-
    (   Tag == alt -> NA1 is NA0 + N, AL1 = [S|AL0], NP1 = NP0, PL1 = PL0, NL1 = NL0
    ;   Tag == press -> NP1 is NP0 + N, PL1 = [S|PL0], NA1 = NA0, AL1 = AL0, NL1 = NL0
    ;   NL1 = [S|NL0], NA1 = NA0, AL1 = AL0, NP1 = NP0, PL1 = PL0
    ),
    fu_batna_acc(Ts, NA1, NA, AL1, AL, NP1, NP, PL1, PL, NL1, NL).

% fu_batna(+Record, -A, -Value, -Evidence, -Because, -Sentence)
fu_batna(b(A, NA, NP, Alt, Press, Neg), A, Value, Evidence, Because, Sentence) :-
    (   NA > NP
    ->  Value = strong, Evidence = Alt,
        Because = [alternatives, 'a BATNA is strong when the alternatives (allies, own sanctions, coercion, attacks, mobilisation) outnumber the pressure on the actor'],
        join([[A], ' has alternatives to a negotiated agreement (alliances and moves of its own: ', NA, '; sanctions, coercion or attacks aimed at it: ', NP,
              '): its BATNA looks strong, and it can afford to walk away.'], Sentence)
    ;   NP > NA
    ->  Value = weak, Evidence = Press,
        Because = [alternatives, 'a BATNA is weak when the pressure on the actor (sanctions, coercion, attacks aimed at it) outnumbers its alternatives'],
        join([[A], ' is under more pressure than it has alternatives (sanctions, coercion or attacks aimed at it: ', NP, '; alliances and moves of its own: ', NA,
              '): its BATNA looks weak, and it needs an agreement more than its opponents do.'], Sentence)
    ;   NA > 0
    ->  Value = unknown, append(Alt, Press, E0), sort(E0, Evidence),
        Because = [alternatives, 'a BATNA cannot be told when alternatives and pressure balance out'],
        join(['The alternatives of ', [A], ' (alliances and moves of its own: ', NA, ') and the pressure on it (', NP,
              ' moves aimed at it) balance out: its BATNA cannot be told from the graph.'], Sentence)
    ;   Value = unknown, Evidence = Neg,
        Because = ['a BATNA is unknown when the graph shows neither alternatives nor pressure for a negotiating actor'],
        join(['Nothing in the graph shows what ', [A], ' could do without an agreement (no allies, no moves of its own, no pressure on it): its BATNA is unknown.'], Sentence)
    ).

% ---- findings ---------------------------------------------------------------------

finding(positional_bargaining, Value, Sentence, Evidence, Because) :-
    fu_positional(Value, Evidence, Because, Sentence).

% per actor (or pair), ranked: a run keeps its findings limit of them (kept/2)
rank(Key, Subject, N) :- fu_interest_answers(Hs-Ss), fu_interests_scored(Hs, Ss, Key-Subject-N).
rank(Key, Subject, N) :- fu_shared(Shared), fu_shared_scored(Shared, Key-Subject-N).
rank(Key, Subject, N) :- fu_batna_records(Records), fu_batna_scored(Records, Key-Subject-N).

% an interest counts one, common ground the interests it rests on and the hostility across it, a BATNA the moves that decide it
fu_interests_scored(Hs, Ss, interests-[A, X]-1) :- ( member(h(A, X, _), Hs) ; member(s(A, X), Ss) ).
fu_shared_scored(Shared, shared_interest-[A, B, T]-N) :- member(s(A, B, T, Interests, Hostility), Shared), length(Interests, NI), length(Hostility, NH), N is NI + NH.
fu_batna_scored(Records, batna-A-N) :- member(b(A, NA, NP, _, _, _), Records), N is NA + NP.

% ranks(-Table): the candidates of rank/3 as a ranking table (lib/conflict.pl rank_table/2), kept with view_set/3 with
% whether the graph is hostile, and grown where fu_shared/1 grows (over a hostile graph) with the answers, the common
% ground and the records the growths of the three sets find again, where every candidate was ranked again after a write
% of a claim or an event (125k inferences at 1M facts). The table is kept in parts by its Key-Subject (parted_answer/2,
% lib/graph.pl), its candidates put as ranks_put/3 puts them, so that a write stores the parts of the subjects it
% touched, not the whole table.
ranks(Table) :- view_set(fu_ranks, fu_ranks_, _-Table).
fu_ranks_(Hostile-Table) :-
    fu_interest_answers(Hs-Ss), fu_shared(Shared), fu_batna_records(Records),
    ( fu_hostile(Shared) -> Hostile = hostile ; Hostile = calm ),
    fu_scored(Hs, Ss, Shared, Records, Scored), rank_entries(Scored, Table).
parted_answer(fu_ranks, [2-4]).
added_parts(fu_ranks, Added, hostile-_, [2-New]) :-
    fu_touched_interests(Added, Hs, Ss), fu_touched_shared(Added, Shared), fu_touched_batna(Added, Records),
    fu_scored(Hs, Ss, Shared, Records, Scored), rank_entries(Scored, New).

fu_scored(Hs, Ss, Shared, Records, Scored) :-
    findall(S, ( fu_interests_scored(Hs, Ss, S) ; fu_shared_scored(Shared, S) ; fu_batna_scored(Records, S) ), Scored).

finding(interests, [A, I], Sentence, [A, I, E], [interests_stated, 'an actor holds an interest when a HOLDS_INTEREST edge links it to an Interest node']) :-
    fu_interest_answers(Hs-_), kept_member(interests, [A, I], h(A, I, T), Hs), holds_interest_edge(A, I, E),
    join([[A], ' holds the interest "', [I], '" (', T, '): a need beneath its positions.'], Sentence).
finding(interests, [A, C], Sentence, [A, C], [interests_stated, 'a Justification claim states the reason behind a stance, read as a stated interest']) :-
    fu_interest_answers(_-Ss), kept_member(interests, [A, C], s(A, C), Ss),
    join([[A], ' states the reason behind its stance: "', [C], '".'], Sentence).

finding(shared_interest, [A, B, T], Sentence, Evidence, [shared_interests, Rule]) :-
    fu_shared(Shared), kept_member(shared_interest, [A, B, T], s(A, B, T, Interests, Hostility), Shared),
    findall(E, (member(I, Interests), (holds_interest_edge(A, I, E) ; holds_interest_edge(B, I, E))), Edges),
    append([[A, B], Interests, Edges, Hostility], E0), sort(E0, Evidence),
    fu_type_text(T, TypeText),
    (   Hostility \== []
    ->  Rule = 'opposing parties holding interests of the same type share ground where agreement may lie',
        join([[A], ' and ', [B], ' stand against each other, yet both hold ', TypeText, ' (', Interests, '): this is where agreement may lie.'], Sentence)
    ;   Rule = 'two actors who are not allies holding interests of the same type share ground an agreement can build on',
        join([[A], ' and ', [B], ' both hold ', TypeText, ' (', Interests, '): common ground an agreement can build on.'], Sentence)
    ).

finding(batna, [A, Value], Sentence, Evidence, Because) :-
    fu_batna_records(Records), R = b(A, _, _, _, _, _), kept_member(batna, A, R, Records), fu_batna(R, A, Value, Evidence, Because, Sentence).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% principled negotiation reads a negotiation: positions stated (0.45), in talks or with options
% on the table (+0.2), with interests shared or objective criteria invoked (+0.2)
strength(positional_bargaining-V, Score, Ids) :-
    finding(positional_bargaining, V, _, E, _),
    fu_strength_part([talks, options], 0.2, W1, I1), fu_strength_part([shared_interests, objective_criteria], 0.2, W2, I2),
    W is 0.45 + W1 + W2, append([E, I1, I2], I0), sort(I0, Ids), reading_strength(W, Ids, Score).

% fu_strength_part(+Indicators, +Weight, -W, -Ids): Weight when one of Indicators is present, on their ids
fu_strength_part(Indicators, Weight, W, Ids) :-
    findall(I, ( member(N, Indicators), present(N, Is), member(I, Is) ), Ids),
    ( Ids = [_|_] -> W = Weight ; W = 0 ).
