% Azar's protracted social conflict (1990): four preconditions.
%   communal identity      identity groups are the parties (community actors; armed groups or parties
%                          on ethnic, religious, tribal or communal lines, by label or by what they say)
%   deprivation            grievances of deprived needs: land, jobs, services, access, poverty, exclusion
%   governance failure     the state is a party (state, government, armed forces or police as party, or
%                          attacking or coercing a communal group), or a state mediator whose talks
%                          were followed by more violence
%   international linkage  foreign states or international organisations allied with a party
%                          (or an ally whose country_code differs from the party's)
% A protracted social conflict when at least three hold. Helpers of this module are prefixed az_.

:- module(azar, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: a protracted social conflict is between communal groups, or a group and the state') :-
    kind_count('Actor', N), N < 2.
missing('no claims or events: the preconditions are read from what the groups say and do') :-
    kind_count('Claim', 0), kind_count('Event', 0).
missing('no actor types: communal groups and the state are told apart by actor_type (community, armed_group, state, government, armed_forces...)') :-
    \+ az_typed_actor.

az_typed_actor :-
    member(T, [community, armed_group, political_party, state, government, armed_forces, international_org, ngo, civil_society, media, individual, police, company, court]),
    nodes_where('Actor', actor_type, T, [_|_]), !.

% ---- indicators -------------------------------------------------------------

indicator(communal_identity, 1, 'communal groups as parties: community actors, or armed groups and parties whose label or claims name ethnic, religious, tribal or communal identity').
indicator(deprivation, 1, 'deprivation of needs: Grievance claims about land, jobs, services, access, poverty, marginalisation or exclusion').
indicator(state_party, 1, 'the state as party: state, government, armed-forces or police actors with role party, or perpetrating ASSAULT or COERCE against a communal group').
indicator(failing_mediator, 0.5, 'a failing state mediator: a state actor mediating CONSULT events after the last of which ASSAULT or COERCE events followed').
indicator(international_linkage, 1, 'international linkage: a foreign state or international organisation (or an actor of another country_code) ALLIED_WITH a party').
indicator(protracted, 0.5, 'protracted: violence, coercion, protest or grievances both a year or more before the reference date and in the recent window').

% the parties, identity groups and state actors are computed once per call (az_ctx)
present(Name, Ids) :- az_ctx(Ctx), az_present(Name, Ctx, Ids), nonempty(Ids).

az_present(communal_identity, _, Ids) :- az_communal(c(_, Ids)).
az_present(deprivation, _, Ids) :- az_deprivation(Ids).
az_present(state_party, Ctx, Ids) :- az_state_party(Ctx, Ids).
az_present(failing_mediator, Ctx, Ids) :- az_failing_mediation(Ctx, Ids, _).
az_present(international_linkage, _, Ids) :- az_linkage(Links), az_link_ids(Links, Ids).
az_present(protracted, _, Ids) :- az_protracted(Ids).

% ---- sets ---------------------------------------------------------------------

keywords(az_identity_words, [ethnic, religio, tribal, tribe, communit, 'people of', ' clan', indigenous, minority, sectarian, ' caste', 'our people']).
keywords(az_deprivation_words, [depriv, poverty, poor, access, services, ' land', landless, farmland, grazing, jobs, unemploy, marginalis, marginaliz,
    exclud, exclusion, dispossess, hunger, 'clean water', schools, clinics, electricity]).

% az_ctx(-ctx(Parties, IdentityGroups, States)): what most rules need, computed once per graph view
% and kept (view_set/3), as are the sets the indicators and the findings both read. Those are passed
% the context az_ctx/1 keeps, the same for the whole view, so it is not part of their keys (a table
% walked its thousands of parties at every call)
az_ctx(Ctx) :- view_set(az_ctx, az_ctx_, Ctx).
az_deprivation(Ids) :- view_set(az_deprivation, az_deprivation_, Ids).
az_protracted(Ids) :- view_set(az_protracted, az_protracted_, Ids).
az_failing_mediation(Ctx, Ids, Mediators) :- view_set(az_failing_mediation, az_failing_mediation_(Ctx), m(Ids-Mediators, _, _, _)).
% The sets read from the parties or the identity groups read the context inside (az_in_ctx/3), so that they are kept
% with what it read: a write changes those through edges alone between nodes held (an OPPOSES edge makes a party, an
% ASSERTS edge an identity claim), edges the set does not read itself, and a set passed the context would be kept
% stale. The failing mediation reads only the states, which only an Actor added makes (an actor's type is its own),
% and it reads the Actor nodes itself
az_state_repression(Pairs) :- view_set(az_state_repression, az_in_ctx(az_state_repression_), Pairs).
az_linkage(Links) :- view_set(az_linkage, az_in_ctx(az_linkage_), Links).
az_preconditions(Held) :- view_set(az_preconditions, az_in_ctx(az_preconditions_), Held).
az_communal(Communal) :- view_set(az_communal, az_in_ctx(az_communal_), Communal).

az_in_ctx(Compute, Answer) :- az_ctx(Ctx), call(Compute, Ctx, Answer).

az_ctx_(ctx(Parties, Groups, States)) :- az_parties(Parties), az_identity_groups(Groups), az_state_actors(States).

% the actor types of a state, and the event types of a hostile act (the library's hostile_event_type/1 less ACCUSE), for
% the context's fresh run (az_state_actors/1, az_parties/1) and its growth (az_own_state/1, az_own_party/1) both; the
% claim types are the library's hostile_claim_type/1
az_state_type(T) :- member(T, [state, government, armed_forces, police]).
az_hostile_event_type(T) :- member(T, ['ASSAULT', 'COERCE', 'THREATEN', 'SANCTION']).

az_state_actors(S) :-
    findall(Ids, (az_state_type(T), nodes_where('Actor', actor_type, T, Ids)), L),
    append(L, S0), sort(S0, S).

% added_answer(az_ctx, ...): the context grown with a write, where a write of an actor, a claim, an event or one of
% their edges had it found again whole (245k inferences at 1M facts, most of them the walks of every actor's groups).
% A write only adds: a party, an identity group or a state stays one, and a node becomes one, or an identity group
% says more, only at its own attributes or edges (a node added, or an end of an edge added: added_ends/2). Each such
% node is tested from those alone (az_own_party/1, az_own_identity/3, az_own_state/1) and merged in; an identity
% group's claims are found again from its own edges and put in place of its old ones
added_answer(az_ctx, Added, ctx(Parties0, Groups0, States0), ctx(Parties, Groups, States)) :-
    added_ends(Added, Ends),
    include(az_own_party, Ends, NewParties), append(NewParties, Parties0, P1), sort(P1, Parties),
    keywords(az_identity_words, W), findall(X-Claims, ( member(X, Ends), az_own_identity(X, W, Claims) ), NewGroups),
    put_by_subject(Groups0, NewGroups, Groups),
    include(az_own_state, Ends, NewStates), append(NewStates, States0, S1), sort(S1, States).

% az_own_party(+X): X is one of az_parties/1, read from its own attributes and edges
az_own_party(X) :- actor_role(X, R), memberchk(R, [party, spoiler]), !.
az_own_party(X) :-
    member(Role, [perpetrator, target]), own_ends(X, 'PARTICIPATES_IN', Role, 'Event', Es), member(E, Es), event(E, T),
    az_hostile_event_type(T), !.
az_own_party(X) :- hostile_claim_type(T), own_claims(X, T, [_|_]), !.
az_own_party(X) :- edge(_, 'TARGETS', C, X, _), claim(C, T), hostile_claim_type(T), !.
az_own_party(X) :- ( edge(_, 'OPPOSES', X, _, _) ; edge(_, 'OPPOSES', _, X, _) ), !.

% az_own_identity(+X, +Words, -Claims): X is one of az_identity_groups/1, with the identity claims it makes, read from
% its own attributes and edges: a community, or an armed group or party whose label or claims name an identity
az_own_identity(X, W, Claims) :-
    (   actor_type(X, community) -> Community = true
    ;   actor_type(X, T), memberchk(T, [armed_group, political_party]) -> Community = false
    ),
    own_ends(X, 'ASSERTS', _, 'Claim', Cs), own_mentioning(Cs, W, Claims),
    ( Community == true -> true ; Claims \== [] -> true ; own_mentioning([X], W, [_]) ).

az_own_state(X) :- actor_type(X, T), az_state_type(T), !.

% az_parties(-Parties): role party or spoiler, and every actor on either side of a hostile relation:
% an OPPOSES edge, a hostile event (ASSAULT, COERCE, THREATEN, SANCTION) as perpetrator or target,
% a Threat, Accusation, Demand or RedLine as speaker or target (the groupings are done by the set
% predicates; only lists of actors are walked; the OPPOSES edges, few, are read one by one)
az_parties(Ps) :-
    nodes_where('Actor', role, party, P1), nodes_where('Actor', role, spoiler, P2),
    findall(K, (az_hostile_event_type(T), events_of_type(T, Es), nonempty(Es),
                ( perpetrators(Es, G) ; targets(Es, G) ), pairs_keys(G, K)), L1),
    findall(K, (hostile_claim_type(T), claims_of_type(T, Cs), nonempty(Cs),
                ( speakers(Cs, G) ; group_by_edge(Cs, 'TARGETS', out, _, G) ), pairs_keys(G, K)), L2),
    findall([A, B], edge(_, 'OPPOSES', A, B, _), L3),
    append([[P1, P2], L1, L2, L3], L), append(L, P0), sort(P0, Ps).

% az_identity_groups(-Groups): Actor-Claims pairs (sorted), the identity groups and the identity claims they make
az_identity_groups(Groups) :-
    nodes_where('Actor', actor_type, community, Communities),
    nodes_where('Actor', actor_type, armed_group, AG), nodes_where('Actor', actor_type, political_party, PP),
    append(AG, PP, Organised0), sort(Organised0, Organised),
    keywords(az_identity_words, W), mentioning(Organised, W, ByLabel),
    nodes_mentioning('Claim', W, IdClaims), speakers(IdClaims, Speakers),
    pairs_keys(Speakers, SpeakerIds), ord_intersection(SpeakerIds, Organised, ByClaims),
    append([Communities, ByLabel, ByClaims], A0), sort(A0, Actors),
    az_attach(Actors, Speakers, Groups).

% az_communal_(+Ctx, -c(Actors, Ids)): the identity groups that are parties, and they with the identity claims they make
% (Ids): the communal identity precondition and indicator both read it, kept (view_set/3) where each computed it from
% the context's thousands of parties and groups (111k inferences at 1M facts, found again at every write that changes
% the context)
az_communal_(ctx(Ps, Groups, _), c(As, Ids)) :-
    pairs_keys(Groups, Gs), ord_intersection(Gs, Ps, In), select_groups(In, Groups, Sel),
    pairs_keys(Sel, As), grouped_ids(Sel, Said), append(As, Said, I0), sort(I0, Ids).

% added_answer(az_communal, ...): the communal groups grown with a write, which, read from the context, it is handed at
% every write that changes the context. A write only adds: a party or an identity group stays one, and its identity
% claims only grow, so an actor and an id held stay; a node becomes both, or says more, only at its own attributes or
% edges (az_ctx's growth), tested for each node of added_ends/2 as the context's growth tests it
added_answer(az_communal, Added, c(As0, Ids0), c(As, Ids)) :-
    added_ends(Added, Ends), keywords(az_identity_words, W),
    findall(X-Claims, ( member(X, Ends), az_own_party(X), az_own_identity(X, W, Claims) ), New),
    pairs_keys(New, Xs), append(Xs, As0, A1), sort(A1, As),
    pairs_values(New, Said), append([Xs | Said], I1), append(I1, Ids0, I2), sort(I2, Ids).

az_deprivation_(Ids) :- claims_of_type('Grievance', G), keywords(az_deprivation_words, W), mentioning(G, W, Ids).

% the state as party: by role, or as perpetrator of ASSAULT/COERCE against an identity group
az_state_party(Ctx, Ids) :-
    az_state_by_role(Ctx, ByRole), az_state_repression(Pairs),
    findall([S, T | Es], member((S-T)-Es, Pairs), L), append([ByRole | L], Ids0), sort(Ids0, Ids).

az_state_by_role(ctx(_, _, States), Ids) :- nodes_where('Actor', role, party, P), ord_intersection(States, P, Ids).

% (State-Group)-Events: a state actor perpetrating ASSAULT or COERCE events against an identity group, sorted by
% State-Group (read from the perpetrator-target pairs of each type, which hostile_actor_pairs/1 groups too: the
% pairs whose perpetrator is a state, then whose target is a group; a state is never an identity group, the two being
% told apart by actor_type), the events of both types of a pair in one entry, so that a write puts a pair found again
% in place of its old entry by its key (put_by_subject/3)
az_state_repression_(ctx(_, Groups, States), Pairs) :-
    pairs_keys(Groups, IdActors),
    findall((S-T)-Ev,
            ( member(Type, ['ASSAULT', 'COERCE']), events_of_type(Type, Es), nonempty(Es),
              link_pairs(Es, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), ByPair),
              az_pair_from(States, ByPair, p(S, T, Ev)), memberchk(T, IdActors) ), Pairs0),
    merge_groups(Pairs0, Pairs).

% added_answer(az_state_repression, ...): the state repression grown with a write, which, read from the context, it is
% handed at every write that changes the context or adds an event or a PARTICIPATES_IN edge (43k inferences at 1M facts
% found again whole). A write only adds: a pair held stays, its events only grow, and a pair changes only where one of
% its sides is a node of added_ends/2 (an act of violence added, or given a side, is an end of an edge added at that
% side; a node becomes a state or an identity group at its own attributes or edges: az_ctx's growth). The pairs of
% each such state, from the acts it perpetrates, and of each such identity group, from the acts it is the target of,
% are found again from their own edges and put in place of their old entries (a pair both of whose sides are touched
% is found twice, each time whole, with every act between them: put_by_subject/3 keeps one)
added_answer(az_state_repression, Added, Pairs0, Pairs) :-
    added_ends(Added, Ends), keywords(az_identity_words, W),
    findall(Pair, ( member(X, Ends), az_own_repression(X, W, Pair) ), New),
    put_by_subject(Pairs0, New, Pairs).

% az_own_repression(+X, +Words, -(State-Group)-Events): a pair of az_state_repression_/2 with X at one side, read from
% X's own edges: X a state and the target an identity group, or X an identity group and the perpetrator a state
az_own_repression(X, W, (X-T)-Ev) :-
    az_own_state(X), az_own_violence(X, perpetrator, Acts),
    link_pairs(Acts, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), ByPair),
    member(p(X, T, Ev), ByPair), az_own_identity(T, W, _).
az_own_repression(X, W, (S-X)-Ev) :-
    az_own_identity(X, W, _), az_own_violence(X, target, Acts),
    link_pairs(Acts, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), ByPair),
    member(p(S, X, Ev), ByPair), az_own_state(S).

% az_own_violence(+X, +Role, -Acts): the ASSAULT and COERCE events X takes part in in Role
az_own_violence(X, Role, Acts) :-
    own_ends(X, 'PARTICIPATES_IN', Role, 'Event', Es),
    findall(E, ( member(E, Es), event(E, T), memberchk(T, ['ASSAULT', 'COERCE']) ), Acts).

% az_pair_from(+SortedKeys, +Pairs, -Pair): a p(A, B, Ids) of Pairs (sorted) whose A is in SortedKeys:
% one walk of the two lists
az_pair_from([K | Ks], [P | Ps], Pair) :-
    P = p(A, _, _), compare(O, K, A),
    (   O == (<) -> az_pair_from(Ks, [P | Ps], Pair)
    ;   O == (>) -> az_pair_from([K | Ks], Ps, Pair)
    ;   ( Pair = P ; az_pair_from([K | Ks], Ps, Pair) )
    ).

% a state actor mediating talks (role mediator, or the mediator of the CONSULT event) after the last
% of which ASSAULT or COERCE events happened: mediators, their talks, and the violence that followed, kept with the
% largest of those mediators' windows (below) and the state mediators' talks and the violence they are read from,
% m(Ids-Mediators, Max, Mediated, Violence), which a write grows
az_failing_mediation_(ctx(_, _, States), m(Found, Max, Mediated, Violence)) :-
    events_of_type('CONSULT', Talks), nonempty(Talks),
    group_by_edge(Talks, 'PARTICIPATES_IN', in, mediator, ByMediatorEdge), select_groups(States, ByMediatorEdge, M1),
    nodes_where('Actor', role, mediator, RoleMediators), ord_intersection(States, RoleMediators, StateMediators),
    participants(Talks, ByActor), select_groups(StateMediators, ByActor, M2),
    append(M1, M2, M0), msort(M0, M3), az_first_per_key(M3, Mediated),
    az_violence_ages(Violence),
    az_mediation_found(Mediated, Violence, Found, Max).

% az_mediation_found(+Mediated, +Violence, -Ids-Mediators, -Max): of the state mediators' talks (Mediator-Talks, sorted
% by mediator), those after the last of which violence followed; Max the largest window of violence after them (none)
az_mediation_found(Mediated, Violence, Ids-Mediators, Max) :-
    findall(M-t(MTalks, To), (member(M-MTalks, Mediated), az_before_last_talk(MTalks, To), az_violence_within(To, Violence)), L),
    pairs_keys(L, Mediators),
    % the violence after each mediator's last talks is the violence of the last To days, so the
    % violence after any of them is that of the largest To
    findall(To, member(_-t(_, To), L), Tos), ( Tos == [] -> After = [], Max = none ; max_list(Tos, Max), findall(E, (member(D-E, Violence), D =< Max), After) ),
    findall([M|MTalks], member(M-t(MTalks, _), L), L2), append([After | L2], Ids0), sort(Ids0, Ids).

% added_answer(az_failing_mediation, ...): the failing mediation grown with a write, where a write of an event or an
% actor's edge had it found again whole (290k inferences at 1M facts: every state's talks and every act of violence
% read again). A state mediator's talks change only with a PARTICIPATES_IN edge added from it to a CONSULT event, found
% again from its own edges and put in place of its old ones where they changed; the violence takes the ASSAULT and COERCE events the write added (an event's type and date are
% its own, fixed when it is added); which mediators failed and the violence after them are then read from the two as
% a fresh run reads them (75k inferences at 1M facts). A write that touches no state mediator and adds no violence
% earlier than the latest held leaves the failed mediators and their window as they were (a mediator fails by the
% latest violence alone): the answer then takes the acts added within the window, and nothing is read again. A write
% that moves the reference date has it found again (lib/graph.pl unseen_changes/3)
added_answer(az_failing_mediation, Added, m(Found0, Max0, Mediated0, Violence0), m(Found, Max, Mediated, Violence)) :-
    added_ends(Added, Ends), Added = added(_, _, Flat), edges_added(Flat, Edges),
    findall(M, ( member(e('PARTICIPATES_IN', M, E), Edges), event(E, 'CONSULT') ), M0), sort(M0, Movers),
    findall(Mediation, ( member(M, Movers), az_own_mediation(M, Mediation), \+ memberchk(Mediation, Mediated0) ), New),
    findall(D-E, ( member(E, Ends), event(E, T), memberchk(T, ['ASSAULT', 'COERCE']), days_before_reference(E, D), D >= 0 ), Acts),
    ( Acts == [] -> Violence = Violence0 ; append(Acts, Violence0, V1), sort(V1, Violence) ),
    (   New == [], Violence0 = [Latest-_ | _], \+ ( member(D-_, Acts), D < Latest )
    ->  Mediated = Mediated0, Max = Max0, az_violence_after(Found0, Max, Acts, Found)
    ;   put_by_subject(Mediated0, New, Mediated), az_mediation_found(Mediated, Violence, Found, Max)
    ).

% az_violence_after(+Ids0-Mediators, +Max, +Acts, -Ids-Mediators): the acts of violence (Days-Event) within the window
% Max taken into the answer
az_violence_after(Ids0-Mediators, Max, Acts, Ids-Mediators) :-
    ( Max == none -> Ids = Ids0 ; findall(E, ( member(D-E, Acts), D =< Max ), Es), append(Es, Ids0, I1), sort(I1, Ids) ).

% az_own_mediation(+M, -M-Talks): a state's talks as az_failing_mediation_/2 finds them, read from its own edges: the
% CONSULT events it mediates, or, for a state of role mediator, those it takes part in, whichever list comes first
az_own_mediation(M, Mediation) :-
    az_own_state(M),
    own_ends(M, 'PARTICIPATES_IN', mediator, 'Event', Ms), filter_ids(Ms, prop(event_type, 'CONSULT'), T1),
    ( actor_role(M, mediator) -> own_ends(M, 'PARTICIPATES_IN', _, 'Event', Ps), filter_ids(Ps, prop(event_type, 'CONSULT'), T2) ; T2 = [] ),
    findall(M-T, ( member(T, [T1, T2]), T \== [] ), G0), msort(G0, [Mediation | _]).

az_first_per_key([], []).
az_first_per_key([K-V | T], [K-V | R]) :- az_drop_key(K, T, T1), az_first_per_key(T1, R).
az_drop_key(K, [K-_ | T], R) :- !, az_drop_key(K, T, R).
az_drop_key(_, T, T).

% az_before_last_talk(+Talks, -To): the events dated after the latest dated event of Talks are
% those of the last To days
az_before_last_talk(Talks, To) :-
    findall(D, (member(E, Talks), days_before_reference(E, D)), Ds), nonempty(Ds),
    min_list(Ds, Last), Last >= 1, To is Last - 1.

% az_violence_ages(-Ages): Days-Event for the ASSAULT and COERCE events dated by the reference date,
% the latest first
az_violence_ages(Ages) :-
    findall(D-E, (member(T, ['ASSAULT', 'COERCE']), events_of_type(T, Es), member(E, Es), days_before_reference(E, D), D >= 0), L),
    msort(L, Ages).

% az_violence_within(+To, +Ages): some of that violence falls in the last To days
az_violence_within(To, [D-_ | _]) :- D =< To.

% az_linkage_(+Ctx, -Links): l(Foreign, Party, Edge) for each alliance of an outside actor with a party
% (of the ALLIED_WITH edges, those with a party at one end)
% (the alliances keyed by their party end, sorted, and walked once with the sorted parties: the
% parties are most actors, too many to index for a few hundred alliances)
az_linkage_(ctx(Ps, _, _), Links) :-
    findall(P-l(X, P, E), ( allied(X, P, E), X \== P ), L0), keysort(L0, ByEnd),
    findall(L, ( keyed_member(Ps, ByEnd, L), L = l(X, P, _), az_foreign(X, P) ), L1),
    sort(L1, Links).
% an outside actor (not itself of role party): of another country_code than the party when both carry
% one; else a state or an international organisation
az_foreign(X, _) :- actor_role(X, party), !, fail.
az_foreign(X, P) :- prop(X, country_code, CX), prop(P, country_code, CP), !, CX \== CP.
az_foreign(X, _) :- actor_type(X, T), member(T, [state, international_org]).

% added_answer(az_linkage, ...): the alliances grown with a write, which, read from the context, it is handed at every
% write that changes the context (25k inferences at 100k facts found again whole). A write only adds: a link stays,
% and a new one has a party end that became a party, or an alliance added, at the write: a node of added_ends/2 that
% is a party (az_own_party/1), its own alliances read (an outside actor's role and country are its own)
added_answer(az_linkage, Added, Links0, Links) :-
    added_ends(Added, Ends),
    findall(l(X, P, E), ( member(P, Ends), az_own_party(P), allied(X, P, E), X \== P, az_foreign(X, P) ), New),
    append(New, Links0, L1), sort(L1, Links).

az_link_ids(Links, Ids) :- findall(Id, (member(l(X, P, E), Links), member(Id, [X, P, E])), L), sort(L, Ids).

% hostile or aggrieved evidence at least a year old, and some in the recent window
az_protracted_(Ids) :-
    findall(X, (az_protracted_kind(Ks), filter_ids(Ks, window(365, 1000000), X)), OldL), append(OldL, Old), nonempty(Old),
    findall(X, (az_protracted_kind(Ks), recent_ids(Ks, X)), RecentL), append(RecentL, Recent), nonempty(Recent),
    append(Old, Recent, Ids0), sort(Ids0, Ids).
az_protracted_kind(Ks) :- member(T, ['ASSAULT', 'COERCE', 'PROTEST']), events_of_type(T, Ks).
az_protracted_kind(Ks) :- claims_of_type('Grievance', Ks).

% ---- ordered lists (linear, deterministic) ------------------------------------------

% az_attach(+SortedKeys, +SortedGroups, -Attached): Key-Values for every key ([] when Groups has none)
az_attach([], _, []) :- !.
az_attach([K | Ks], [], [K-[] | Out]) :- !, az_attach(Ks, [], Out).
az_attach([K | Ks], [G-V | Gs], Out) :- compare(O, K, G), az_attach_(O, K, Ks, G, V, Gs, Out).
az_attach_(<, K, Ks, G, V, Gs, [K-[] | Out]) :- az_attach(Ks, [G-V | Gs], Out).
az_attach_(=, K, Ks, _, V, Gs, [K-V | Out]) :- az_attach(Ks, Gs, Out).
az_attach_(>, K, Ks, _, _, Gs, Out) :- az_attach([K | Ks], Gs, Out).

% ---- preconditions -------------------------------------------------------------

% az_preconditions_(+Ctx, -Held): pre(Name, Evidence, Because, Sentence) for each precondition that holds
az_preconditions_(Ctx, Held) :- findall(pre(N, E, B, S), az_precondition(Ctx, N, E, B, S), Held).

az_precondition(_, communal_identity, Ids, ['communal identity holds when identity groups are parties to the conflict', communal_identity], S) :-
    az_communal(c(As, Ids)), nonempty(As), few_labels(As, Who),
    atomic_list_concat(['Communal identity: the parties include identity groups (', Who, ').'], S).
az_precondition(_, deprivation, Ids, ['deprivation holds when grievances name deprived needs (land, jobs, services, access)', deprivation], S) :-
    az_deprivation(Ids), nonempty(Ids), speakers(Ids, Sp), pairs_keys(Sp, As), length(Ids, N),
    ( N =:= 1 -> Noun = ' grievance' ; Noun = ' grievances' ),
    ( As = [] -> By = '' ; few_labels(As, Who), atomic_list_concat([', voiced by ', Who], By) ),
    atomic_list_concat(['Deprivation of needs: ', N, Noun, ' about land, jobs, services or access', By, '.'], S).
az_precondition(Ctx, governance_failure, Ids, [Rule | Inds], S) :-
    az_state_by_role(Ctx, ByRole), az_state_repression(Pairs),
    ( az_failing_mediation(Ctx, M, Mediators) -> true ; M = [], Mediators = [] ),
    findall([X, Y | Es], member((X-Y)-Es, Pairs), PL), append([ByRole | PL], P0), sort(P0, P),
    append(P, M, Ids0), sort(Ids0, Ids), nonempty(Ids),
    findall(I, (member(I-E, [state_party-P, failing_mediator-M]), nonempty(E)), Inds),
    Rule = 'governance failure holds when the state is a party (by role, or attacking a communal group) or its mediation is followed by violence',
    az_governance_text(ByRole, Pairs, Mediators, S).
az_precondition(Ctx, international_linkage, Ids, ['international linkage holds when an outside state, organisation or foreign actor is allied with a party', international_linkage], S) :-
    az_linkage(Links), nonempty(Links), az_link_ids(Links, Ids),
    findall(X, member(l(X, _, _), Links), Xs0), sort(Xs0, Xs), findall(P, member(l(_, P, _), Links), Ps0), sort(Ps0, Ps),
    few_labels(Xs, Outside), few_labels(Ps, Parties),
    atomic_list_concat(['International linkage: ', Outside, ' allied with ', Parties, '.'], S).

az_governance_text(ByRole, Pairs, Mediators, S) :-
    findall(X, member((X-_)-_, Pairs), R0), append(ByRole, R0, S0), sort(S0, States),
    findall(Y, member((_-Y)-_, Pairs), V0), sort(V0, Victims),
    ( States == [] -> T1 = ''
    ; few_labels(States, SN), ( Victims == [] -> atomic_list_concat(['the state is a party (', SN, ')'], T1)
                             ; few_labels(Victims, VN), atomic_list_concat(['the state is a party (', SN, '), attacking or coercing ', VN], T1) ) ),
    ( Mediators == [] -> T2 = '' ; few_labels(Mediators, MN), atomic_list_concat(['mediation by ', MN, ' was followed by more violence'], T2) ),
    ( T1 \== '', T2 \== '' -> Sep = '; ' ; Sep = '' ),
    atomic_list_concat(['Governance failure: ', T1, Sep, T2, '.'], S).

az_name(communal_identity, 'communal identity').
az_name(deprivation, 'deprivation').
az_name(governance_failure, 'governance failure').
az_name(international_linkage, 'international linkage').

% ---- findings -------------------------------------------------------------------

finding(Key, Value, Sentence, Ids, Because) :-
    az_ctx(Ctx), az_preconditions(Held), az_finding(Ctx, Held, Key, Value, Sentence, Ids, Because).

az_finding(_, Held, precondition, Name, Sentence, Ids, Because) :- member(pre(Name, Ids, Because, Sentence), Held).
az_finding(ctx(Parties, _, _), Held, protracted_social_conflict, Value, Sentence, Ids, [Rule | Inds]) :-
    findall(N, member(pre(N, _, _, _), Held), Names),
    findall(E, member(pre(_, E, _, _), Held), Es), append(Es, Ids0), sort(Ids0, Ids1),
    ( Ids1 = [_|_] -> Ids = Ids1 ; Parties = [_|_] -> Ids = Parties ; nodes_where('Actor', _, _, Ids) ),
    findall(I, (member(pre(_, _, [_|Is], _), Held), member(I, Is)), Inds),
    length(Names, K), ( K >= 3 -> Value = yes ; Value = no ),
    Rule = 'Azar: a protracted social conflict when at least three of the four preconditions hold',
    findall(T, (member(N, Names), az_name(N, T)), HeldNames), list_text(HeldNames, HeldText),
    findall(T, (az_name(N, T), \+ member(N, Names)), AbsentNames), list_text(AbsentNames, AbsentText),
    ( az_protracted(P), nonempty(P) -> Lasting = ' The hostility has lasted over a year and goes on.' ; Lasting = '' ),
    az_psc_text(Value, K, HeldText, AbsentText, Lasting, Sentence).

az_psc_text(yes, K, Held, Absent, Lasting, S) :-
    ( Absent == none -> Rest = '' ; atomic_list_concat(['; not shown: ', Absent], Rest) ),
    atomic_list_concat(['A protracted social conflict in Azar''s sense: ', K, ' of the 4 preconditions hold (', Held, ')', Rest, '.', Lasting], S).
az_psc_text(no, K, Held, Absent, Lasting, S) :-
    ( K =:= 1 -> Verb = ' of the 4 preconditions holds (' ; Verb = ' of the 4 preconditions hold (' ),
    ( K =:= 0 -> atomic_list_concat(['Not a protracted social conflict in Azar''s sense: none of the 4 preconditions (', Absent, ') is shown.', Lasting], S)
    ; atomic_list_concat(['Not a protracted social conflict in Azar''s sense: ', K, Verb, Held, '); not shown: ', Absent, '.', Lasting], S) ).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% a protracted social conflict is a strong reading, the stronger the more preconditions hold;
% preconditions without it a weak one
strength(protracted_social_conflict-V, Score, Ids) :-
    finding(protracted_social_conflict, V, _, Ids, _), findall(P, finding(precondition, P, _, _, _), Ps), length(Ps, N),
    ( V == yes -> W is 0.6 + 0.075 * N ; W is 0.1 * N ), reading_strength(W, Ids, Score).
