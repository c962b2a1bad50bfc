% Glasl's nine stages of escalation (1982), read from recent evidence: the stage is
% the highest stage whose indicators hold in the recent window (lib: current/1).
%   1-3 win-win:   positions harden, debate, talks still held, deeds not words
%   4-6 win-lose:  coalitions, loss of face (accusations), strategies of threats
%   7-9 lose-lose: limited destructive blows, fragmentation, together into the abyss

:- module(glasl, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no claims or events: nothing shows how the parties deal with each other') :-
    \+ (claim(_, _) ; event(_, _)).
missing('fewer than two actors: escalation is between parties') :-
    kind_count('Actor', N), N < 2.

% ---- indicators -------------------------------------------------------------

indicator(positions, 1, 'positions and demands stated (Position, Demand claims)').
indicator(talks, 1, 'the parties still talk (CONSULT events)').
indicator(deeds, 1, 'deeds instead of words (PROTEST, MOBILIZE, SANCTION events)').
indicator(coalitions, 1, 'coalitions formed with other actors (ALLIED_WITH)').
indicator(loss_of_face, 1, 'public accusations (Accusation claims)').
indicator(threats, 1, 'strategies of threats (Threat claims, THREATEN events)').
indicator(violence, 1, 'limited destructive blows (ASSAULT events)').
indicator(fatalities_rising, 1, 'fatalities rising from one window to the next (two or more recent ASSAULT events)').
indicator(existential_threats, 1, 'threats against the other side''s existence').
indicator(talks_refused, 1, 'refusal of all talks (REJECT events, claims refusing negotiation)').

present(positions, Ids) :- current_claims('Position', P), current_claims('Demand', D), append(P, D, Ids), nonempty(Ids).
present(talks, Ids) :- current_events('CONSULT', Ids), nonempty(Ids).
present(deeds, Ids) :- current_events('PROTEST', P), current_events('MOBILIZE', M), current_events('SANCTION', S),
    append([P, M, S], Ids), nonempty(Ids).
present(coalitions, Ids) :- ids(E, (edge(E, 'ALLIED_WITH', A, B, _), party_like(A), party_like(B)), Ids), nonempty(Ids).
present(loss_of_face, Ids) :- current_claims('Accusation', Ids), nonempty(Ids).
present(threats, Ids) :- current_claims('Threat', C), current_events('THREATEN', E), append(C, E, Ids), nonempty(Ids).
present(violence, Ids) :- current_events('ASSAULT', Ids), nonempty(Ids).
present(fatalities_rising, Recent) :-
    events_of_type('ASSAULT', All), recent_ids(All, Recent), earlier_ids(All, Earlier), at_least(2, Recent),
    fatalities(Recent, FR), fatalities(Earlier, FE), FR > FE.
present(existential_threats, Ids) :-
    current_claims('Threat', T), current_claims('RedLine', R), append(T, R, Cs),
    keywords(existential_words, Words), mentioning(Cs, Words, Ids), nonempty(Ids).
present(talks_refused, Ids) :-
    current_events('REJECT', Rejections),
    current_claims('RedLine', R), current_claims('Position', P), current_claims('Denial', D), append([R, P, D], Cs0),
    keywords(refusal_words, Words), mentioning(Cs0, Words, Cs),
    append(Rejections, Cs, Ids0), sort(Ids0, Ids), nonempty(Ids).

party_like(A) :- actor_role(A, Role), member(Role, [party, ally, spoiler]), !.
party_like(A) :- actor_type(A, Type), member(Type, [state, government, armed_forces, armed_group, political_party]), !.

keywords(existential_words, [annihilat, extermina, 'wipe out', 'wiped out', eradicat, 'destroy them', 'to the last', 'to the end', 'cease to exist', 'no future for']).
keywords(refusal_words, ['no negotiation', 'not negotiate', 'never negotiate', 'no talks', 'refuse talks', 'refuses talks', 'reject talks', 'rejects talks', 'no dialogue', 'will not talk', 'never talk']).

% ---- stages -------------------------------------------------------------------

% stage(S, Because): stage S holds on the indicators in Because.
stage(9, [existential_threats, talks_refused, violence]) :- present(existential_threats, _), present(talks_refused, _), present(violence, _).
stage(8, [violence, fatalities_rising]) :- present(violence, _), present(fatalities_rising, _).
stage(7, [violence]) :- present(violence, _).
stage(6, [threats]) :- present(threats, _).
stage(5, [loss_of_face]) :- present(loss_of_face, _).
stage(4, [coalitions]) :- present(coalitions, _).
stage(3, [deeds]) :- present(deeds, _).
stage(2, [positions, talks]) :- present(positions, _), present(talks, _).
stage(1, [positions]) :- present(positions, _).
stage(1, [talks]) :- present(talks, _).

% the highest stage that holds (stage/2 lists them from 9 down)
current_stage(S, Because) :- stage(S, Because), !.

stage_name(1, 'hardening'). stage_name(2, 'debates and polemics'). stage_name(3, 'actions, not words').
stage_name(4, 'images and coalitions'). stage_name(5, 'loss of face'). stage_name(6, 'strategies of threats').
stage_name(7, 'limited destructive blows'). stage_name(8, 'fragmentation of the enemy'). stage_name(9, 'together into the abyss').

level(S, win_win, 'win-win') :- S =< 3, !.
level(S, win_lose, 'win-lose') :- S =< 6, !.
level(_, lose_lose, 'lose-lose').

intervention(S, moderation) :- S =< 2, !.
intervention(S, process_support) :- S =< 4, !.
intervention(S, mediation) :- S =< 6, !.
intervention(7, arbitration) :- !.
intervention(_, power_intervention).

intervention_text(moderation, 'moderation by a facilitator').
intervention_text(process_support, 'process support (facilitated dialogue on the relationship)').
intervention_text(mediation, 'mediation by a trusted third party').
intervention_text(arbitration, 'arbitration or a court decision').
intervention_text(power_intervention, 'power intervention (a third party able to impose a stop to violence)').

stage_evidence(Because, Evidence) :- findall(Id, (member(I, Because), present(I, Ids), member(Id, Ids)), L), sort(L, Evidence).

% ---- findings -------------------------------------------------------------------

% the stage and its evidence are worked out once; each finding reads them
finding(Key, Value, Sentence, Evidence, Because) :-
    current_stage(S, StageBecause), stage_evidence(StageBecause, Evidence),
    stage_finding(S, StageBecause, Key, Value, Sentence, Because).

stage_finding(S, StageBecause, stage, S, Sentence, [Rule|StageBecause]) :-
    stage_name(S, Name),
    atomic_list_concat(['stage ', S, ' holds when ', Name, ' is seen in recent evidence'], Rule),
    join(['The conflict is at Glasl stage ', S, ' of 9 (', Name, ').'], Sentence).
stage_finding(S, _, level, Level, Sentence, [Rule]) :-
    level(S, Level, Text),
    atomic_list_concat(['stages 1-3 are win-win, 4-6 win-lose, 7-9 lose-lose; stage ', S, ' is ', Text], Rule),
    join(['At that stage the parties act ', Text, '.'], Sentence).
stage_finding(S, _, intervention, I, Sentence, [Rule]) :-
    intervention(S, I), intervention_text(I, Text),
    atomic_list_concat(['Glasl matches third-party roles to stages; stage ', S, ' calls for ', I], Rule),
    join(['The fitting intervention is ', Text, '.'], Sentence).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% the win-lose stages (4-6) are what the escalation model reads that no other framework does; the
% violent ones (7-9) several frameworks read; the first three are a weak reading of a conflict
strength(stage-S, Score, Ids) :- finding(stage, S, _, Ids, _), gl_stage_weight(S, W), reading_strength(W, Ids, Score).

gl_stage_weight(S, 0.5) :- S =< 3, !.
gl_stage_weight(S, 0.85) :- S =< 6, !.
gl_stage_weight(_, 0.8).
