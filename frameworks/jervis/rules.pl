% Jervis's security dilemma and spiral model (1976, 1978): what one side does to be safer
% (arming, mobilising, declaring it must defend itself) the other reads as a threat and
% answers in kind, which the first reads as confirming its fears: a spiral.
%   defensive move  a MOBILIZE event an actor carries out, or a claim of its framed as defensive
%                   (defend, defensive, deterrence, protect our, security...)
%   reaction        a THREATEN or MOBILIZE event, or a Threat claim, of the other side of an
%                   opposing pair (OPPOSES, or hostile events and claims), dated after the move
%                   and within 90 days of it: one step of the spiral
%   spiral          steps both ways between the two sides (each side reacts at least once)
% Moves are read in the last two windows (the 360 days before the reference date): a spiral is
% a present dynamic. spiral_pair(A, B) is callable from queries, bound or not:
%   MATCH (a:Actor), (b:Actor) WHERE spiral_pair(a, b) RETURN a.label, b.label
% Helpers of this module are prefixed jv_.

:- module(jervis, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2, spiral_pair/2]).

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: a security dilemma is between two sides') :-
    kind_count('Actor', N), N < 2.
missing('no opposing parties: no OPPOSES edge, hostile event or hostile claim shows who faces whom') :-
    hostile_actor_pairs([]).
missing('no military or defensive moves: no MOBILIZE or THREATEN events, no Threat claims and no claims framed as defensive (defend, deterrence, security)') :-
    \+ jv_move_set(_).
missing('no dated moves: a spiral is read from moves that follow each other in time') :-
    jv_move_set(_), \+ ( jv_move_set(Ms), filter_ids(Ms, dated, [_|_]) ).

% ---- indicators -------------------------------------------------------------

indicator(defensive_moves, 1, 'moves to be safer: MOBILIZE events, or claims framed as defensive, by a side of an opposing pair').
indicator(defensive_framing, 0.5, 'defence as the stated reason: claims speaking of defence, deterrence, protection or security').
indicator(threat_responses, 1, 'defensive moves answered: the other side''s THREATEN or MOBILIZE events or Threat claims within 90 days after them').
indicator(reciprocal, 1, 'reciprocal steps: each side of a pair answers the other''s moves at least once').
indicator(recent_steps, 0.5, 'the spiral is live: a reaction falls in the recent window (the last 180 days)').

% the pairs' steps are computed once per call, and every indicator read from them
present(Name, Ids) :- jv_states(States), jv_present(Name, States, Ids), nonempty(Ids).

jv_present(defensive_moves, _, Ids) :- jv_movers(Movers), findall(T, member(m(_, T, _), Movers), L), append(L, I0), sort(I0, Ids).
jv_present(defensive_framing, _, Ids) :- jv_defensive_claims(Ids).
jv_present(threat_responses, States, Ids) :- jv_step_ids(States, _, Ids).
jv_present(reciprocal, States, Ids) :- jv_spirals_of(States, Spirals), findall(E, member(sp(_, _, E), Spirals), L), append(L, I0), sort(I0, Ids).
jv_present(recent_steps, States, Ids) :- jv_step_ids(States, Reactions, _), recent_ids(Reactions, Ids).

% ---- sets ---------------------------------------------------------------------

keywords(jv_defence_words, [defend, defensive, defence, defense, deterren, ' deter ', 'to deter', 'protect our', 'protect the country', 'protect the nation',
    'protect its', security, precaution, safeguard]).

jv_window(Days) :- recent_window(W), Days is 2 * W.
jv_reach(90).

jv_defensive_claims(Ids) :- keywords(jv_defence_words, W), nodes_mentioning('Claim', W, Cs), jv_window(D), filter_ids(Cs, window(0, D), Ids).

jv_in_window(Ids0, Ids) :- jv_window(D), filter_ids(Ids0, window(0, D), Ids).

% jv_move_set(-Ids): the non-empty sets of moves: MOBILIZE and THREATEN events, Threat claims, defensive claims
jv_move_set(Ids) :- events_of_type('MOBILIZE', Ids), Ids \== [].
jv_move_set(Ids) :- events_of_type('THREATEN', Ids), Ids \== [].
jv_move_set(Ids) :- claims_of_type('Threat', Ids), Ids \== [].
jv_move_set(Ids) :- keywords(jv_defence_words, W), nodes_mentioning('Claim', W, Ids), Ids \== [].

% jv_ctx(-ctx(Triggers, Reactions)): Actor-Ids lists of each actor's defensive moves and of its
% threatening or mobilising reactions, dated in the last two windows
jv_ctx(ctx(Triggers, Reactions)) :-
    events_of_type('MOBILIZE', M0), jv_in_window(M0, M), events_of_type('THREATEN', T0), jv_in_window(T0, T),
    claims_of_type('Threat', C0), jv_in_window(C0, C), jv_defensive_claims(D),
    doers(M, ByM), speakers(D, ByD), append(ByM, ByD, Tr0), merge_groups(Tr0, Triggers),
    append(M, T, MT), doers(MT, ByMT), speakers(C, ByC), append(ByMT, ByC, Re0), merge_groups(Re0, Reactions).

% jv_steps(+Moves, +Answers, -Steps): step(Move, Reactions) for each move answered within 90 days;
% Moves and Answers are Id-Days lists (days before the reference date, read once per id)
jv_steps([], _, []) :- !.
jv_steps(_, [], []) :- !.
jv_steps(Moves, Answers, Steps) :-
    jv_reach(Reach),
    findall(step(M, R), ( member(M-D, Moves), D >= 1, Lo is D - Reach,
                          findall(A, ( member(A-DA, Answers), DA >= Lo, DA < D ), R), R \== [] ), Steps).

% jv_states(-States): ps(A, B, StepsAB, StepsBA, TriggerIds) for each opposing pair (A @< B) with a
% step either way: StepsAB are B's reactions to A's moves, StepsBA A's reactions to B's. The pairs
% with moves but no step, and those without moves, are read apart (jv_movers/1, jv_closest/5).
jv_states(States) :- jv_model(jm(_, _, States)).

% jv_movers(-Movers): m(A, Moves, Opponents) for each actor of an opposing pair that made defensive moves
jv_movers(Movers) :- jv_model(jm(_, Movers, _)).

% jv_recs(-Recs): Actor-r(Moves, DatedMoves, DatedReactions) in one pass, indexed by actor, so
% that each pair looks its two sides up in the index; the dated lists hold Id-Days
jv_recs(Recs) :- jv_model(jm(Recs, _, _)).

% jv_model(-jm(Recs, Movers, States)): the records, the movers and the pairs' states, kept together for the
% graph view (view_set/3: computed once, and every indicator and finding reads the same), so that a write grows
% the movers and the states over the records it grew (added_answer/4 below)
jv_model(Model) :- view_set(jv_model, jv_model_, Model).
jv_model_(jm(Recs, Movers, States)) :-
    jv_recs_(Recs),
    hostile_partners(Partners),
    findall(m(A, TA, Bs), ( member(A-Bs, Partners), jv_rec(A, Recs, r(TA, _, _)), TA \== [] ), Movers),
    % the pairs where a step can be: a mover and an opponent that reacts
    findall(X-Y, ( member(m(A, _, Bs), Movers), member(B, Bs), jv_rec(B, Recs, r(_, _, [_|_])), order_pair(A, B, X, Y) ), Ps0),
    sort(Ps0, Pairs),
    jv_pair_states(Pairs, Recs, States).

% jv_pair_states(+Pairs, +Recs, -States): the states of the pairs A-B (sorted) with a step either way
jv_pair_states(Pairs, Recs, States) :-
    findall(ps(A, B, SAB, SBA, Ts),
            ( member(A-B, Pairs), jv_rec(A, Recs, r(TA, DTA, DRA)), jv_rec(B, Recs, r(TB, DTB, DRB)),
              jv_steps(DTA, DRB, SAB), jv_steps(DTB, DRA, SBA), \+ ( SAB == [], SBA == [] ), append(TA, TB, Ts0), sort(Ts0, Ts) ),
            States).

jv_recs_(Recs) :-
    jv_ctx(ctx(Tr, Re)),
    findall(K-t(T, Ids), ( member(T-G, [m-Tr, r-Re]), member(K-Ids, G) ), L), msort(L, S), collect_tagged(S, r([], [], []), jv_fill, Pairs),
    list_to_assoc(Pairs, Recs).
jv_fill(m, Ids, r(_, _, R), r(Ids, D, R)) :- id_days(Ids, D).
jv_fill(r, Ids, r(M, D, _), r(M, D, R)) :- id_days(Ids, R).

% added_answer(+Key, +Added, +Answer, -Grown): the model grown with a write (lib/graph.pl grown/3), where a write of a
% claim or an event had it found again whole. The record of each node the write added or an edge added ends at
% (added_ends/2) is found again from its own edges and put in place of its old one. A pair's state changes with the
% record of either side or when the write makes it a pair: the states of the pairs of each node whose record changed
% (its opponents read from its own edges, own_opponents/2) and of the hostile pairs the write added are found
% again, the others kept. A mover's entry changes with its record or its opponents: a mover held takes its new
% opponents, a new one reads them all. So a write to a hub (thousands of opponents) that leaves its record as it was
% finds none of its pairs again. The windows read the reference date: a write that moves it has the model found
% again whole, never grown (unseen_changes/3 of lib/graph.pl).
added_answer(jv_model, Added, jm(Recs0, Movers0, States0), jm(Recs, Movers, States)) :-
    added_ends(Added, Ends), foldl(jv_put_own_rec, Ends, Recs0, Recs),
    include(jv_rec_changed(Recs0, Recs), Ends, Changed),
    added_hostile_pairs(Added, AddedPairs),
    both_ways(AddedPairs, Both), keysort(Both, BothSorted), group_pairs_by_key(BothSorted, NewOpponents),
    pairs_keys(NewOpponents, Sided), ord_union(Changed, Sided, Touched),
    findall(m(X, TX, Bs), ( member(X, Touched), jv_rec(X, Recs, r(TX, _, _)), TX \== [], jv_mover_opponents(X, Movers0, NewOpponents, Bs), Bs \== [] ), NewMovers),
    put_by_subject(Movers0, NewMovers, Movers),
    % a pair of X and one of its opponents Y can step when one of them moves and the other reacts
    findall(A-B, ( ( member(X, Changed), ( memberchk(m(X, _, Bs), NewMovers) -> true ; own_opponents(X, Bs) ), member(Y, Bs), order_pair(X, Y, A, B)
                   ; member(A-B, AddedPairs) ),
                   jv_rec(A, Recs, r(TA, _, RA)), jv_rec(B, Recs, r(TB, _, RB)), ( TA \== [], RB \== [] ; TB \== [], RA \== [] ) ), Ps0),
    sort(Ps0, Pairs), jv_pair_states(Pairs, Recs, New),
    exclude(jv_state_of(Changed, AddedPairs), States0, Kept),
    append(Kept, New, States1), sort(States1, States).

jv_rec_changed(Recs0, Recs, X) :- jv_rec(X, Recs0, R0), jv_rec(X, Recs, R), R0 \== R.

% jv_mover_opponents(+X, +Movers0, +NewOpponents, -Opponents): X's opponents: those of its entry held with the new
% ones (a write only adds), else all of them, read from its own edges
jv_mover_opponents(X, Movers0, NewOpponents, Bs) :-
    (   memberchk(m(X, _, Bs0), Movers0) -> ( memberchk(X-New, NewOpponents) -> ord_union(Bs0, New, Bs) ; Bs = Bs0 )
    ;   own_opponents(X, Bs)
    ).

% (memberchk/2, one step in C, where ord_memberchk/2 walks the few nodes in Prolog for each of the thousands of states)
jv_state_of(Changed, AddedPairs, ps(A, B, _, _, _)) :- ( memberchk(A, Changed) -> true ; memberchk(B, Changed) -> true ; memberchk(A-B, AddedPairs) ).

jv_put_own_rec(X, Recs0, Recs) :-
    jv_own_moves(X, Triggers, Reactions),
    (   Triggers == [], Reactions == [] -> Recs = Recs0
    ;   id_days(Triggers, DT), id_days(Reactions, DR), put_assoc(X, Recs0, r(Triggers, DT, DR), Recs)
    ).

% jv_own_moves(+X, -Triggers, -Reactions): X's groups in jv_ctx/1's Triggers and Reactions (else []), read from X's
% own edges: the events it carries out (doers/2) and the claims it asserts (speakers/2), dated in the last two windows
jv_own_moves(X, Triggers, Reactions) :-
    own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', P), own_ends(X, 'PARTICIPATES_IN', participant, 'Event', Q),
    append(P, Q, Es0), sort(Es0, Es),
    filter_ids(Es, prop(event_type, 'MOBILIZE'), M0), jv_in_window(M0, M),
    filter_ids(Es, prop(event_type, 'THREATEN'), T0), jv_in_window(T0, T),
    own_ends(X, 'ASSERTS', _, 'Claim', Cs),
    filter_ids(Cs, prop(type, 'Threat'), C0), jv_in_window(C0, C),
    keywords(jv_defence_words, W), own_mentioning(Cs, W, D0), jv_in_window(D0, D),
    append(M, D, Tr0), sort(Tr0, Triggers),
    append([M, T, C], Re0), sort(Re0, Reactions).
jv_rec(K, Recs, R) :- get_assoc(K, Recs, R0), !, R = R0.
jv_rec(_, _, r([], [], [])).

jv_step_list_ids(Steps, Moves, Reactions) :-
    findall(M, member(step(M, _), Steps), Moves),
    findall(R, member(step(_, R), Steps), RL), append(RL, Reactions).

% jv_step_ids(+States, -Reactions, -Ids): the reactions of every step, and the moves and reactions together
jv_step_ids(States, Reactions, Ids) :-
    findall(S, (member(ps(_, _, SAB, SBA, _), States), ( member(S, SAB) ; member(S, SBA) )), Steps),
    jv_step_list_ids(Steps, Moves, R0), sort(R0, Reactions),
    append(Moves, Reactions, I0), sort(I0, Ids).

% jv_spirals_of(+States, -Spirals): sp(A, B, Evidence) for each pair in a spiral
jv_spirals_of(States, Spirals) :-
    findall(sp(A, B, Ids), ( member(ps(A, B, SAB, SBA, _), States), SAB \== [], SBA \== [],
                             append(SAB, SBA, Steps), jv_step_list_ids(Steps, Ms, Rs), append(Ms, Rs, I0), sort(I0, Ids) ), Spirals).

% spiral_pair(?A, ?B): A and B are caught in a spiral (callable from queries). Unbound, each pair once
% with A @< B; with an argument bound, in either order.
spiral_pair(A, B) :-
    jv_states(States), jv_spirals_of(States, Spirals),
    (   var(A), var(B)
    ->  member(sp(A, B, _), Spirals)
    ;   member(sp(X, Y, _), Spirals), ( A = X, B = Y ; A = Y, B = X )
    ).

% ---- why there is no spiral ----------------------------------------------------------

% the pair closest to a spiral, and why it is none: one_way(Mover, Reactor) (the first pair with
% steps one way), else unanswered (the first pair with a mover, on its moves), else no_moves (the
% first pair, on its OPPOSES edges)
jv_closest([ps(A, B, SAB, SBA, _) | _], A, B, Why, Evidence) :- !,
    ( SBA == [] -> Why = one_way(A, B) ; Why = one_way(B, A) ),
    append(SAB, SBA, Steps), jv_step_list_ids(Steps, M, R), append(M, R, I0), sort(I0, Evidence).
jv_closest([], A, B, unanswered, Evidence) :-
    jv_movers(Movers), Movers \== [], !,
    findall(X-Y, ( member(m(P, _, [Q | _]), Movers), order_pair(P, Q, X, Y) ), Firsts), msort(Firsts, [A-B | _]),
    jv_recs(Recs), jv_rec(A, Recs, r(TA, _, _)), jv_rec(B, Recs, r(TB, _, _)), append(TA, TB, E0), sort(E0, Evidence).
jv_closest([], A, B, no_moves, Evidence) :- hostile_actor_pairs([A-B | _]), pair_evidence(A, B, Evidence).

jv_why_text(A, B, one_way(M, R), S) :-
    join(['No spiral yet: ', [R], ' answered moves of ', [M], ' with threats or mobilisation within 90 days, but ', [M],
          ' has not answered in turn, so the escalation between ', [A, B], ' runs one way.'], S).
jv_why_text(A, B, unanswered, S) :-
    join(['No spiral: ', [A, B], ' make military or defensive moves, but neither answered the other''s within 90 days with threats or mobilisation.'], S).
jv_why_text(A, B, no_moves, S) :-
    jv_window(Days),
    join(['No spiral: neither ', [A], ' nor ', [B], ' mobilised or framed a move as defensive in the last ', Days, ' days.'], S).

jv_why_rule(one_way(_, _), 'a spiral needs reciprocal steps: each side must answer the other''s moves at least once').
jv_why_rule(unanswered, 'a step of a spiral is a defensive move answered by the other side''s THREATEN, MOBILIZE or Threat within 90 days').
jv_why_rule(no_moves, 'a spiral starts from a defensive move: MOBILIZE events or claims framed as defensive').

% ---- findings -------------------------------------------------------------------

% the pairs' steps are computed once per call, and every finding read from them
finding(Key, Value, Sentence, Evidence, Because) :-
    jv_states(States), jv_spirals_of(States, Spirals),
    jv_finding(Key, States, Spirals, Value, Sentence, Evidence, Because).

jv_finding(spiral, States, Spirals, Answer, Sentence, Evidence, Because) :- jv_spiral_finding(States, Spirals, Answer, Sentence, Evidence, Because).
jv_finding(spiral_pair, States, Spirals, [A, B], Sentence, Evidence,
        ['a pair is in a spiral when each side answered the other''s defensive moves with threats or mobilisation within 90 days', reciprocal]) :-
    member(sp(A, B, Evidence), Spirals),
    memberchk(ps(A, B, SAB, SBA, _), States), length(SAB, NAB), length(SBA, NBA),
    join([[A, B], ' are in a spiral: ', [B], ' answered ', NAB, ' move(s) of ', [A], ', and ', [A], ' answered ', NBA, ' of ', [B],
          ', each reading the other''s precautions as a threat.'], Sentence).

jv_spiral_finding(_, Spirals, yes, Sentence, Evidence, ['a security spiral holds when defensive moves are answered by the other side''s threats or mobilisation, both ways, within 90 days',
        defensive_moves, threat_responses, reciprocal]) :-
    Spirals \== [], !,
    findall(E, member(sp(_, _, E), Spirals), L), append(L, E0), sort(E0, Evidence),
    findall([A, B], member(sp(A, B, _), Spirals), Ps), length(Ps, N),
    ( N =:= 1 -> Ps = [[A, B]], join(['A security spiral is under way between ', [A, B], ': each side''s moves to be safer were answered by the other with threats or mobilisation.'], Sentence)
    ; findall(X, (member(P, Ps), member(X, P)), Xs0), sort(Xs0, Xs),
      join(['Security spirals are under way in ', N, ' pairs (among ', Xs, '): each side''s moves to be safer were answered by the other with threats or mobilisation.'], Sentence) ).
jv_spiral_finding(States, [], no, Sentence, Evidence, [Rule | Inds]) :-
    jv_closest(States, A, B, Why, Evidence),
    jv_why_text(A, B, Why, Sentence), jv_why_rule(Why, Rule),
    findall(I, (member(I, [defensive_moves, threat_responses]), jv_present(I, States, [_|_])), Inds).


% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

strength(spiral-yes, Score, Ids) :- finding(spiral, yes, _, Ids, _), reading_strength(0.95, Ids, Score).
strength(spiral-no, Score, Ids) :- finding(spiral, no, _, Ids, _), reading_strength(0.15, Ids, Score).
