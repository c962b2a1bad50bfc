% Ury, Brett & Goldberg, Getting Disputes Resolved (1988): a dispute is handled by
% reconciling interests (negotiation, mediation), by determining who is right (courts,
% treaties, agreements, the law) or by determining who is more powerful (threats,
% coercion, violence). Interests cost least, power most; a healthy dispute system
% resolves most disputes through interests, with low-cost rights and power backups,
% and "loops back" from power to rights to interests.
%   interests: Offer claims, CONSULT events, HOLDS_INTEREST edges
%   rights:    claims citing law, courts, treaties, agreements, the constitution, rulings
%   power:     Threat claims, COERCE and ASSAULT events
% The mix is read from current evidence (the last 180 days before the reference date,
% and undated evidence); when nothing is current, from the whole record.

% ---- applies --------------------------------------------------------------

missing('no offers, talks, interests held, claims citing law or agreements, threats, coercion or attacks: nothing shows how the dispute is handled') :-
    ubg_moves(all, [], [], []).

% ---- indicators -------------------------------------------------------------

indicator(interests_moves, 1, 'moves that reconcile interests (Offer claims, CONSULT events, HOLDS_INTEREST edges)').
indicator(rights_moves, 1, 'moves that appeal to rights (claims citing law, courts, treaties, agreements, the constitution, rulings, violations)').
indicator(power_moves, 1, 'moves that test power (Threat claims, COERCE and ASSAULT events)').
indicator(power_rising, 0.5, 'threats, coercion and attacks more frequent in the recent window than in the one before').
indicator(loop_back, 0.5, 'a loop-back procedure: talks with a mediator (CONSULT events with a PARTICIPATES_IN role mediator)').

present(interests_moves, Ids) :- ubg_mix(_, Ids, _, _), nonempty(Ids).
present(rights_moves, Ids) :- ubg_mix(_, _, Ids, _), nonempty(Ids).
present(power_moves, Ids) :- ubg_mix(_, _, _, Ids), nonempty(Ids).
present(power_rising, Recent) :- ubg_power(all, P), trend(P, rising, Recent, _), nonempty(Recent).
present(loop_back, Ids) :-
    current_events('CONSULT', Cs), group_by_edge(Cs, 'PARTICIPATES_IN', in, mediator, G),
    findall(E, (member(_-Es, G), member(E, Es)), L), sort(L, Ids), nonempty(Ids).

ubg_rights_words([' law', 'lawful', 'legal', 'court', 'tribunal', 'treaty', 'treaties', 'agreement', 'accords', 'constitution', 'ruling', 'verdict', 'arbitration', 'violation of', 'violates', 'resolution', 'convention', 'rights']).

% ---- the moves ----------------------------------------------------------------

% ubg_scope(+Scope, +Ids, -Kept): current (recent or undated) or all.
ubg_scope(current, Ids, Kept) :- current_ids(Ids, Kept).
ubg_scope(all, Ids, Ids).

% ubg_moves(+Scope, -Interests, -Rights, -Power): the ids of each kind of move, sorted.
% HOLDS_INTEREST edges carry no date and count in either scope.
ubg_moves(Scope, I, R, P) :-
    claims_of_type('Offer', O0), events_of_type('CONSULT', C0), append(O0, C0, IC0), ubg_scope(Scope, IC0, IC),
    findall(E, edge(E, 'HOLDS_INTEREST', _, _, _), Hs), append(IC, Hs, I0), sort(I0, I),
    nodes_where('Claim', _, _, Cs0), ubg_scope(Scope, Cs0, Cs), ubg_rights_words(W), mentioning(Cs, W, R),
    ubg_power(Scope, P).

ubg_power(Scope, P) :-
    claims_of_type('Threat', T0), events_of_type('COERCE', Co0), events_of_type('ASSAULT', As0),
    append([T0, Co0, As0], P0), ubg_scope(Scope, P0, P1), sort(P1, P).

% ubg_mix(-Scope, -I, -R, -P): the current moves, else (nothing current) all of them.
ubg_mix(Scope, I, R, P) :-
    ubg_moves(current, I0, R0, P0),
    (   (I0 \== [] ; R0 \== [] ; P0 \== [])
    ->  Scope = current, I = I0, R = R0, P = P0
    ;   Scope = all, ubg_moves(all, I, R, P)
    ).

ubg_scope_text(current, 'in the last 180 days (and undated)').
ubg_scope_text(all, 'over the whole record (none is recent)').

% ubg_dominant(-Kind, -Ids, -Scope, -Counts): the kind with the most moves; ties go to the
% costlier procedure (power, then rights), which shapes a dispute however often the cheaper one is tried.
ubg_dominant(Kind, Ids, Scope, [NI, NR, NP]) :-
    ubg_mix(Scope, I, R, P), length(I, NI), length(R, NR), length(P, NP),
    (   NP >= NR, NP >= NI -> Kind = power, Ids = P
    ;   NR >= NI -> Kind = rights, Ids = R
    ;   Kind = interests, Ids = I
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
    ubg_mix(Scope, I, R, P), length(I, NI), length(R, NR), length(P, NP),
    append([I, R, P], E0), sort(E0, Evidence), ubg_scope_text(Scope, When),
    findall(Name, (member(Name-Ids, [interests_moves-I, rights_moves-R, power_moves-P]), Ids \== []), Present),
    append(Present, ['the mix counts interests moves (Offer, CONSULT, HOLDS_INTEREST), rights moves (claims citing law, courts, treaties, agreements) and power moves (Threat, COERCE, ASSAULT)'], Because),
    join(['Moves seen ', When, ': ', NI, ' on interests, ', NR, ' on rights, ', NP, ' on power.'], Sentence).

finding(recommendation, Value, Sentence, Ids, [Rule]) :-
    ubg_dominant(Kind, Ids, _, _), ubg_recommendation(Kind, Value, Sentence),
    atomic_list_concat(['Ury, Brett and Goldberg advise moving from power to rights to interests; the dispute is now dominated by ', Kind], Rule).
