% Lederach's pyramid of leadership (1997): who takes part in the peace process.
%   top         military, political and religious leaders with high visibility: states, governments,
%               armed forces, international organisations, armed groups' and parties' leaderships
%   middle      leaders respected in sectors: religious leaders (bishop, imam, sheikh, council of
%               elders, church, mosque), NGOs, civil society, academics, media
%   grassroots  local leaders: communities, villages, refugees and the displaced, women's and youth groups
% The process is what the parties do and say to make peace: CONSULT and AGREE events, Offer and
% Commitment claims. A level is engaged when one of its actors takes part in a process event or
% asserts a process claim. Lederach's warning: a process resting on one level does not carry the
% society with it. Helpers of this module are prefixed ld_.

% ---- applies --------------------------------------------------------------

missing('no peace process: no talks or agreements (CONSULT, AGREE events) and no offers or commitments (Offer, Commitment claims) whose participants could be placed on the pyramid') :-
    ld_process_ids([]).
missing('no participant of the process can be placed at a level: give the actors in talks, agreements, offers or commitments an actor_type (state, armed_group, ngo, civil_society, community...)') :-
    ld_process_ids([_|_]), ld_ctx(Ctx), \+ ld_engaged_level(Ctx, _, _, _).

% ---- indicators -------------------------------------------------------------

indicator(process, 1, 'a peace process: CONSULT and AGREE events, Offer and Commitment claims').
indicator(top_engaged, 1, 'top-level leaders in the process: state, government, armed forces, international organisation, armed group or party actors taking part in process events or asserting process claims').
indicator(middle_engaged, 1, 'middle-range leaders in the process: NGOs, civil society, media, religious leaders (bishop, imam, sheikh, council of elders, church, mosque) taking part or asserting process claims').
indicator(grassroots_engaged, 1, 'grassroots leaders in the process: community actors, villages, refugees, the displaced, women''s and youth groups taking part or asserting process claims').
indicator(vertical_integration, 1, 'levels meeting: process events in which actors of two or more levels take part together').

present(process, Ids) :- ld_process_ids(Ids), nonempty(Ids).
present(Name, Ids) :-
    ld_ctx(Ctx), member(Name-Level, [top_engaged-top, middle_engaged-middle, grassroots_engaged-grassroots]),
    ld_engaged_level(Ctx, Level, Actors, Said), append(Actors, Said, Ids0), sort(Ids0, Ids).
present(vertical_integration, Ids) :- ld_ctx(Ctx), ld_cross_level_events(Ctx, Ids), nonempty(Ids).

% ---- the process ---------------------------------------------------------------

ld_process(Events, Claims) :-
    events_of_type('CONSULT', C), events_of_type('AGREE', A), append(C, A, E0), sort(E0, Events),
    claims_of_type('Offer', O), claims_of_type('Commitment', M), append(O, M, C0), sort(C0, Claims).
ld_process_ids(Ids) :- ld_process(Es, Cs), append(Es, Cs, Ids0), sort(Ids0, Ids).

% ld_ctx(-ctx(Levels, ByActor, Events)): the level of each actor, each engaged actor with its process ids
ld_ctx(ctx(Levels, ByActor, Events)) :-
    ld_levels(Levels), ld_process(Events, Claims),
    participants(Events, G1), speakers(Claims, G2), append(G1, G2, G0), msort(G0, G), ld_merge(G, ByActor).

% ld_merge(+SortedPairs, -Merged): one Actor-Ids per actor
ld_merge([], []).
ld_merge([A-X, A-Y | Rest], Out) :- !, append(X, Y, XY), sort(XY, Z), ld_merge([A-Z | Rest], Out).
ld_merge([P | Rest], [P | Out]) :- ld_merge(Rest, Out).

% ---- levels of the pyramid -------------------------------------------------------

ld_top_types([state, government, armed_forces, international_org, armed_group, political_party]).
ld_middle_types([ngo, civil_society, media]).
ld_middle_words([bishop, archbishop, imam, sheikh, cleric, rabbi, priest, pastor, ulema, mufti, 'council of elders', 'elders council',
    church, mosque, 'religious leader', interfaith, 'inter-faith', university, academic, professor, 'bar association', 'trade union']).
ld_grassroots_words([local, village, refugee, displaced, 'idp', women, youth, neighbourhood, neighborhood, grassroots, farmers, herders, camp]).

% ld_levels(-lv(Top, Middle, Grassroots)): sorted actor ids of each level; an actor has one level:
% a top actor_type first, then religious and other middle-range words in the label, then community
% actors and grassroots words, then the middle-range actor_types (ngo, civil_society, media)
ld_levels(lv(Top, Middle, Grass)) :-
    ld_top_types(TT), ld_of_types(TT, Top),
    nodes_where('Actor', _, _, All),
    ld_middle_words(MW), mentioning(All, MW, MiddleWords), ld_subtract(MiddleWords, Top, Middle1),
    nodes_where('Actor', actor_type, community, Comm), ld_grassroots_words(GW), mentioning(All, GW, GrassWords),
    append(Comm, GrassWords, G0), sort(G0, G1), ld_subtract(G1, Top, G2), ld_subtract(G2, Middle1, Grass),
    ld_middle_types(MT), ld_of_types(MT, MiddleTyped), ld_subtract(MiddleTyped, Top, M2), ld_subtract(M2, Grass, M3),
    append(Middle1, M3, M0), sort(M0, Middle).

ld_of_types(Types, Ids) :- findall(L, (member(T, Types), nodes_where('Actor', actor_type, T, L)), Ls), append(Ls, I0), sort(I0, Ids).

ld_level_set(lv(T, _, _), top, T).
ld_level_set(lv(_, M, _), middle, M).
ld_level_set(lv(_, _, G), grassroots, G).

% ld_subtract(+Sorted, +Sorted, -Sorted): ordered set difference (linear)
ld_subtract([], _, []) :- !.
ld_subtract(Xs, [], Xs) :- !.
ld_subtract([X|Xs], [Y|Ys], Out) :- compare(O, X, Y), ld_subtract_(O, X, Xs, Y, Ys, Out).
ld_subtract_(<, X, Xs, Y, Ys, [X|Out]) :- ld_subtract(Xs, [Y|Ys], Out).
ld_subtract_(=, _, Xs, _, Ys, Out) :- ld_subtract(Xs, Ys, Out).
ld_subtract_(>, X, Xs, _, Ys, Out) :- ld_subtract([X|Xs], Ys, Out).

% ld_intersect(+Sorted, +Sorted, -Sorted): ordered set intersection (linear)
ld_intersect([], _, []) :- !.
ld_intersect(_, [], []) :- !.
ld_intersect([X|Xs], [Y|Ys], Out) :- compare(O, X, Y), ld_intersect_(O, X, Xs, Y, Ys, Out).
ld_intersect_(<, _, Xs, Y, Ys, Out) :- ld_intersect(Xs, [Y|Ys], Out).
ld_intersect_(=, X, Xs, _, Ys, [X|Out]) :- ld_intersect(Xs, Ys, Out).
ld_intersect_(>, X, Xs, _, Ys, Out) :- ld_intersect([X|Xs], Ys, Out).

% ld_engaged_level(+Ctx, ?Level, -Actors, -Said): the actors of Level in the process, and their process ids
ld_engaged_level(ctx(Levels, ByActor, _), Level, Actors, Said) :-
    member(Level, [top, middle, grassroots]), ld_level_set(Levels, Level, Set),
    findall(A-Ids, (member(A-Ids, ByActor), ld_intersect([A], Set, [A])), Found), nonempty(Found),
    findall(A, member(A-_, Found), Actors), findall(Ids, member(_-Ids, Found), L), append(L, S0), sort(S0, Said).

ld_engaged_levels(Ctx, Levels) :- findall(L, ld_engaged_level(Ctx, L, _, _), Levels).

% process events joining actors of two or more levels
ld_cross_level_events(Ctx, Ids) :-
    Ctx = ctx(_, _, Events),
    findall(L-Es, (ld_engaged_level(Ctx, L, _, Said), ld_intersect(Said, Events, Es)), PerLevel),
    findall(X, (member(L1-E1, PerLevel), member(L2-E2, PerLevel), L1 @< L2, ld_intersect(E1, E2, X)), Xs),
    append(Xs, I0), sort(I0, Ids).

% the actors of a level that are in the graph but not in the process
ld_outside(ctx(Levels, ByActor, _), Level, Outside) :-
    ld_level_set(Levels, Level, Set), findall(A, member(A-_, ByActor), Engaged0), sort(Engaged0, Engaged),
    ld_subtract(Set, Engaged, Outside).

ld_name(top, 'top-level leadership').
ld_name(middle, 'middle-range leadership').
ld_name(grassroots, 'grassroots leadership').
ld_kind(top, 'military, political and international leaders').
ld_kind(middle, 'religious, civil-society, NGO and media leaders').
ld_kind(grassroots, 'community, local, displaced, women''s and youth leaders').

ld_single_risk(top, 'an agreement made at the top has no middle-range or grassroots leaders to carry it through society.').
ld_single_risk(middle, 'middle-range leaders can link the levels, but here neither the leaders who decide nor the communities who live with the outcome take part.').
ld_single_risk(grassroots, 'local peace made without top-level or middle-range leaders cannot change the policies and structures that keep the conflict going.').

ld_and([X], X) :- !.
ld_and([X, Y], T) :- !, atomic_list_concat([X, ' and ', Y], T).
ld_and([X|Xs], T) :- ld_and(Xs, Rest), atomic_list_concat([X, ', ', Rest], T).

ld_indicator(top, top_engaged).
ld_indicator(middle, middle_engaged).
ld_indicator(grassroots, grassroots_engaged).

% ---- findings -------------------------------------------------------------------

finding(Key, Value, Sentence, Ids, Because) :- ld_ctx(Ctx), ld_engaged_levels(Ctx, Engaged), nonempty(Engaged),
    ld_finding(Ctx, Engaged, Key, Value, Sentence, Ids, Because).

ld_finding(Ctx, _, level_engaged, Level, Sentence, Ids, [Rule, Indicator]) :-
    ld_engaged_level(Ctx, Level, Actors, Said), append(Actors, Said, I0), sort(I0, Ids),
    ld_indicator(Level, Indicator), ld_name(Level, Name), ld_kind(Level, Kind), length(Said, N),
    ( N =:= 1 -> Through = ' process event or claim' ; Through = ' process events and claims' ),
    Rule = 'a level is engaged when its actors take part in CONSULT or AGREE events or assert Offer or Commitment claims',
    join(['The process engages ', Name, ' (', Kind, '): ', Actors, ', through ', N, Through, ' (talks, agreements, offers, commitments).'], Sentence).

ld_finding(Ctx, Engaged, single_level_process, Value, Sentence, Ids, [Rule, process | Inds]) :-
    Ctx = ctx(_, ByActor, _), ld_process_ids(P), findall(A, member(A-_, ByActor), As), append(P, As, I0), sort(I0, Ids),
    findall(I, (member(L, Engaged), ld_indicator(L, I)), Inds),
    findall(T, (member(L, Engaged), ld_name(L, T)), Names), ld_and(Names, Text),
    Rule = 'Lederach: a process that engages only one level of leadership lacks the vertical links that carry a settlement through society',
    ( Engaged = [Only] -> Value = yes, ld_single_risk(Only, Risk),
        atomic_list_concat(['The process rests on one level only, ', Text, ': ', Risk], Sentence)
    ; Value = no, ld_cross_level_events(Ctx, Cross),
        ( Cross = [] -> Joined = ' but no process event brings actors of two levels together.' ; Joined = ', and some process events bring actors of different levels together.' ),
        length(Engaged, K),
        atomic_list_concat(['The process engages ', K, ' levels (', Text, ')', Joined], Sentence) ).

ld_finding(Ctx, Engaged, missing_level, Absent, Sentence, Ids, [Rule, process]) :-
    findall(L, (member(L, [top, middle, grassroots]), \+ member(L, Engaged)), Absent), nonempty(Absent),
    findall(O, (member(L, Absent), ld_outside(Ctx, L, O)), Os), append(Os, Outside),
    ld_process_ids(P), append(P, Outside, I0), sort(I0, Ids),
    findall(T, (member(L, Absent), ld_name(L, T)), Names), ld_and(Names, Text),
    Rule = 'a level is missing when none of its actors takes part in a process event or asserts a process claim',
    ( Outside = [] -> join(['The process leaves out ', Text, '; the graph shows no such actors.'], Sentence)
    ; join(['The process leaves out ', Text, '; in the graph but outside the process: ', Outside, '.'], Sentence) ).
