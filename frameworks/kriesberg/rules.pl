% Kriesberg's conflict life cycle (1998): the phase is read from the mix of events and how it
% changes over time, comparing the recent window (the 180 days before the reference date)
% with the window of the same length before it. Violence = ASSAULT and COERCE events.
%   post_conflict   a settlement (Commitment claim of agreement, or AGREE event) older than the
%                   recent window, with no violence after it
%   settlement      a settlement in the recent window with no violence after it
%   escalating      violence rising from one window to the next, or newly begun
%   de_escalating   violence falling, or AGREE/CONCEDE/RETREAT moves rising or later than the
%                   last violence while violence does not rise
%   stalemate       violence going on at a steady level (failed talks confirm it: CONSULT events
%                   or Offer claims followed by more violence, REJECT events)
%   emerging        no violence in either window; demands, accusations, threats, protests
%   latent          no violence and no open contention: grievances only (or nothing current)
% Whole-graph sets (every violent event) are only read inside short helpers that hand back what
% the rules need (counts, the ids of a window, a number of days), so that the rules read as
% statements about windows and counts rather than about lists.
% Helpers of this module are prefixed kr_.

:- module(kriesberg, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no dated events: the phase is read from how events change over time') :-
    nodes_where('Event', _, _, Es), \+ ( member(E, Es), dated(E, _) ).  % stops at the first dated one
missing('fewer than two actors: a conflict''s life cycle is a relation between parties') :-
    \+ nodes_where('Actor', _, _, [_, _ | _]).

% ---- indicators -------------------------------------------------------------

indicator(grievances, 0.5, 'grievances held: current Grievance claims').
indicator(contention, 1, 'open contention without violence: current Demand, Accusation, Threat or RedLine claims; PROTEST, ACCUSE, THREATEN, MOBILIZE or SANCTION events').
indicator(violence, 1, 'violence: ASSAULT or COERCE events in the recent window').
indicator(violence_rising, 1, 'violence rising: more ASSAULT and COERCE events in the recent window than in the one before').
indicator(violence_falling, 1, 'violence falling: fewer ASSAULT and COERCE events in the recent window than in the one before').
indicator(failed_talks, 1, 'failed talks: CONSULT events or Offer claims followed by more violence, or REJECT events, in the last two windows').
indicator(peace_moves, 1, 'de-escalating moves: AGREE, CONCEDE or RETREAT events in the recent window').
indicator(agreement, 1, 'an agreement: a Commitment claim of ceasefire, peace agreement or accord, or an AGREE event, with no violence after it').

% the two windows of violence are read once per call
present(Name, Ids) :- kr_window(Wv), kr_present(Name, Wv, Ids), nonempty(Ids).

kr_present(grievances, _, Ids) :- current_claims('Grievance', Ids).
kr_present(contention, _, Ids) :- kr_contention(Ids).
kr_present(violence, w(R, _, _, _, _), R).
kr_present(violence_rising, w(R, _, _, _, rising), R).
kr_present(violence_falling, Wv, Ids) :- kr_falling(Wv), Wv = w(R, E, _, _, _), append(R, E, I0), sort(I0, Ids).
kr_present(failed_talks, _, Ids) :- kr_failed_talks(Ids).
kr_present(peace_moves, _, Ids) :- kr_peace_window(0, PR), PR = Ids.
kr_present(agreement, _, Ids) :- kr_settlement(_, Ids).

% ---- sets ---------------------------------------------------------------------

kr_violence_types(['ASSAULT', 'COERCE']).
kr_peace_types(['AGREE', 'CONCEDE', 'RETREAT']).

% kr_events_in(+Types, +From, +To, -Ids): the events of Types dated From..To days before the reference date
kr_events_in(Types, From, To, Ids) :-
    findall(Es, (member(T, Types), events_of_type(T, All), filter_ids(All, window(From, To), Es)), L), append(L, I0), sort(I0, Ids).

% kr_violence_in(+From, +To, -Ids) and kr_violence_exists(+From, +To)
kr_violence_in(From, To, Ids) :- kr_violence_types(Ts), kr_events_in(Ts, From, To, Ids).
kr_violence_exists(From, To) :-
    kr_violence_types(Ts), member(T, Ts), events_of_type(T, All), filter_ids(All, window(From, To), [_|_]), !.

% kr_window(-w(Recent, Earlier, NRecent, NEarlier, Trend)): the violent events of the recent window and
% of the window before, their counts and the trend (the library's rule: a change of two or more and
% a quarter or more)
% (computed once per graph view and kept, view_set/3: read by every indicator and the phase)
kr_window(Wv) :- view_set(kr_window, kr_window0, Wv).
kr_window0(w(R, E, NR, NE, T)) :-
    recent_window(W), W1 is W + 1, W2 is 2 * W,
    kr_violence_in(0, W, R), kr_violence_in(W1, W2, E), count_ids(R, NR), count_ids(E, NE), trend_of(NR, NE, T).

% kr_peace_window(+Which, -Ids): AGREE, CONCEDE, RETREAT events of the recent window (0) or the one before (1)
kr_peace_window(0, Ids) :- recent_window(W), kr_peace_types(Ts), kr_events_in(Ts, 0, W, Ids).
kr_peace_window(1, Ids) :- recent_window(W), W1 is W + 1, W2 is 2 * W, kr_peace_types(Ts), kr_events_in(Ts, W1, W2, Ids).

keywords(kr_agreement_words, [ceasefire, 'cease-fire', truce, armistice, 'peace agreement', 'peace accord', 'peace deal', 'peace treaty',
    accord, agreement, 'settlement', 'end the war', 'end to the war', 'end the fighting', 'end to the fighting']).

kr_contention(Ids) :-
    findall(Cs, (member(T, ['Demand', 'Accusation', 'Threat', 'RedLine']), current_claims(T, Cs)), CL),
    findall(Es, (member(T, ['PROTEST', 'ACCUSE', 'THREATEN', 'MOBILIZE', 'SANCTION']), current_events(T, Es)), EL),
    append(CL, EL, L), append(L, I0), sort(I0, Ids).

% kr_after(+Days, -After): the violent events dated after a day Days before the reference date
kr_after(Days, After) :- ( Days >= 1 -> To is Days - 1, kr_violence_in(0, To, After) ; After = [] ).
kr_none_after(Days) :- ( Days >= 1 -> To is Days - 1, \+ kr_violence_exists(0, To) ; true ).

% kr_latest_violence(-Days): days before the reference date of the latest violent event (kept for
% the view, view_set/3: the phases and the failed talks read it)
kr_latest_violence(Days) :- view_set(kr_latest_violence, kr_latest_violence_, Days).
kr_latest_violence_(Days) :-
    kr_violence_types(Ts), findall(D, (member(T, Ts), events_of_type(T, All), kr_latest(All, D)), Ds), Ds \== [], min_list(Ds, Days).

% the days grown by a write: the fewest of those kept and of the violent events it added (a write only adds nodes; one
% that moves the reference date has them found again: unseen_changes/3 of lib/graph.pl), where a write of an event had
% every violent event's date read again (some 200k inferences at 1M facts)
added_answer(kr_latest_violence, added(Nodes, _, _), Days0, Days) :-
    added_node_ids(Nodes, Ids), kr_violence_types(Ts),
    findall(Id, ( member(Id, Ids), member(T, Ts), event(Id, T) ), Violent),
    ( kr_latest(Violent, D) -> Days is min(Days0, D) ; Days = Days0 ).

% kr_settlement(-Days, -Markers): the latest settlement marker (Commitment claim of agreement or AGREE
% event), Days before the reference date, with no violence dated after it; Markers are the settlement
% markers from that one on (kept for the view, view_set/3: the indicators and the phase read it)
kr_settlement(Days, Markers) :- view_set(kr_settlement, kr_settlement_, Days-Markers).
kr_settlement_(Days-Markers) :-
    claims_of_type('Commitment', Cs), keywords(kr_agreement_words, W), mentioning(Cs, W, Ms1),
    events_of_type('AGREE', Ms2), kr_latest(Ms1, D1, Ms2, D2, Days), kr_none_after(Days),
    filter_ids(Ms1, window(0, Days), K1), filter_ids(Ms2, window(0, Days), K2), append(K1, K2, K0), sort(K0, Markers).

% the latest of two sets
kr_latest(A, DA, B, DB, D) :-
    ( kr_latest(A, DA) -> true ; DA = none ), ( kr_latest(B, DB) -> true ; DB = none ),
    ( DA == none -> DB \== none, D = DB ; DB == none -> D = DA ; D is min(DA, DB) ).

kr_falling(w(_, _, NR, NE, T)) :- ( T == falling -> true ; NR < NE ).

% talks (CONSULT events, Offer claims) in the last two windows followed by violence, and REJECT events:
% the talks dated before the latest violent event, with the violence after the first of them
kr_failed_talks(Ids) :-
    recent_window(W), W2 is 2 * W,
    events_of_type('CONSULT', T1), filter_ids(T1, window(0, W2), K1),
    claims_of_type('Offer', T2), filter_ids(T2, window(0, W2), K2), append(K1, K2, Talks),
    (   Talks \== [], kr_latest_violence(LV), From is LV + 1, filter_ids(Talks, window(From, W2), Failed), Failed \== []
    ->  kr_earliest(Failed, First), kr_after(First, After)
    ;   Failed = [], After = []
    ),
    events_of_type('REJECT', R0), filter_ids(R0, window(0, W2), R),
    append([R, Failed, After], I0), sort(I0, Ids).

% the recent peace moves come after the last violent event (none of the violence is later)
kr_peace_after_violence(PR, Ids) :-
    nonempty(PR), kr_latest(PR, D), kr_none_after(D), filter_ids(PR, window(0, D), Ids).

% ---- the phase ------------------------------------------------------------------

% kr_phase(+Window, -Phase, -Evidence, -Because, -Sentence): the phases in order; the first whose
% rule holds is the phase (the caller cuts)
kr_phase(_, Phase, Ms, [Rule, agreement], Sentence) :-
    kr_settlement(Days, Ms), recent_window(W),
    (   Days > W
    ->  Phase = post_conflict,
        Rule = 'post-conflict when the last settlement is older than the recent window and no violence followed it',
        join(['The conflict is in its post-conflict phase: the last agreement was reached ', Days, ' days before the reference date, longer ago than the recent window, and no violence (ASSAULT, COERCE) has followed it.'], Sentence)
    ;   Phase = settlement,
        Rule = 'settlement when an agreement (ceasefire, accord, AGREE) falls in the recent window and no violence followed it',
        join(['The conflict has reached settlement: an agreement was reached ', Days,
              ' days before the reference date and no violence (ASSAULT, COERCE) has followed it.'], Sentence)
    ).
kr_phase(w(R, _, NR, NE, rising), escalating, R, ['escalating when violent events rise from one window to the next', violence_rising, violence], Sentence) :-
    kr_events(NR, RT), recent_window(Days), join(['The conflict is escalating: ', RT, ' (ASSAULT, COERCE) in the last ', Days, ' days against ', NE, ' in the ', Days, ' days before.'], Sentence).
kr_phase(w(R, [], NR, _, _), escalating, R, ['escalating when violence begins: violent events in the recent window and none before', violence], Sentence) :-
    nonempty(R), recent_window(W), Lo is W + 1, \+ kr_violence_exists(Lo, 1000000),
    kr_events(NR, RT),
    recent_window(Days), join(['The conflict is escalating: violence has begun, with ', RT, ' (ASSAULT, COERCE) in the last ', Days, ' days and none before.'], Sentence).
kr_phase(Wv, de_escalating, Ids, [Rule | Inds], Sentence) :-
    Wv = w(R, E, NR, NE, T), T \== rising, nonempty(E),
    ( kr_falling(Wv) -> Falling = yes ; Falling = no ),
    kr_peace_window(0, PR), kr_peace_window(1, PE),
    ( kr_peace_after_violence(PR, PA) -> true ; PA = [] ),
    count_ids(PR, NPR), count_ids(PE, NPE), ( trend_of(NPR, NPE, rising) -> PeaceRising = yes ; PeaceRising = no ),
    ( Falling == yes ; PA \== [] ; PeaceRising == yes ), !,
    append([R, E, PR, PE], I0), sort(I0, Ids),
    findall(I, (member(I-C, [violence_falling-Falling, peace_moves-PR]), C \== no, C \== []), Inds),
    (   Falling == yes
    ->  Rule = 'de-escalating when violent events fall from one window to the next',
        ( PR == [] -> Moves = '' ; join([', alongside moves towards agreement or withdrawal (', PR, ')'], Moves) ),
        kr_events(NR, RT), recent_window(Days), join(['The conflict is de-escalating: ', RT, ' (ASSAULT, COERCE) in the last ', Days, ' days against ', NE, ' in the ', Days, ' days before', Moves, '.'], Sentence)
    ;   Rule = 'de-escalating when AGREE, CONCEDE or RETREAT moves rise or come after the last violence, while violence does not rise',
        join(['The conflict is de-escalating: moves towards agreement or withdrawal (', PR, ') come after the last violence, which is not rising.'], Sentence)
    ).
kr_phase(w(R, E, NR, NE, _), stalemate, Ids, [Rule, violence | Inds], Sentence) :-
    nonempty(R),
    kr_failed_talks(F), append([R, E, F], I0), sort(I0, Ids),
    kr_events(NR, RT),
    (   F \== []
    ->  Inds = [failed_talks], Rule = 'stalemate when violence goes on at a steady level and talks fail',
        recent_window(Days), join(['The conflict is in a stalemate: violence goes on at a steady level (', RT, ' in the last ', Days, ' days, ', NE,
              ' in the ', Days, ' days before) and talks or offers were followed by more violence or rejected.'], Sentence)
    ;   Inds = [], Rule = 'stalemate when violence goes on at a steady level, neither rising nor falling',
        recent_window(Days), join(['The conflict is in a stalemate: violence goes on at a steady level (', RT, ' in the last ', Days, ' days, ', NE,
              ' in the ', Days, ' days before), neither rising nor falling.'], Sentence)
    ).
kr_phase(w([], [], _, _, _), emerging, Ids, ['emerging when parties make demands, accuse, threaten or protest without violence', contention], Sentence) :-
    kr_contention(Ids), nonempty(Ids),
    recent_window(Days), Span is 2 * Days, join(['The conflict is emerging: the parties make demands, accusations or threats, or protest, but no violence (ASSAULT, COERCE) is recorded in the last ', Span, ' days.'], Sentence).
kr_phase(w([], [], _, _, _), latent, Ids, ['latent when grievances are held but not pressed', grievances], Sentence) :-
    current_claims('Grievance', Ids), nonempty(Ids),
    join(['The conflict is latent: grievances are held (', Ids, ') but not pressed with demands, protests or violence.'], Sentence).
kr_phase(_, latent, Ids, ['latent when nothing contentious is current: no violence, demands or protests in the last two windows'], Sentence) :-
    nodes_where('Event', _, _, Es), filter_ids(Es, dated, D), kr_latest(D, Days), filter_ids(D, window(Days, Days), Ids),
    recent_window(Window), Span is 2 * Window, join(['The conflict is latent: nothing contentious is current (no violence, demands or protests in the last ', Span, ' days).'], Sentence).

% kr_events(+N, -Text): "1 violent event", "3 violent events"
kr_events(1, '1 violent event') :- !.
kr_events(N, T) :- atomic_list_concat([N, ' violent events'], T).

% ---- findings -------------------------------------------------------------------

% the phase is computed once per graph view (kept, view_set/3: the findings and the strength read it, where the
% strength built it again, some 17k of kriesberg's 110k inferences at 100k facts); the trend finding falls back on
% its evidence
finding(Key, Value, Sentence, Evidence, Because) :-
    kr_window(Wv), view_set(kr_phase, kr_phase_, phase(Phase, PE, PB, PS)),
    kr_finding(Key, Wv, phase(Phase, PE, PB, PS), Value, Sentence, Evidence, Because).

kr_phase_(phase(Phase, PE, PB, PS)) :- kr_window(Wv), findall(p(Ph, E, B, S), (kr_phase(Wv, Ph, E, B, S), !), [p(Phase, PE, PB, PS)]).

kr_finding(phase, _, phase(Phase, E, B, S), Phase, S, E, B).
kr_finding(trend, w(R, E, NR, NE, Trend), phase(_, PE, _, _), Trend, Sentence, Evidence, [Rule | Inds]) :-
    append(R, E, E0), sort(E0, Evidence0),
    ( Evidence0 == [] -> Evidence = PE ; Evidence = Evidence0 ),
    atomic_list_concat(['the trend compares the violent events (ASSAULT, COERCE) of the recent window, ', NR,
        ', with those of the window before, ', NE, '; a change of two or more and a quarter or more counts'], Rule),
    findall(I, (member(I-T, [violence_rising-rising, violence_falling-falling]), T == Trend), Inds),
    kr_trend_text(Trend, NR, NE, Sentence).

kr_trend_text(steady, 0, 0, S) :- !, recent_window(Days), join(['Violence is steady: no violent events (ASSAULT, COERCE) in the last ', Days, ' days or in the ', Days, ' days before.'], S).
kr_trend_text(Trend, NR, NE, S) :-
    kr_events(NR, R), recent_window(Days), join(['Violence is ', Trend, ': ', R, ' in the last ', Days, ' days against ', NE, ' in the ', Days, ' days before.'], S).

% ---- time -----------------------------------------------------------------------

% kr_latest(+Ids, -Days) and kr_earliest(+Ids, -Days): how many days before the reference date the
% latest (earliest) id dated up to then (and within a hundred years) happened
kr_latest(Ids, Days) :- kr_days_within(Ids, Ds), min_list(Ds, Days).
kr_earliest(Ids, Days) :- kr_days_within(Ids, Ds), max_list(Ds, Days).
kr_days_within(Ids, Ds) :- id_days(Ids, IdDays), findall(D, ( member(_-D, IdDays), D >= 0, D =< 36500 ), Ds).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% the phases before and after the fighting are the life-cycle reading's own; emerging contention
% (anything from demands to threats without violence) is less specific than an escalation stage,
% and escalation is read as well by the escalation and violence frameworks
strength(phase-P, Score, Ids) :- finding(phase, P, _, Ids, _), kr_phase_weight(P, W), reading_strength(W, Ids, Score).

kr_phase_weight(latent, 0.9).
kr_phase_weight(emerging, 0.75).
kr_phase_weight(de_escalating, 0.9).
kr_phase_weight(settlement, 0.85).
kr_phase_weight(post_conflict, 0.9).
kr_phase_weight(stalemate, 0.85).
kr_phase_weight(escalating, 0.65).
