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
% Everything is read from whole sets (claims_of_type, group_by_edge, speakers,
% perpetrators, targets); per-actor figures come from one sorted, grouped list.

% ---- applies --------------------------------------------------------------

missing('no positions and no interests: neither Demand or RedLine claims nor interests held (HOLDS_INTEREST) or stated (Justification claims), so there is no negotiation to read') :-
    fu_positions([]), fu_holdings([]), claims_of_type('Justification', []).

% ---- indicators -------------------------------------------------------------

indicator(positions, 1, 'positions stated (Demand and RedLine claims)').
indicator(red_lines, 0.5, 'positions declared non-negotiable (RedLine claims)').
indicator(interests_stated, 1, 'interests held or stated (HOLDS_INTEREST edges, Justification claims)').
indicator(shared_interests, 1, 'actors who are not allies hold interests of the same type (HOLDS_INTEREST to Interest nodes with the same interest_type, or to the same Interest)').
indicator(options, 1, 'options for mutual gain put forward (Offer and Concession claims)').
indicator(objective_criteria, 0.5, 'claims appealing to objective criteria (fairness, precedent, independent or expert standards, international law)').
indicator(talks, 0.5, 'the parties negotiate (CONSULT events)').
indicator(alternatives, 0.5, 'what negotiating actors can do without agreement: allies (ALLIED_WITH) and their own SANCTION, COERCE, ASSAULT or MOBILIZE events, against the SANCTION, COERCE and ASSAULT events aimed at them').

present(positions, Ids) :- fu_positions(Ids), nonempty(Ids).
present(red_lines, Ids) :- claims_of_type('RedLine', Ids), nonempty(Ids).
present(interests_stated, Ids) :- fu_interest_ids(Ids), nonempty(Ids).
present(shared_interests, Ids) :-
    fu_shared(Shared), findall(Id, (member(s(_, _, _, Is, _), Shared), member(Id, Is)), L), sort(L, Ids), nonempty(Ids).
present(options, Ids) :- claims_of_type('Offer', O), claims_of_type('Concession', C), append(O, C, L), sort(L, Ids), nonempty(Ids).
present(objective_criteria, Ids) :-
    nodes_where('Claim', _, _, Cs), fu_criteria_words(Words), mentioning(Cs, Words, Ids), nonempty(Ids).
present(talks, Ids) :- events_of_type('CONSULT', Ids), nonempty(Ids).
present(alternatives, Ids) :-
    fu_batna_items(Groups),
    findall(Id, (member(_-Items, Groups), once(member(n(_), Items)), (member(alt(Id), Items) ; member(press(Id), Items))), L),
    sort(L, Ids), nonempty(Ids).

fu_criteria_words([' fair', 'fairness', 'unfair', 'precedent', 'independent', 'objective', 'criteria', 'standard', 'market value', 'international law', 'expert', 'scientific', 'impartial', 'benchmark']).

% ---- the sets it reads -------------------------------------------------------------

% fu_positions(-Ids): Demand and RedLine claims.
fu_positions(Ids) :- claims_of_type('Demand', D), claims_of_type('RedLine', R), append(D, R, L), sort(L, Ids).

% fu_holdings(-Hs): h(Actor, Interest, Type) for each interest an actor holds.
fu_holdings(Hs) :-
    nodes_where('Interest', _, _, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, Groups),
    findall(h(A, I, T), (member(A-AIs, Groups), member(I, AIs), interest_type_of(I, T)), Hs).

% fu_stated(-Ss): s(Actor, Claim) for each Justification claim an actor asserts.
fu_stated(Ss) :- claims_by_actor('Justification', G), findall(s(A, C), (member(A-Cs, G), member(C, Cs)), Ss).

% fu_interest_ids(-Ids): the interests held (Interest nodes) and the Justification claims.
fu_interest_ids(Ids) :-
    fu_holdings(Hs), findall(I, member(h(_, I, _), Hs), Is), claims_of_type('Justification', Js),
    append(Is, Js, L), sort(L, Ids).

% fu_holding_edge(+A, +I, -E): the HOLDS_INTEREST edge from A to I.
fu_holding_edge(A, I, E) :- edge(E, 'HOLDS_INTEREST', A, I, _), !.

% fu_group(+SortedPairs, -Groups): K-V pairs sorted by key, as K-[V...] groups.
fu_group([], []).
fu_group([K-V|T], [K-[V|Vs]|Gs]) :- fu_take(K, T, Vs, Rest), fu_group(Rest, Gs).
fu_take(K, [K1-V|T], [V|Vs], Rest) :- K1 == K, !, fu_take(K, T, Vs, Rest).
fu_take(_, Rest, [], Rest).

% ---- positional bargaining ----------------------------------------------------------

% fu_positional(-Value, -Evidence, -Because, -Sentence)
fu_positional(Value, Evidence, Because, Sentence) :-
    fu_positions(Ps), length(Ps, NP),
    fu_holdings(Hs), length(Hs, NH), claims_of_type('Justification', Js), length(Js, NJ), NI is NH + NJ,
    (   NP >= 2, NP >= 2 * NI
    ->  Value = yes, Evidence = Ps,
        Because = [positions, 'positional bargaining holds when Demand and RedLine claims number at least two and at least twice the interests held or stated'],
        join(['The parties bargain over positions: ', NP, ' demands and red lines against ', NI,
              ' interests held or stated. Fisher and Ury advise looking behind each position for the interests that drive it.'], Sentence)
    ;   NI > 0
    ->  Value = no, fu_interest_ids(IIds), append(IIds, Ps, E0), sort(E0, Evidence),
        Because = [interests_stated, 'no positional bargaining when interests held or stated are at least half as many as the demands and red lines'],
        join(['Interests are on the table: ', NI, ' interests held or stated against ', NP,
              ' demands and red lines, so the parties are not locked in positional bargaining.'], Sentence)
    ;   Value = no, Evidence = Ps,
        Because = [positions, 'a single demand or red line is too little to speak of positional bargaining'],
        join(['Only one demand or red line and no interest are stated: too little to speak of positional bargaining.'], Sentence)
    ).

% ---- shared interests ----------------------------------------------------------------

% fu_shared(-Shared): s(A, B, Type, Interests, Hostility) once per pair (A @< B) and interest
% type: both hold an interest of Type (for untyped interests: the same Interest node). Pairs
% that are allies and show no hostility are on the same side and left out.
fu_shared(Shared) :-
    fu_holdings(Hs),
    findall(T-(A-I), member(h(A, I, T), Hs), L0), msort(L0, L1), fu_group(L1, ByType),
    findall(k(A, B, T)-x(IA, IB),
            ( member(T-Ms, ByType), member(A-IA, Ms), member(B-IB, Ms), A @< B, (T \== other ; IA == IB) ),
            P0),
    msort(P0, P1), fu_group(P1, Pairs),
    hostile_pairs(HP),
    findall(s(A, B, T, Interests, Hostility),
            ( member(k(A, B, T)-Xs, Pairs),
              findall(I, (member(x(IA, IB), Xs), (I = IA ; I = IB)), Is0), sort(Is0, Interests),
              fu_hostility(A, B, HP, Hostility),
              \+ (Hostility == [], allied(A, B)) ),
            Shared).

fu_hostility(A, B, HP, Ids) :-
    findall(Id, ((member(p(A, B, Es), HP) ; member(p(B, A, Es), HP)), member(Id, Es)), L), sort(L, Ids).

fu_type_text(other, 'the same interest') :- !.
fu_type_text(T, Text) :- atomic_list_concat([T, ' interests'], Text).

% ---- BATNA ------------------------------------------------------------------------

% fu_batna_items(-Groups): Actor-Items, sorted; Items are n(Id) (a position or interest of the
% actor: it negotiates), alt(Id) (an ally edge, or a sanction, coercion, attack or mobilisation
% it perpetrates) and press(Id) (a sanction, coercion or attack aimed at it).
fu_batna_items(Groups) :-
    fu_positions(Ps), speakers(Ps, PG), fu_holdings(Hs), fu_stated(Ss),
    findall(A-n(C), (member(A-Cs, PG), member(C, Cs)), N1),
    findall(A-n(I), member(h(A, I, _), Hs), N2),
    findall(A-n(C), member(s(A, C), Ss), N3),
    findall(A-alt(E), allied(A, _, E), Al1),
    events_of_type('SANCTION', Sa), events_of_type('COERCE', Co), events_of_type('ASSAULT', As), events_of_type('MOBILIZE', Mo),
    append([Sa, Co, As], Pressure), append(Pressure, Mo, Own),
    perpetrators(Own, PeG), findall(A-alt(E), (member(A-Es, PeG), member(E, Es)), Al2),
    targets(Pressure, TaG), findall(A-press(E), (member(A-Es, TaG), member(E, Es)), Pr),
    append([N1, N2, N3, Al1, Al2, Pr], L0), msort(L0, L1), fu_group(L1, Groups).

% fu_batna(-A, -Value, -Evidence, -Because, -Sentence): for each negotiating actor.
fu_batna(A, Value, Evidence, Because, Sentence) :-
    fu_batna_items(Groups), member(A-Items, Groups), once(member(n(_), Items)),
    findall(E, member(alt(E), Items), Alt), findall(E, member(press(E), Items), Press), findall(C, member(n(C), Items), Neg),
    length(Alt, NA), length(Press, NP),
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

finding(interests, [A, I], Sentence, [A, I, E], [interests_stated, 'an actor holds an interest when a HOLDS_INTEREST edge links it to an Interest node']) :-
    fu_holdings(Hs), member(h(A, I, T), Hs), fu_holding_edge(A, I, E),
    join([[A], ' holds the interest "', [I], '" (', T, '): a need beneath its positions.'], Sentence).
finding(interests, [A, C], Sentence, [A, C], [interests_stated, 'a Justification claim states the reason behind a stance, read as a stated interest']) :-
    fu_stated(Ss), member(s(A, C), Ss),
    join([[A], ' states the reason behind its stance: "', [C], '".'], Sentence).

finding(shared_interest, [A, B, T], Sentence, Evidence, [shared_interests, Rule]) :-
    fu_shared(Shared), member(s(A, B, T, Interests, Hostility), Shared),
    findall(E, (member(I, Interests), (fu_holding_edge(A, I, E) ; fu_holding_edge(B, I, E))), Edges),
    append([[A, B], Interests, Edges, Hostility], E0), sort(E0, Evidence),
    fu_type_text(T, TypeText),
    (   Hostility \== []
    ->  Rule = 'opposing parties holding interests of the same type share ground where agreement may lie',
        join([[A], ' and ', [B], ' stand against each other, yet both hold ', TypeText, ' (', Interests, '): this is where agreement may lie.'], Sentence)
    ;   Rule = 'two actors who are not allies holding interests of the same type share ground an agreement can build on',
        join([[A], ' and ', [B], ' both hold ', TypeText, ' (', Interests, '): common ground an agreement can build on.'], Sentence)
    ).

finding(batna, [A, Value], Sentence, Evidence, Because) :-
    fu_batna(A, Value, Evidence, Because, Sentence).
