% Ury, Brett & Goldberg, Getting Disputes Resolved (1988): a dispute is handled by
% reconciling interests (negotiation, mediation), by determining who is right (courts,
% treaties, agreements, the law) or by determining who is more powerful (threats,
% coercion, violence). Interests cost least, power most; a healthy dispute system
% resolves most disputes through interests, with low-cost rights and power backups,
% and "loops back" from power to rights to interests.
%   interests: Offer claims, CONSULT events, HOLDS_INTEREST edges
%   rights:    claims citing law, courts, treaties, agreements, the constitution, rulings;
%              court rulings and laws passed (ADJUDICATE, LEGISLATE events) and other events
%              a court, an adjudicator or an arbitrator takes part in
%   power:     Threat claims, COERCE and ASSAULT events
% The mix is read from current evidence (the last 180 days before the reference date,
% and undated evidence); when nothing is current, from the whole record.
% Cost: lists of ids are filtered and counted by set predicates (count_ids/2),
% never walked id by id; evidence cites the first ids of each list.

:- module(ury_brett_goldberg, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no offers, talks, interests held, claims citing law or agreements, threats, coercion or attacks: nothing shows how the dispute is handled') :-
    ubg_moves(all, m(0, 0, 0, _, _, _)).

% ---- indicators -------------------------------------------------------------

indicator(interests_moves, 1, 'moves that reconcile interests (Offer claims, CONSULT events, HOLDS_INTEREST edges)').
indicator(rights_moves, 1, 'moves that appeal to rights (claims citing law, courts, treaties, agreements, the constitution, rulings, violations; ADJUDICATE and LEGISLATE events; events with a court, adjudicator or arbitrator taking part)').
indicator(power_moves, 1, 'moves that test power (Threat claims, COERCE and ASSAULT events)').
indicator(power_rising, 0.5, 'threats, coercion and attacks more frequent in the recent window than in the one before').
indicator(loop_back, 0.5, 'a loop-back procedure: talks with a mediator (CONSULT events with a PARTICIPATES_IN role mediator)').

present(Indicator, Ids) :-
    ubg_mix(_, m(NI, NR, NP, EI, ER, EP)),
    member(Indicator-N-Ids, [interests_moves-NI-EI, rights_moves-NR-ER, power_moves-NP-EP]), N > 0, nonempty(Ids).
present(power_rising, Ids) :-
    ubg_power_lists(all, Lists),
    findall(N-P, (member(L, Lists), recent_ids(L, Rc), count_ids(Rc, N), take(10, Rc, P)), Rs),
    findall(N, (member(L, Lists), earlier_ids(L, Ea), count_ids(Ea, N)), Es),
    ubg_sum_pairs(Rs, 0, NR, [], Ps), sum_list(Es, NE), trend_of(NR, NE, rising),
    append(Ps, L0), sort(L0, Ids), nonempty(Ids).
present(loop_back, Ids) :-
    current_events('CONSULT', Cs), group_by_edge(Cs, 'PARTICIPATES_IN', in, mediator, G),
    take(5, G, G5), findall(F, (member(_-Es, G5), take(5, Es, F)), Fs), append(Fs, L), sort(L, Ids), nonempty(Ids).

keywords(ubg_rights_words, [' law', 'lawful', 'legal', 'court', 'tribunal', 'treaty', 'treaties', 'agreement', 'accords', 'constitution', 'ruling', 'verdict', 'arbitration', 'violation of', 'violates', 'resolution', 'convention', 'rights']).

% ---- list tools that never walk a list id by id ------------------------------------

% ubg_count(+Lists, -N, -Evidence): the number of ids in Lists, and the first ten of each.
ubg_count(Lists, N, Evidence) :-
    findall(K-P, (member(L, Lists), count_ids(L, K), take(10, L, P)), KPs),
    ubg_sum_pairs(KPs, 0, N, [], Ps), append(Ps, E0), sort(E0, Evidence).

ubg_sum_groups([], N, N).
ubg_sum_groups([_-L|Gs], N0, N) :- count_ids(L, K), N1 is N0 + K, ubg_sum_groups(Gs, N1, N).

ubg_sum_pairs([], N, N, Ps, Ps).
ubg_sum_pairs([K-P|KPs], N0, N, Ps0, Ps) :- N1 is N0 + K, ubg_sum_pairs(KPs, N1, N, [P|Ps0], Ps).

% ---- the moves ----------------------------------------------------------------

% ubg_scope(+Scope, +Ids, -Kept): current (recent or undated) or all.
ubg_scope(current, Ids, Kept) :- current_ids(Ids, Kept).
ubg_scope(all, Ids, Ids).

% ubg_power_lists(+Scope, -Lists): Threat claims, COERCE and ASSAULT events (three lists).
ubg_power_lists(Scope, [T, Co, As]) :-
    claims_of_type('Threat', T0), events_of_type('COERCE', Co0), events_of_type('ASSAULT', As0),
    ubg_scope(Scope, T0, T), ubg_scope(Scope, Co0, Co), ubg_scope(Scope, As0, As).

% ubg_moves(+Scope, -m(NI, NR, NP, EvidenceI, EvidenceR, EvidenceP)): how many moves of each
% kind, and the first ids of each list. HOLDS_INTEREST edges carry no date and count in either scope.
ubg_moves(Scope, M) :- ubg_holdings(NH, EH), ubg_moves(Scope, NH, EH, M).

ubg_moves(Scope, NH, EH, m(NI, NR, NP, EI, ER, EP)) :-
    claims_of_type('Offer', O0), events_of_type('CONSULT', C0), ubg_scope(Scope, O0, O), ubg_scope(Scope, C0, C),
    ubg_count([O, C], NIC, EIC), NI is NIC + NH, append(EIC, EH, EI0), sort(EI0, EI),
    keywords(ubg_rights_words, W), nodes_mentioning('Claim', W, R0), ubg_scope(Scope, R0, R),
    ubg_rights_events(Ev0), ubg_scope(Scope, Ev0, Ev),
    ubg_count([R, Ev], NR, ER),
    ubg_power_lists(Scope, PL), ubg_count(PL, NP, EP).

% ubg_rights_events(-Events): court rulings and laws passed, and the events a court, an adjudicator
% or an arbitrator takes part in (a hearing, an arbitration), sorted
ubg_rights_events(Events) :-
    events_of_type('ADJUDICATE', A), events_of_type('LEGISLATE', L),
    findall(As, ( member(T-K, [role-adjudicator, role-arbitrator, actor_type-court]), nodes_where('Actor', T, K, As) ), AL),
    append(AL, Deciders0), sort(Deciders0, Deciders),
    ids(E, ( member(D, Deciders), edge(_, 'PARTICIPATES_IN', D, E, _) ), Heard),
    append([A, L, Heard], E0), sort(E0, Events).

% ubg_holdings(-N, -Edges): how many interests actors hold (HOLDS_INTEREST), and the first edges.
ubg_holdings(N, Edges) :-
    nodes_where('Interest', _, _, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, G),
    ubg_sum_groups(G, 0, N),
    take(5, G, G5), findall(E, (member(A-AIs, G5), take(5, AIs, F), member(I, F), edge(E, 'HOLDS_INTEREST', A, I, _)), Edges).

% ubg_mix(-Scope, -Moves): the current moves, else (nothing current) all of them.
ubg_mix(Scope, M) :-
    ubg_holdings(NH, EH), ubg_moves(current, NH, EH, M0),
    (   M0 = m(0, 0, 0, _, _, _)
    ->  Scope = all, ubg_moves(all, NH, EH, M)
    ;   Scope = current, M = M0
    ).

ubg_scope_text(current, T) :- recent_window(Days), atomic_list_concat(['in the last ', Days, ' days (and undated)'], T).
ubg_scope_text(all, 'over the whole record (none is recent)').

% ubg_dominant(-Kind, -Ids, -Scope, -Counts): the kind with the most moves; ties go to the
% costlier procedure (power, then rights), which shapes a dispute however often the cheaper one is tried.
ubg_dominant(Kind, Ids, Scope, [NI, NR, NP]) :-
    ubg_mix(Scope, m(NI, NR, NP, EI, ER, EP)),
    (   NP >= NR, NP >= NI -> Kind = power, Ids = EP
    ;   NR >= NI -> Kind = rights, Ids = ER
    ;   Kind = interests, Ids = EI
    ).

ubg_kind_text(interests, 'reconciling interests (offers, talks, interests held)').
ubg_kind_text(rights, 'appeals to rights (law, courts, treaties, agreements)').
ubg_kind_text(power, 'contests of power (threats, coercion, attacks)').

ubg_recommendation(power, loop_back_to_rights_and_interests,
    'Ury, Brett and Goldberg find power contests the costliest way to settle a dispute: move the parties from power to rights (courts, arbitration, the terms of agreements already signed) and on to interests (negotiation, mediation), through loop-back procedures such as cooling-off periods and mediated talks.').
ubg_recommendation(rights, loop_back_to_interests,
    'Rights contests cost less than power contests but more than reconciling interests, and they leave a winner and a loser: loop the parties back to negotiation on interests, keeping courts and arbitration as low-cost backups.').
ubg_recommendation(interests, keep_interests_first,
    'The dispute is handled mostly through interests, the least costly procedure Ury, Brett and Goldberg describe: keep negotiation and mediation first, and agree low-cost rights and power backups (advisory arbitration, agreed procedures) in case talks fail.').

% ---- findings -------------------------------------------------------------------

finding(dominant, Kind, Sentence, Ids, [Indicator, Rule]) :-
    ubg_dominant(Kind, Ids, Scope, [NI, NR, NP]),
    atomic_list_concat([Kind, '_moves'], Indicator),
    ubg_kind_text(Kind, Text), ubg_scope_text(Scope, When),
    Rule = 'the dominant kind is the one with the most moves; ties go to the costlier one (power, then rights)',
    join(['The dispute is handled mostly by ', Text, ': of the moves seen ', When, ', ', NI, ' rest on interests, ', NR,
          ' on rights and ', NP, ' on power.'], Sentence).

finding(mix, [NI, NR, NP], Sentence, Evidence, Because) :-
    ubg_mix(Scope, m(NI, NR, NP, EI, ER, EP)),
    append([EI, ER, EP], E0), sort(E0, Evidence), ubg_scope_text(Scope, When),
    findall(Name, (member(Name-N, [interests_moves-NI, rights_moves-NR, power_moves-NP]), N > 0), Present),
    append(Present, ['the mix counts interests moves (Offer, CONSULT, HOLDS_INTEREST), rights moves (claims citing law, courts, treaties, agreements; rulings, laws passed, events before a court or arbitrator) and power moves (Threat, COERCE, ASSAULT)'], Because),
    join(['Moves seen ', When, ': ', NI, ' on interests, ', NR, ' on rights, ', NP, ' on power.'], Sentence).

finding(recommendation, Value, Sentence, Ids, [Rule]) :-
    ubg_dominant(Kind, Ids, _, _), ubg_recommendation(Kind, Value, Sentence),
    atomic_list_concat(['Ury, Brett and Goldberg advise moving from power to rights to interests; the dispute is now dominated by ', Kind], Rule).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% a dispute handled by rights (courts, treaties) is the dispute-system reading's own; one handled
% by power the escalation frameworks read as well
strength(dominant-K, Score, Ids) :- finding(dominant, K, _, Ids, _), ubg_kind_weight(K, W), reading_strength(W, Ids, Score).

ubg_kind_weight(rights, 0.85).
ubg_kind_weight(interests, 0.7).
ubg_kind_weight(power, 0.5).
