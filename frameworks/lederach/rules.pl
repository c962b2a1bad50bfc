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

:- module(lederach, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no peace process: no talks or agreements (CONSULT, AGREE events) and no offers or commitments (Offer, Commitment claims) whose participants could be placed on the pyramid') :-
    \+ peace_process_exists.
missing('no participant of the process can be placed at a level: give the actors in talks, agreements, offers or commitments an actor_type (state, armed_group, ngo, civil_society, community...)') :-
    peace_process_exists, ld_ctx(Ctx), ld_engaged_levels(Ctx, []).

% ---- indicators -------------------------------------------------------------

indicator(process, 1, 'a peace process: CONSULT and AGREE events, Offer and Commitment claims').
indicator(top_engaged, 1, 'top-level leaders in the process: state, government, armed forces, international organisation, armed group or party actors taking part in process events or asserting process claims').
indicator(middle_engaged, 1, 'middle-range leaders in the process: NGOs, civil society, media, religious leaders (bishop, imam, sheikh, council of elders, church, mosque) taking part or asserting process claims').
indicator(grassroots_engaged, 1, 'grassroots leaders in the process: community actors, villages, refugees, the displaced, women''s and youth groups taking part or asserting process claims').
indicator(vertical_integration, 1, 'levels meeting: process events in which actors of two or more levels take part together').

present(process, Ids) :- peace_process_ids(Ids), nonempty(Ids).
present(Name, Ids) :- Name \== process, ld_ctx(Ctx), ld_per_level(PerLevel), ld_present(Name, Ctx, PerLevel, Ids).

ld_present(Name, _, PerLevel, Ids) :-
    member(Name-Level, [top_engaged-top, middle_engaged-middle, grassroots_engaged-grassroots]),
    member(lv(Level, Actors, Said, _), PerLevel), append(Actors, Said, Ids0), sort(Ids0, Ids).
ld_present(vertical_integration, _, PerLevel, Ids) :- ld_cross_level_events(PerLevel, Ids), nonempty(Ids).

% ---- the process ---------------------------------------------------------------

% ld_ctx(-ctx(Levels, ByEvents, ByClaims, Engaged)): the actors of each level; who took part in which
% process events, who asserted which process claims (Actor-Ids, sorted); the engaged actors (sorted)
% (kept with ld_per_level/1 as one answer, ld_model/1: the applicability test, the indicators and the findings all read it)
ld_ctx(Ctx) :- ld_model(m(Ctx, _)).
ld_ctx_(ctx(Levels, ByEvents, ByClaims, Engaged)) :-
    ld_levels(Levels), process_participants(ByEvents), process_speakers(ByClaims),
    pairs_keys(ByEvents, K1), pairs_keys(ByClaims, K2), append(K1, K2, K0), sort(K0, Engaged).

% ---- levels of the pyramid -------------------------------------------------------

ld_top_types([state, government, armed_forces, international_org, armed_group, political_party]).
ld_middle_types([ngo, civil_society, media]).
keywords(ld_middle_words, [bishop, imam, sheikh, cleric, rabbi, priest, 'pastor ', ulema, mufti, 'council of elders', 'elders council',
    church, mosque, 'religious leader', interfaith, 'inter-faith', university, academic, professor, 'bar association', 'trade union']).
keywords(ld_grassroots_words, [local, village, refugee, displaced, ' idp', 'idps', women, youth, neighbourhood, neighborhood, grassroots, farmers,
    herders, pastoralist, ' camp']).

% ld_levels(-lv(Top, Middle, Grassroots)): sorted actor ids of each level; an actor has one level:
% a top actor_type first, then religious and other middle-range words in the label, then community
% actors and grassroots words, then the middle-range actor_types (ngo, civil_society, media)
ld_levels(lv(Top, Middle, Grass)) :-
    ld_top_types(TT), ld_of_types(TT, Top),
    keywords(ld_middle_words, MW), nodes_mentioning('Actor', MW, MiddleWords), ld_subtract(MiddleWords, Top, Middle1),
    nodes_where('Actor', actor_type, community, Comm), keywords(ld_grassroots_words, GW), nodes_mentioning('Actor', GW, GrassWords),
    append(Comm, GrassWords, G0), sort(G0, G1), ld_subtract(G1, Top, G2), ld_subtract(G2, Middle1, Grass),
    ld_middle_types(MT), ld_of_types(MT, MiddleTyped), ld_subtract(MiddleTyped, Top, M2), ld_subtract(M2, Grass, M3),
    append(Middle1, M3, M0), sort(M0, Middle).

ld_of_types(Types, Ids) :- findall(L, (member(T, Types), nodes_where('Actor', actor_type, T, L)), Ls), append(Ls, I0), sort(I0, Ids).

ld_level_set(lv(T, _, _), top, T).
ld_level_set(lv(_, M, _), middle, M).
ld_level_set(lv(_, _, G), grassroots, G).

% ld_engaged_levels(+Ctx, -Levels): the levels with an actor in the process, in pyramid order
ld_engaged_levels(ctx(Levels, _, _, Engaged), Found) :-
    findall(L, (member(L, [top, middle, grassroots]), ld_level_set(Levels, L, Set), ord_intersection(Set, Engaged, [_|_])), Found).

% ld_per_level(-PerLevel): lv(Level, Actors, Said, Events) for each engaged level, in pyramid
% order: its actors in the process, their process events and claims, and their process events alone
ld_per_level(PerLevel) :- ld_model(m(_, PerLevel)).
ld_per_level_(ctx(Levels, ByEvents, ByClaims, Engaged), PerLevel) :-
    findall(lv(Level, Actors, Said, Events),
            ( member(Level, [top, middle, grassroots]), ld_level_set(Levels, Level, Set),
              ord_intersection(Set, Engaged, Actors), nonempty(Actors),
              select_groups(Actors, ByEvents, E), select_groups(Actors, ByClaims, C), grouped_ids(E, V1), grouped_ids(C, V2),
              sort(V1, Events), append(V1, V2, S0), sort(S0, Said) ),
            PerLevel).

% ld_model(-m(Ctx, PerLevel)): ld_ctx/1 and ld_per_level/1, kept as one answer (view_set/3) so that a write grows both
% (added_answer/4 below): kept apart, both were found again after every write of a process event or claim, or of an
% actor (560k inferences, some half a second of CPU, after an ingest-like write at 1M facts), the levels' walks of
% every engaged actor's groups most of it
ld_model(Model) :- view_set(ld_model, ld_model_, Model).
ld_model_(m(Ctx, PerLevel)) :- ld_ctx_(Ctx), ld_per_level_(Ctx, PerLevel).

% added_answer(+Key, +Added, +Answer, -Grown): the model with the records a write added (lib/graph.pl grown/3). A write
% only adds, so that an actor's level never changes and its groups only grow: each node of added_ends/2 is placed at
% its level (ld_actor_level/2: a node added, or one already placed, which the sort keeps once) and its groups found
% again from its own edges (put in place of its old ones); a level's actors, events and claims grow by those of the
% touched nodes engaged at that level, the other levels kept
added_answer(ld_model, Added, m(ctx(Levels0, ByEvents0, ByClaims0, Engaged0), PerLevel0), m(Ctx, PerLevel)) :-
    added_ends(Added, Touched),
    findall(L-X, ( member(X, Touched), ld_actor_level(X, L) ), Placed),
    ld_placed(Levels0, Placed, Levels),
    findall(X-Es, ( member(X, Touched), ld_own_process_events(X, Es), Es \== [] ), NewEvents),
    findall(X-Cs, ( member(X, Touched), ld_own_process_claims(X, Cs), Cs \== [] ), NewClaims),
    put_by_subject(ByEvents0, NewEvents, ByEvents), put_by_subject(ByClaims0, NewClaims, ByClaims),
    pairs_keys(NewEvents, K1), pairs_keys(NewClaims, K2), append(K1, K2, T0), sort(T0, TouchedEngaged),
    ld_with(Engaged0, TouchedEngaged, Engaged),
    Ctx = ctx(Levels, ByEvents, ByClaims, Engaged),
    findall(Lv, ( member(Level, [top, middle, grassroots]),
                  ld_grown_level(Level, Levels, TouchedEngaged, NewEvents, NewClaims, PerLevel0, Lv) ), PerLevel).

% ld_placed(+Levels0, +Placed, -Levels): the levels with the Level-Actor pairs placed
ld_placed(lv(T0, M0, G0), Placed, lv(T, M, G)) :-
    findall(X, member(top-X, Placed), Ts), ld_with(T0, Ts, T),
    findall(X, member(middle-X, Placed), Ms), ld_with(M0, Ms, M),
    findall(X, member(grassroots-X, Placed), Gs), ld_with(G0, Gs, G).

% ld_grown_level(+Level, +Levels, +TouchedEngaged, +NewEvents, +NewClaims, +PerLevel0, -Lv): Level's lv/4 after the
% write: the old one grown by the touched nodes engaged at Level (their groups are whole: NewEvents, NewClaims), or
% kept when none is; fails when Level has no engaged actor
ld_grown_level(Level, Levels, TouchedEngaged, NewEvents, NewClaims, PerLevel0, Lv) :-
    ld_level_set(Levels, Level, Set),
    include(ld_in(Set), TouchedEngaged, Here),
    (   Here == []
    ->  Lv = lv(Level, _, _, _), memberchk(Lv, PerLevel0)
    ;   ( memberchk(lv(Level, A0, S0, E0), PerLevel0) -> true ; A0 = [], S0 = [], E0 = [] ),
        select_groups(Here, NewEvents, GE), select_groups(Here, NewClaims, GC), grouped_ids(GE, V1), grouped_ids(GC, V2),
        ld_with(A0, Here, Actors), ld_with(E0, V1, Events), append(V1, V2, V), ld_with(S0, V, Said),
        Lv = lv(Level, Actors, Said, Events)
    ).

ld_in(Set, X) :- memberchk(X, Set).

% ld_with(+Sorted, +New, -Merged): Sorted with the ids of New, sorted; New appended before Sorted, so that append/3
% walks the few ids a write touched, not the level's thousands
ld_with(Sorted, New, Merged) :- ( New == [] -> Merged = Sorted ; append(New, Sorted, All), sort(All, Merged) ).

% ld_actor_level(+X, -Level): the level ld_levels/1 places the actor X at, read from X's own type and label; fails when
% X is no actor or has no level
ld_actor_level(X, Level) :-
    node(X, 'Actor'),
    (   ld_top_types(TT), prop(X, actor_type, T), memberchk(T, TT) -> Level = top
    ;   keywords(ld_middle_words, MW), own_mentioning([X], MW, [_]) -> Level = middle
    ;   ( prop(X, actor_type, community) ; keywords(ld_grassroots_words, GW), own_mentioning([X], GW, [_]) ) -> Level = grassroots
    ;   ld_middle_types(MT), prop(X, actor_type, T), memberchk(T, MT) -> Level = middle
    ).

% ld_own_process_events(+X, -Events) and ld_own_process_claims(+X, -Claims): X's group in process_participants/1 and
% process_speakers/1 (sorted; [] when it has none), read from its own edges
ld_own_process_events(X, Events) :-
    own_ends(X, 'PARTICIPATES_IN', _, 'Event', Es), peace_process_types(ETs, _),
    findall(L, ( member(T, ETs), filter_ids(Es, prop(event_type, T), L) ), Ls), append(Ls, E0), sort(E0, Events).
ld_own_process_claims(X, Claims) :-
    peace_process_types(_, CTs), findall(C, ( member(T, CTs), own_claims(X, T, C) ), Cs), append(Cs, C0), sort(C0, Claims).

% process events joining actors of two or more levels
ld_cross_level_events(PerLevel, Ids) :-
    findall(X, (member(lv(L1, _, _, E1), PerLevel), member(lv(L2, _, _, E2), PerLevel), L1 @< L2, ord_intersection(E1, E2, X)), Xs),
    append(Xs, I0), sort(I0, Ids).

% the actors of a level that are in the graph but not in the process
ld_outside(ctx(Levels, _, _, Engaged), Level, Outside) :-
    ld_level_set(Levels, Level, Set), ld_subtract(Set, Engaged, Outside).

% ---- ordered lists (linear, deterministic) ------------------------------------------

% ld_subtract(+Sorted, +Sorted, -Sorted): ordered set difference
ld_subtract([], _, []) :- !.
ld_subtract(Xs, [], Xs) :- !.
ld_subtract([X|Xs], [Y|Ys], Out) :- compare(O, X, Y), ld_subtract_(O, X, Xs, Y, Ys, Out).
ld_subtract_(<, X, Xs, Y, Ys, [X|Out]) :- ld_subtract(Xs, [Y|Ys], Out).
ld_subtract_(=, _, Xs, _, Ys, Out) :- ld_subtract(Xs, Ys, Out).
ld_subtract_(>, X, Xs, _, Ys, Out) :- ld_subtract([X|Xs], Ys, Out).

% ---- sentences ---------------------------------------------------------------------

ld_name(top, 'top-level leadership').
ld_name(middle, 'middle-range leadership').
ld_name(grassroots, 'grassroots leadership').
ld_kind(top, 'military, political and international leaders').
ld_kind(middle, 'religious, civil-society, NGO and media leaders').
ld_kind(grassroots, 'community, local, displaced, women''s and youth leaders').

ld_single_risk(top, 'an agreement made at the top has no middle-range or grassroots leaders to carry it through society.').
ld_single_risk(middle, 'middle-range leaders can link the levels, but here neither the leaders who decide nor the communities who live with the outcome take part.').
ld_single_risk(grassroots, 'local peace made without top-level or middle-range leaders cannot change the policies and structures that keep the conflict going.').

ld_indicator(top, top_engaged).
ld_indicator(middle, middle_engaged).
ld_indicator(grassroots, grassroots_engaged).

% ---- findings -------------------------------------------------------------------

% the findings kept for the view (view_findings/3, lib/conflict.pl: lederach ranks no finding), found once for the
% run's findings and read again by strength/3, which found each again (its outside actors, the process's ids: 84k
% inferences of the run after an ingest-like write at 1M facts)
finding(Key, Value, Sentence, Ids, Because) :- view_findings(ld_findings, ld_found, Found), member(f(Key, Value, Sentence, Ids, Because), Found).

ld_found(Key, Value, Sentence, Ids, Because) :-
    ld_ctx(Ctx), ld_per_level(PerLevel), PerLevel = [_|_], findall(L, member(lv(L, _, _, _), PerLevel), Engaged),
    ld_finding(Ctx, PerLevel, Engaged, Key, Value, Sentence, Ids, Because).

ld_finding(_, PerLevel, _, level_engaged, Level, Sentence, Ids, [Rule, Indicator]) :-
    member(lv(Level, Actors, Said, _), PerLevel), ld_indicator(Level, Indicator), ld_name(Level, Name), ld_kind(Level, Kind),
    length(Said, N), few_labels(Actors, Who),
    ( N =:= 1 -> Through = ' process event or claim' ; Through = ' process events and claims' ),
    Rule = 'a level is engaged when its actors take part in CONSULT or AGREE events or assert Offer or Commitment claims',
    atomic_list_concat(['The process engages ', Name, ' (', Kind, '): ', Who, ', through ', N, Through, ' (talks, agreements, offers, commitments).'], Sentence),
    append(Actors, Said, I0), sort(I0, Ids).

ld_finding(Ctx, PerLevel, Engaged, single_level_process, Value, Sentence, Ids, [Rule, process | Inds]) :-
    findall(I, (member(L, Engaged), ld_indicator(L, I)), Inds),
    findall(T, (member(L, Engaged), ld_name(L, T)), Names), nonempty(Names), list_text(Names, Text),
    Rule = 'Lederach: a process that engages only one level of leadership lacks the vertical links that carry a settlement through society',
    ( Engaged = [Only] -> Value = yes, ld_single_risk(Only, Risk),
        atomic_list_concat(['The process rests on one level only, ', Text, ': ', Risk], Sentence)
    ; Value = no, ld_cross_level_events(PerLevel, Cross),
        ( Cross = [] -> Joined = ' but no process event brings actors of two levels together.' ; Joined = ', and some process events bring actors of different levels together.' ),
        length(Engaged, K),
        atomic_list_concat(['The process engages ', K, ' levels (', Text, ')', Joined], Sentence) ),
    Ctx = ctx(_, _, _, As), peace_process_ids(P), append(P, As, I0), sort(I0, Ids).

ld_finding(Ctx, _, Engaged, missing_level, Absent, Sentence, Ids, [Rule, process]) :-
    findall(L, (member(L, [top, middle, grassroots]), \+ member(L, Engaged)), Absent), nonempty(Absent),
    findall(O, (member(L, Absent), ld_outside(Ctx, L, O)), Os), append(Os, Outside0), sort(Outside0, Outside),
    findall(T, (member(L, Absent), ld_name(L, T)), Names), nonempty(Names), list_text(Names, Text),
    Rule = 'a level is missing when none of its actors takes part in a process event or asserts a process claim',
    ( Outside = [] -> atomic_list_concat(['The process leaves out ', Text, '; the graph shows no such actors.'], Sentence)
    ; few_labels(Outside, Who), atomic_list_concat(['The process leaves out ', Text, '; in the graph but outside the process: ', Who, '.'], Sentence) ),
    peace_process_ids(P), append(P, Outside, I0), sort(I0, Ids).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% a process confined to one level, or missing one, is the pyramid's warning; an integrated
% process a weaker reading
strength(single_level_process-yes, Score, Ids) :- finding(single_level_process, yes, _, Ids, _), reading_strength(0.85, Ids, Score).
strength(missing_level-L, Score, Ids) :- finding(missing_level, L, _, Ids, _), reading_strength(0.75, Ids, Score).
strength(single_level_process-no, Score, Ids) :- finding(single_level_process, no, _, Ids, _), reading_strength(0.55, Ids, Score).
