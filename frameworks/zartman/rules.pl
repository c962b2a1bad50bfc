% Zartman's ripeness theory (1985, 2000): a conflict is ripe for resolution when the parties
% are in a mutually hurting stalemate (MHS) and perceive a way out (WO).
%   hurting stalemate  an opposing pair in which both sides carry out ASSAULT events, spread over
%                      30 days or more and reaching into the recent window (the 180 days before
%                      the reference date); neither side gaining (no current RETREAT or CONCEDE
%                      event, nor Concession claim, by either side: the other would be winning);
%                      and at least one side speaking of the cost (cost, toll, exhaustion,
%                      losses, "cannot win", stalemate...)
%   way out            current Offer or Concession claims, CONSULT events, or a mediator
%                      (an actor with role mediator, or a mediator of a current event)
%   ripe               both hold; when not, the finding names the part that is missing
% hurting_party(A) is callable from queries: MATCH (a:Actor) WHERE hurting_party(a) RETURN a.label.
% Helpers of this module are prefixed zt_.

:- module(zartman, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2, hurting_party/1]).

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: ripeness is a relation between the parties') :-
    kind_count('Actor', N), N < 2.
missing('no opposing parties: no OPPOSES edge, hostile event or hostile claim shows who is in conflict with whom') :-
    hostile_actor_pairs([]).
missing('no dated events: a hurting stalemate is read from violence sustained over time') :-
    nodes_where('Event', _, _, Es), \+ ( member(E, Es), dated(E, _) ).  % stops at the first dated one

% ---- indicators -------------------------------------------------------------

indicator(sustained_violence, 1, 'sustained violence by both sides: ASSAULT events perpetrated by each side of an opposing pair, spread over 30 days or more and reaching into the recent window').
indicator(no_side_gaining, 0.5, 'no side gaining: neither side of the violent pair retreats or concedes (no current RETREAT or CONCEDE events, no Concession claims)').
indicator(cost_perceived, 1, 'the hurt is felt: claims by a party speaking of cost, toll, exhaustion, suffering, losses, a stalemate or that it cannot win').
indicator(offers, 1, 'a way out offered: current Offer or Concession claims').
indicator(talks, 1, 'a way out in talks: current CONSULT events').
indicator(mediator, 1, 'a way out through a third party: actors with role mediator, or mediating a current event (PARTICIPATES_IN role mediator)').

% the pair states are computed once per call, and every indicator read from them
present(Name, Ids) :- zt_pair_states(States), zt_present(Name, States, Ids), nonempty(Ids).

% (the attacks of a state are its ASSAULT evidence)
zt_present(sustained_violence, States, Ids) :- zt_assaults_in(States, zt_sustained_state, Ids).
zt_present(no_side_gaining, States, Ids) :- zt_assaults_in(States, zt_no_gain_state, Ids).
zt_present(cost_perceived, _, Ids) :- zt_party_cost_claims(Ids).
zt_present(offers, _, Ids) :- current_claims('Offer', O), current_claims('Concession', C), append(O, C, I0), sort(I0, Ids).
zt_present(talks, _, Ids) :- current_events('CONSULT', Ids).
zt_present(mediator, _, Ids) :- zt_mediation(Ids).

% zt_assaults_in(+States, :Kind, -Ids): the attacks (U) of the states of a Kind, all of them sorted. A state's attacks are
% its two sides' assaults, so an actor's are in every state it is a side of: when the states' lists are long beside
% their number (a hub of 1,000 assaults against 1,000 opponents that attack too: 1.3M inferences a union at 100k
% facts), each side's assaults are read once from its record instead (some 30 steps a side, dearer than the union of
% a few short lists, as the generated graphs' are). 64: about a state's two sides' reads (some 30 steps each), so that
% the records are read where the states' lists are longer on average than that: copying them would cost more
:- meta_predicate zt_assaults_in(+, 2, -).
zt_assaults_in(States, Kind, Ids) :-
    findall(A-B-U, ( member(st(A, B, S, _), States), call(Kind, S, U) ), Found),
    length(Found, N), zt_sizes(Found, 0, Size),
    (   Size =< 64 * N
    ->  findall(U, member(_-_-U, Found), Us)
    ;   findall(X, ( member(A-B-_, Found), ( X = A ; X = B ) ), Xs0), sort(Xs0, Xs),
        zt_recs(Recs), findall(E, ( member(X, Xs), zt_rec(X, Recs, r(E, _, _, _)) ), Us)
    ),
    append(Us, I0), sort(I0, Ids).

zt_sizes([], Size, Size).
zt_sizes([_-_-U | Found], Size0, Size) :- length(U, L), Size1 is Size0 + L, zt_sizes(Found, Size1, Size).

% zt_any(+Indicator, +States): the indicator is present, as zt_present/3 with a nonempty list says, without the list
zt_any(sustained_violence, States) :- member(st(_, _, S, _), States), zt_sustained_state(S, [_|_]), !.
zt_any(no_side_gaining, States) :- member(st(_, _, S, _), States), zt_no_gain_state(S, [_|_]), !.
zt_any(cost_perceived, States) :- zt_present(cost_perceived, States, [_|_]).

zt_sustained_state(hurting(U, _), U).
zt_sustained_state(no_cost(U), U).
zt_sustained_state(gaining(_, _, U), U).
zt_no_gain_state(hurting(U, _), U).
zt_no_gain_state(no_cost(U), U).

% ---- sets ---------------------------------------------------------------------

keywords(zt_cost_words, [cost, exhaust, ' toll', 'toll ', suffering, 'cannot win', 'can''t win', 'can not win', 'no one can win', 'nobody can win',
    stalemate, deadlock, losses, 'war-weary', 'war weary', weary, bleeding, unwinnable, 'no military solution', 'too high a price', 'unbearable']).

% zt_ctx(-ctx(Assaulters, Yielders, CostSpeakers)): who attacks, who retreats or concedes now,
% who speaks of the cost now (each an Actor-Ids list)
zt_ctx(ctx(Assaulters, Yielders, CostSpeakers)) :-
    events_of_type('ASSAULT', As), perpetrators(As, Assaulters),
    events_of_type('RETREAT', R), events_of_type('CONCEDE', C), append(R, C, RC0), current_ids(RC0, RC), doers(RC, Y1),
    current_claims('Concession', Cn), speakers(Cn, Y2), append(Y1, Y2, Y0), merge_groups(Y0, Yielders),
    zt_cost_claims(Costs), speakers(Costs, CostSpeakers).

zt_cost_claims(Ids) :- keywords(zt_cost_words, W), nodes_mentioning('Claim', W, Cs), current_ids(Cs, Ids).

% cost claims made by a side of an opposing pair
zt_party_cost_claims(Ids) :-
    zt_cost_claims(Costs), speakers(Costs, Groups), hostile_partners(Partners),
    findall(Cs, partners_of_groups(Groups, Partners, _, Cs, _), L), append(L, I0), sort(I0, Ids).

% zt_pair_states(-States): st(A, B, State, Evidence) for each opposing pair (A @< B) whose two
% sides both attack (the candidates of a stalemate), State one of
%   hurting(Attacks, CostSpeakers) sustained mutual violence, no side gaining, the cost spoken of
%   no_cost(Attacks)             sustained mutual violence, no side gaining, nobody speaks of the cost
%   gaining(Yielder, Gainer, Attacks) sustained mutual violence, but one side retreats or concedes
%   lapsed                       mutual violence that does not reach into the recent window
%   not_sustained(Attacks)       mutual violence within fewer than 30 days
% (Attacks: both sides' ASSAULT events; sustained = one of them 30 days or more before the latest).
% The other pairs are one_sided(Attacker), only one side attacks, or no_violence: zt_closest/2
% reads them when no pair attacks both ways.
zt_pair_states(States) :- zt_model(zm(_, States)).

% zt_recs(-Recs): Actor-r(Assaults, Yields, CostClaims, Days) in one pass, indexed by actor, so that
% each pair looks its two sides up in the index; Days is days(Dated, Latest, Oldest) of the actor's
% assaults: whether any is dated, how many days before the reference date the latest in the recent
% window happened (none when none), and the oldest (none when none is dated)
zt_recs(Recs) :- zt_model(zm(Recs, _)).

% zt_model(-zm(Recs, States)): the records and the pairs' states, kept together for the graph view (view_set/3:
% computed once, and every indicator and finding reads the same), so that a write grows the states over the
% records it grew (added_answer/4 below)
zt_model(Model) :- view_set(zt_model, zt_model_, Model).
zt_model_(zm(Recs, States)) :-
    zt_recs_(Recs), hostile_partners(Partners), events_of_type('ASSAULT', As), perpetrators(As, Assaulters),
    % each attacker with each of its opponents that attacks too (the attackers and the actors with
    % opponents, both sorted, walked once: an attacker is one with assaults in its record)
    findall(st(A, B, S, Ev),
            ( partners_of_groups(Assaulters, Partners, A, _, Bs), zt_rec(A, Recs, RA),
              member(B, Bs), A @< B, zt_rec(B, Recs, RB), RB = r([_|_], _, _, _),
              zt_pair_state(A, RA, B, RB, S, Ev) ),
            States).

zt_recs_(Recs) :-
    zt_ctx(ctx(As, Ys, Cs)),
    findall(K-t(T, Ids), ( member(T-G, [a-As, y-Ys, c-Cs]), member(K-Ids, G) ), L), msort(L, S), collect_tagged(S, r([], [], [], days(no, none, none)), zt_fill, Pairs),
    list_to_assoc(Pairs, Recs).
zt_fill(a, Ids, r(_, Y, C, _), r(Ids, Y, C, D)) :- zt_days(Ids, D).
zt_fill(y, Ids, r(A, _, C, D), r(A, Ids, C, D)).
zt_fill(c, Ids, r(A, Y, _, D), r(A, Y, Ids, D)).

% added_answer(+Key, +Added, +Answer, -Grown): the model grown with a write (lib/graph.pl grown/3), where a write of a
% claim or an event had it found again whole. The record of each node the write added or an edge added ends at
% (added_ends/2) is found again from its own edges and put in place of its old one, and the states of its pairs, its
% opponents read from its own edges (own_opponents/2), are found again; the other pairs' are kept (a pair the write
% made has an end an edge added ends at). The current moves and the days read the reference date: a write that
% moves it has the model found again whole (unseen_changes/3 of lib/graph.pl).
added_answer(zt_model, Added, zm(Recs0, States0), zm(Recs, States)) :-
    added_ends(Added, Ends), foldl(zt_put_own_rec, Ends, Recs0, Recs),
    findall(A-B, ( member(X, Ends), zt_rec(X, Recs, r([_|_], _, _, _)), own_opponents(X, Bs), member(Y, Bs),
                   zt_rec(Y, Recs, r([_|_], _, _, _)), order_pair(X, Y, A, B) ), Ps0),
    sort(Ps0, Pairs),
    findall(st(A, B, S, Ev), ( member(A-B, Pairs), zt_rec(A, Recs, RA), zt_rec(B, Recs, RB), zt_pair_state(A, RA, B, RB, S, Ev) ), New),
    exclude(zt_state_of(Ends), States0, Kept),
    append(Kept, New, States1), sort(States1, States).

% (memberchk/2, one step in C, where ord_memberchk/2 walks the few nodes in Prolog for each of the thousands of states)
zt_state_of(Ends, st(A, B, _, _)) :- ( memberchk(A, Ends) -> true ; memberchk(B, Ends) ).

zt_put_own_rec(X, Recs0, Recs) :-
    zt_own_moves(X, Assaults, Yields, Costs),
    (   Assaults == [], Yields == [], Costs == [] -> Recs = Recs0
    ;   zt_days(Assaults, D), put_assoc(X, Recs0, r(Assaults, Yields, Costs, D), Recs)
    ).

% zt_own_moves(+X, -Assaults, -Yields, -Costs): X's groups in zt_ctx/1's lists (else []), read from X's own edges:
% the assaults it carries out, the current retreats and concessions it makes or takes part in and its current
% concessions, its current claims of the cost
zt_own_moves(X, Assaults, Yields, Costs) :-
    own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', P), own_ends(X, 'PARTICIPATES_IN', participant, 'Event', Q),
    filter_ids(P, prop(event_type, 'ASSAULT'), Assaults),
    append(P, Q, Es0), sort(Es0, Es),
    filter_ids(Es, prop(event_type, 'RETREAT'), R0), filter_ids(Es, prop(event_type, 'CONCEDE'), C0),
    append(R0, C0, RC0), current_ids(RC0, RC),
    own_ends(X, 'ASSERTS', _, 'Claim', Cs),
    filter_ids(Cs, prop(type, 'Concession'), Cn0), current_ids(Cn0, Cn),
    append(RC, Cn, Y0), sort(Y0, Yields),
    keywords(zt_cost_words, W), own_mentioning(Cs, W, Costs0), current_ids(Costs0, Costs).
zt_rec(K, Recs, R) :- get_assoc(K, Recs, R0), !, R = R0.
zt_rec(_, _, r([], [], [], days(no, none, none))).

zt_days(Ids, days(Dated, Latest, Oldest)) :-
    id_days(Ids, IdDays), findall(D, member(_-D, IdDays), Ds),
    ( Ds == [] -> Dated = no ; Dated = yes ),
    recent_window(W),
    findall(D, ( member(D, Ds), D >= 0, D =< W ), Rs), zt_extreme(min_list, Rs, Latest),
    findall(D, ( member(D, Ds), D =< 36500 ), Os), zt_extreme(max_list, Os, Oldest).
zt_extreme(_, [], none) :- !.
zt_extreme(P, Ds, D) :- call(P, Ds, D).

% the smaller (or larger) of two days, none standing for no day
zt_min(none, D, D) :- !.
zt_min(D, none, D) :- !.
zt_min(X, Y, D) :- D is min(X, Y).
zt_max(none, D, D) :- !.
zt_max(D, none, D) :- !.
zt_max(X, Y, D) :- D is max(X, Y).

% zt_pair_state(+A, +RecA, +B, +RecB, -State, -Evidence): the state of a pair whose two sides attack
zt_pair_state(A, r(EA, YA, CA, days(DA, LA, OA)), B, r(EB, YB, CB, days(DB, LB, OB)), State, Evidence) :-
    append(EA, EB, U0), sort(U0, U), zt_min(LA, LB, Latest), zt_max(OA, OB, Oldest),
    (   DA == no, DB == no -> State = not_sustained(U), Evidence = U
    ;   Latest == none -> State = lapsed, Evidence = U
    ;   Oldest < Latest + 30 -> State = not_sustained(U), Evidence = U
    ;   YA \== [] -> State = gaining(A, B, U), append(U, YA, E0), sort(E0, Evidence)
    ;   YB \== [] -> State = gaining(B, A, U), append(U, YB, E0), sort(E0, Evidence)
    ;   append(CA, CB, C0), sort(C0, Cs),
        (   Cs == [] -> State = no_cost(U), Evidence = U
        ;   findall(X, (member(X-CX, [A-CA, B-CB]), CX \== []), Speakers),
            State = hurting(U, Speakers), append(U, Cs, E0), sort(E0, Evidence)
        )
    ).

% how close a pair comes to a hurting stalemate (lower is closer): the pair reported when none hurts
zt_rank(hurting(_, _), 0).
zt_rank(no_cost(_), 1).
zt_rank(gaining(_, _, _), 2).
zt_rank(lapsed, 3).
zt_rank(not_sustained(_), 4).
zt_rank(one_sided(_), 5).
zt_rank(no_violence, 6).

zt_hurting(States, Hurting) :- findall(st(A, B, S, Ev), (member(st(A, B, S, Ev), States), S = hurting(_, _)), Hurting).

% the closest pair that does not hurt: among the pairs that attack both ways, else the first pair
% where one side attacks, else the first pair
zt_closest([St | Sts], Closest) :- !,
    findall(R-St1, ( member(St1, [St | Sts]), St1 = st(_, _, S1, _), zt_rank(S1, R) ), Ranked),
    msort(Ranked, [_-Closest | _]).
zt_closest([], st(A, B, one_sided(X), Ev)) :-
    hostile_actor_pairs(Pairs), zt_recs(Recs),
    member(A-B, Pairs), zt_rec(A, Recs, r(EA, _, _, _)), zt_rec(B, Recs, r(EB, _, _, _)),
    ( EA == [] -> EB \== [], X = B, EX = EB ; EB == [], X = A, EX = EA ), !,
    pair_evidence(A, B, PairEv), append(PairEv, EX, E0), sort(E0, Ev).
zt_closest([], st(A, B, no_violence, Ev)) :- hostile_actor_pairs([A-B | _]), pair_evidence(A, B, Ev).

% hurting_party(?A): A is a side of a mutually hurting stalemate (callable from queries)
hurting_party(A) :-
    zt_pair_states(States), zt_hurting(States, Hurting),
    findall(X, (member(st(P, Q, _, _), Hurting), ( X = P ; X = Q )), L), sort(L, Parties),
    member(A, Parties).

% ---- the way out ----------------------------------------------------------------

% mediators: role mediator, or mediating a current event; with the events they mediate
zt_mediation(Ids) :-
    nodes_where('Actor', role, mediator, ByRole),
    nodes_where('Event', _, _, Es0), current_ids(Es0, Es), group_by_edge(Es, 'PARTICIPATES_IN', in, mediator, G),
    findall([M|Ev], member(M-Ev, G), L), append([ByRole | L], I0), sort(I0, Ids).

% zt_way_out(-Parts, -Evidence): the kinds of way out present (offers, talks, mediator) and their ids
zt_way_out(Parts, Evidence) :- view_set(zt_way_out, zt_way_out0, Parts-Evidence).
zt_way_out0(Parts-Evidence) :-
    findall(P-Ids, (member(P, [offers, talks, mediator]), zt_present(P, [], Ids), Ids \== []), Found),
    findall(P, member(P-_, Found), Parts),
    findall(Ids, member(_-Ids, Found), L), append(L, E0), sort(E0, Evidence).

zt_part_text(offers, 'offers or concessions on the table').
zt_part_text(talks, 'talks under way').
zt_part_text(mediator, 'a mediator').

zt_parts_text([], '').
zt_parts_text([P], T) :- !, zt_part_text(P, T).
zt_parts_text([P, Q], T) :- !, zt_part_text(P, TP), zt_part_text(Q, TQ), atomic_list_concat([TP, ' and ', TQ], T).
zt_parts_text([P | Ps], T) :- zt_part_text(P, TP), zt_parts_text(Ps, TR), atomic_list_concat([TP, ', ', TR], T).

% ---- sentences ----------------------------------------------------------------------

zt_hurting_text([], '').
zt_hurting_text([st(A, B, hurting(U, Speakers), _) | Rest], Text) :-
    span_days(U, Days),
    ( Speakers = [_, _] -> Who = 'both sides speak' ; join([Speakers, ' speaks'], Who) ),
    join([[A, B], ' are in a mutually hurting stalemate: both sides carried out attacks over ', Days,
          ' days, neither retreated nor conceded, and ', Who, ' of the cost of the fighting.'], T0),
    zt_hurting_text(Rest, T1),
    ( T1 == '' -> Text = T0 ; atomic_list_concat([T0, ' ', T1], Text) ).

% why the closest pair is no hurting stalemate
zt_no_text(st(A, B, no_cost(U), _), T) :-
    span_days(U, Days),
    join(['No hurting stalemate yet: ', [A, B], ' have fought for ', Days, ' days without either side gaining, but neither speaks of the cost or exhaustion of the fighting, so the stalemate is not shown to hurt.'], T).
zt_no_text(st(_, _, gaining(Y, G, U), _), T) :-
    span_days(U, Days),
    join(['No stalemate: ', [Y], ' retreated or conceded while the fighting went on (', Days, ' days), so ', [G], ' is gaining ground rather than stuck.'], T).
zt_no_text(st(A, B, lapsed, _), T) :-
    recent_window(Days),
    join(['No current stalemate: the fighting between ', [A, B], ' does not reach into the last ', Days, ' days.'], T).
zt_no_text(st(A, B, not_sustained(U), _), T) :-
    span_days(U, Days),
    join(['No stalemate: ', [A, B], ' exchanged attacks within only ', Days, ' days, not violence sustained over a period of 30 days or more.'], T).
zt_no_text(st(A, B, one_sided(X), _), T) :-
    ( X == A -> Y = B ; Y = A ),
    join(['No stalemate: only ', [X], ' carries out attacks; ', [Y], ' does not, so the violence is one-sided.'], T).
zt_no_text(st(A, B, no_violence, _), T) :-
    join(['No stalemate: neither ', [A], ' nor ', [B], ' carries out attacks (no ASSAULT events).'], T).

zt_no_rule(no_cost(_), 'a hurting stalemate needs claims of cost or exhaustion by a side of the violent pair').
zt_no_rule(gaining(_, _, _), 'a stalemate holds only when no side gains: a RETREAT, CONCEDE or Concession by one side means the other is winning').
zt_no_rule(lapsed, 'a hurting stalemate is a present condition: the violence must reach into the recent window').
zt_no_rule(not_sustained(_), 'a stalemate needs violence by both sides sustained over 30 days or more').
zt_no_rule(one_sided(_), 'a stalemate needs violence by both sides of the opposing pair').
zt_no_rule(no_violence, 'a stalemate needs violence by both sides of the opposing pair').

% zt_stalemate(+States, -Answer, -Sentence, -Evidence, -Because)
zt_stalemate(States, yes, Sentence, Evidence, ['a mutually hurting stalemate holds when both sides of an opposing pair attack over 30 days or more, neither gains, and the cost is spoken of',
        sustained_violence, no_side_gaining, cost_perceived]) :-
    zt_hurting(States, Hurting), Hurting \== [], !,
    findall(Ev, member(st(_, _, _, Ev), Hurting), L), append(L, E0), sort(E0, Evidence),
    zt_hurting_text(Hurting, Sentence).
zt_stalemate(States, no, Sentence, Evidence, [Rule | Inds]) :-
    zt_closest(States, st(A, B, S, Ev)),
    zt_no_text(st(A, B, S, Ev), Sentence), zt_no_rule(S, Rule), Evidence = Ev,
    findall(I, (member(I, [sustained_violence, no_side_gaining, cost_perceived]), zt_any(I, States)), Inds).

% ---- findings -------------------------------------------------------------------

% the findings kept for the view (view_findings/3, lib/conflict.pl: zartman ranks no finding; zt_rank/2 only orders
% the pair states), found once for the run's findings and read again by strength/3, whose three clauses each found the
% pair states and the findings again (114k inferences of the run after an ingest-like write at 1M facts)
finding(Key, Answer, Sentence, Evidence, Because) :- view_findings(zt_findings, zt_found, Found), member(f(Key, Answer, Sentence, Evidence, Because), Found).

% the pair states and the way out are computed once, and every finding read from them
zt_found(Key, Answer, Sentence, Evidence, Because) :-
    zt_pair_states(States), zt_way_out(Parts, WayOut),
    zt_finding(Key, States, Parts, WayOut, Answer, Sentence, Evidence, Because).

zt_finding(hurting_stalemate, States, _, _, Answer, Sentence, Evidence, Because) :- zt_stalemate(States, Answer, Sentence, Evidence, Because).
zt_finding(way_out, States, Parts, WayOut, Answer, Sentence, Evidence, Because) :- zt_way_out_finding(States, Parts, WayOut, Answer, Sentence, Evidence, Because).
zt_finding(ripe, States, Parts, WayOut, Answer, Sentence, Evidence, Because) :- zt_ripe(States, Parts, WayOut, Answer, Sentence, Evidence, Because).

zt_way_out_finding(_, Parts, Evidence, yes, Sentence, Evidence, ['a way out is perceived when offers, concessions, talks or a mediator are present' | Parts]) :-
    Parts \== [], !,
    zt_parts_text(Parts, Text),
    join(['A way out is in sight: ', Text, '.'], Sentence).
zt_way_out_finding(_, [], _, no, Sentence, Evidence, ['a way out needs an Offer or Concession, CONSULT events or a mediator; none is current']) :-
    hostile_actor_pairs(Pairs), findall(Ev, (member(A-B, Pairs), pair_evidence(A, B, Ev)), L), append(L, E0), sort(E0, Evidence),
    join(['No way out is in sight: no current offer or concession, no talks and no mediator.'], Sentence).

zt_ripe(States, Parts, WE, Answer, Sentence, Evidence, Because) :-
    zt_stalemate(States, Stalemate, _, SE, SB),
    append(SE, WE, E0), sort(E0, Evidence),
    (   Stalemate == yes, Parts \== []
    ->  Answer = yes,
        findall(I, (member(I, SB), indicator(I, _, _)), SI), append(SI, Parts, Inds),
        Because = ['ripe when a mutually hurting stalemate and a way out hold together' | Inds],
        zt_parts_text(Parts, Text),
        join(['The conflict is ripe for resolution: the parties are in a mutually hurting stalemate and a way out is in sight (', Text, ').'], Sentence)
    ;   Answer = no, zt_missing_part(Stalemate, Parts, Sentence, Rule), Because = [Rule]
    ).

zt_missing_part(yes, [], S, 'ripeness needs a way out as well as the stalemate: the way out is missing') :-
    join(['The conflict is not ripe: the way out is missing. The parties are in a hurting stalemate, but no offer, concession, talks or mediator is in sight.'], S).
zt_missing_part(no, [_|_], S, 'ripeness needs a mutually hurting stalemate as well as a way out: the stalemate is missing') :-
    join(['The conflict is not ripe: the hurting stalemate is missing. A way out is in sight, but the parties are not shown to be stuck in a costly deadlock.'], S).
zt_missing_part(no, [], S, 'ripeness needs both a mutually hurting stalemate and a way out: both are missing') :-
    join(['The conflict is not ripe: both parts are missing, the hurting stalemate and the way out.'], S).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% ripeness is a strong reading; a hurting stalemate without a way out still a telling one; a
% conflict that is neither a weak one
strength(ripe-yes, Score, Ids) :- finding(ripe, yes, _, Ids, _), reading_strength(0.95, Ids, Score).
strength(hurting_stalemate-yes, Score, Ids) :- finding(hurting_stalemate, yes, _, Ids, _), reading_strength(0.85, Ids, Score).
strength(ripe-no, Score, Ids) :- finding(ripe, no, _, Ids, _), reading_strength(0.25, Ids, Score).
