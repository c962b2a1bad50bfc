% Azar's protracted social conflict (1990): four preconditions.
%   communal identity      identity groups are the parties (community actors; armed groups or parties
%                          on ethnic, religious, tribal or communal lines, by label or by what they say)
%   deprivation            grievances of deprived needs: land, jobs, services, access, poverty, exclusion
%   governance failure     the state is a party (state, government or armed forces as party, or
%                          attacking or coercing a communal group), or a state mediator whose talks
%                          were followed by more violence
%   international linkage  foreign states or international organisations allied with a party
%                          (or an ally whose country_code differs from the party's)
% A protracted social conflict when at least three hold. Helpers of this module are prefixed az_.

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: a protracted social conflict is between communal groups, or a group and the state') :-
    kind_count('Actor', N), N < 2.
missing('no claims or events: the preconditions are read from what the groups say and do') :-
    kind_count('Claim', 0), kind_count('Event', 0).
missing('no actor types: communal groups and the state are told apart by actor_type (community, armed_group, state, government, armed_forces...)') :-
    \+ az_typed_actor.

az_typed_actor :-
    member(T, [community, armed_group, political_party, state, government, armed_forces, international_org, ngo, civil_society, media, individual]),
    nodes_where('Actor', actor_type, T, [_|_]), !.

% ---- indicators -------------------------------------------------------------

indicator(communal_identity, 1, 'communal groups as parties: community actors, or armed groups and parties whose label or claims name ethnic, religious, tribal or communal identity').
indicator(deprivation, 1, 'deprivation of needs: Grievance claims about land, jobs, services, access, poverty, marginalisation or exclusion').
indicator(state_party, 1, 'the state as party: state, government or armed-forces actors with role party, or perpetrating ASSAULT or COERCE against a communal group').
indicator(failing_mediator, 0.5, 'a failing state mediator: a state actor mediating CONSULT events after the last of which ASSAULT or COERCE events followed').
indicator(international_linkage, 1, 'international linkage: a foreign state or international organisation (or an actor of another country_code) ALLIED_WITH a party').
indicator(protracted, 0.5, 'protracted: violence, coercion, protest or grievances both a year or more before the reference date and in the recent window').

% the parties, identity groups and state actors are computed once per call (az_ctx)
present(Name, Ids) :- az_ctx(Ctx), az_present(Name, Ctx, Ids), nonempty(Ids).

az_present(communal_identity, Ctx, Ids) :- az_communal(Ctx, Ids).
az_present(deprivation, _, Ids) :- az_deprivation(Ids).
az_present(state_party, Ctx, Ids) :- az_state_party(Ctx, Ids).
az_present(failing_mediator, Ctx, Ids) :- az_failing_mediation(Ctx, Ids, _).
az_present(international_linkage, Ctx, Ids) :- az_linkage(Ctx, Links), az_link_ids(Links, Ids).
az_present(protracted, _, Ids) :- az_protracted(Ids).

% ---- sets ---------------------------------------------------------------------

az_identity_words([ethnic, religio, tribal, tribe, communit, 'people of', clan, indigenous, minority, sectarian, caste, 'our people']).
az_deprivation_words([depriv, poverty, poor, access, services, land, jobs, unemploy, marginalis, marginaliz, exclud, exclusion,
    dispossess, hunger, 'clean water', schools, clinics, electricity]).

% az_ctx(-ctx(Parties, IdentityGroups, States)): what most rules need, computed once
az_ctx(ctx(Parties, Groups, States)) :- az_parties(Parties), az_identity_groups(Groups), az_state_actors(States).

az_state_actors(S) :-
    findall(Ids, (member(T, [state, government, armed_forces]), nodes_where('Actor', actor_type, T, Ids)), L),
    append(L, S0), sort(S0, S).

% the parties: role party or spoiler, and everyone in an opposing pair
az_parties(Ps) :-
    nodes_where('Actor', role, party, P1), nodes_where('Actor', role, spoiler, P2),
    findall(X, (opposing_pair(A, B, _), ( X = A ; X = B )), P3),
    append([P1, P2, P3], P0), sort(P0, Ps).

% az_identity_groups(-Groups): Actor-Claims pairs, the identity groups and the identity claims they make
az_identity_groups(Groups) :-
    nodes_where('Actor', actor_type, community, Communities),
    nodes_where('Actor', actor_type, armed_group, AG), nodes_where('Actor', actor_type, political_party, PP),
    append(AG, PP, Organised0), sort(Organised0, Organised),
    az_identity_words(W), mentioning(Organised, W, ByLabel),
    nodes_where('Claim', _, _, Cs), mentioning(Cs, W, IdClaims), speakers(IdClaims, Speakers),
    findall(A, (member(A-_, Speakers), member(A, Organised)), ByClaims),
    append([Communities, ByLabel, ByClaims], A0), sort(A0, Actors),
    findall(A-Said, (member(A, Actors), group_ids(A, Speakers, Said)), Groups).

az_communal_actors(ctx(Ps, Groups, _), As) :- findall(A, (member(A-_, Groups), member(A, Ps)), As).
az_communal(ctx(Ps, Groups, _), Ids) :-
    findall([A|Said], (member(A-Said, Groups), member(A, Ps)), L), append(L, Ids0), sort(Ids0, Ids).

az_deprivation(Ids) :- claims_of_type('Grievance', G), az_deprivation_words(W), mentioning(G, W, Ids).

% the state as party: by role, or as perpetrator of ASSAULT/COERCE against an identity group
az_state_party(Ctx, Ids) :-
    az_state_by_role(Ctx, ByRole), az_state_repression(Ctx, Pairs),
    findall([S, T | Es], member(p(S, T, Es), Pairs), L), append([ByRole | L], Ids0), sort(Ids0, Ids).

az_state_by_role(ctx(_, _, States), Ids) :- nodes_where('Actor', role, party, P), findall(A, (member(A, States), member(A, P)), Ids).

az_state_repression(ctx(_, Groups, States), Pairs) :-
    events_of_type('ASSAULT', A), events_of_type('COERCE', C), append(A, C, Es),
    link_pairs(Es, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), All),
    findall(p(X, Y, Ev), (member(p(X, Y, Ev), All), member(X, States), member(Y-_, Groups)), Pairs).

% a state actor mediating talks (role mediator, or the mediator of the CONSULT event) after the last
% of which ASSAULT or COERCE events happened: mediators, their talks, and the violence that followed
az_failing_mediation(ctx(_, _, States), Ids, Mediators) :-
    events_of_type('CONSULT', Talks), nonempty(Talks),
    participants(Talks, ByActor), group_by_edge(Talks, 'PARTICIPATES_IN', in, mediator, ByMediatorEdge),
    nodes_where('Actor', role, mediator, RoleMediators),
    events_of_type('ASSAULT', A), events_of_type('COERCE', C), append(A, C, Violence),
    findall(M-Ev, (member(M, States), az_mediated(M, ByActor, ByMediatorEdge, RoleMediators, Mediated),
                   az_violence_after(Mediated, Violence, After), nonempty(After), append(Mediated, After, Ev)), L),
    findall(M, member(M-_, L), Mediators),
    findall([M|Ev], member(M-Ev, L), L2), append(L2, Ids0), sort(Ids0, Ids).

az_mediated(M, _, ByMediatorEdge, _, Talks) :- member(M-Talks, ByMediatorEdge), !.
az_mediated(M, ByActor, _, RoleMediators, Talks) :- member(M, RoleMediators), member(M-Talks, ByActor), !.

% the events of Violence dated after the latest dated event of Talks
az_violence_after(Talks, Violence, After) :-
    findall(D, (member(E, Talks), days_before_reference(E, D)), Ds), nonempty(Ds),
    min_list(Ds, Last), Last >= 1, To is Last - 1, filter_ids(Violence, window(0, To), After).

% az_linkage(+Ctx, -Links): l(Foreign, Party, Edge) for each alliance of an outside actor with a party
az_linkage(ctx(Ps, _, _), Links) :-
    findall(l(X, P, E), (edge(E, 'ALLIED_WITH', A, B, _), az_ends(A, B, X, P), member(P, Ps), az_foreign(X, P)), L0),
    sort(L0, Links).
az_ends(A, B, A, B).
az_ends(A, B, B, A).
% an outside actor (not itself of role party): of another country_code than the party when both carry
% one; else a state or an international organisation
az_foreign(X, _) :- actor_role(X, party), !, fail.
az_foreign(X, P) :- prop(X, country_code, CX), prop(P, country_code, CP), !, CX \== CP.
az_foreign(X, _) :- actor_type(X, T), member(T, [state, international_org]).

az_link_ids(Links, Ids) :- findall(Id, (member(l(X, P, E), Links), member(Id, [X, P, E])), L), sort(L, Ids).

% hostile or aggrieved evidence at least a year old, and some in the recent window
az_protracted(Ids) :-
    findall(Es, (member(T, ['ASSAULT', 'COERCE', 'PROTEST']), events_of_type(T, Es)), EL), append(EL, Events),
    claims_of_type('Grievance', G), append(Events, G, All),
    filter_ids(All, window(365, 1000000), Old), nonempty(Old),
    recent_ids(All, Recent), nonempty(Recent),
    append(Old, Recent, Ids0), sort(Ids0, Ids).

% ---- preconditions -------------------------------------------------------------

% az_preconditions(+Ctx, -Held): pre(Name, Evidence, Because, Sentence) for each precondition that holds
az_preconditions(Ctx, Held) :- findall(pre(N, E, B, S), az_precondition(Ctx, N, E, B, S), Held).

az_precondition(Ctx, communal_identity, Ids, ['communal identity holds when identity groups are parties to the conflict', communal_identity], S) :-
    az_communal(Ctx, Ids), nonempty(Ids), az_communal_actors(Ctx, As),
    join(['Communal identity: the parties include identity groups (', As, ').'], S).
az_precondition(_, deprivation, Ids, ['deprivation holds when grievances name deprived needs (land, jobs, services, access)', deprivation], S) :-
    az_deprivation(Ids), nonempty(Ids), length(Ids, N), speakers(Ids, Sp), findall(A, member(A-_, Sp), As),
    ( N =:= 1 -> Noun = ' grievance' ; Noun = ' grievances' ),
    ( As = [] -> By = '' ; join([', voiced by ', As], By) ),
    join(['Deprivation of needs: ', N, Noun, ' about land, jobs, services or access', By, '.'], S).
az_precondition(Ctx, governance_failure, Ids, [Rule | Inds], S) :-
    az_state_party(Ctx, P), ( az_failing_mediation(Ctx, M, Mediators) -> true ; M = [], Mediators = [] ),
    append(P, M, Ids0), sort(Ids0, Ids), nonempty(Ids),
    findall(I, (member(I-E, [state_party-P, failing_mediator-M]), nonempty(E)), Inds),
    Rule = 'governance failure holds when the state is a party (by role, or attacking a communal group) or its mediation is followed by violence',
    az_governance_text(Ctx, P, Mediators, S).
az_precondition(Ctx, international_linkage, Ids, ['international linkage holds when an outside state, organisation or foreign actor is allied with a party', international_linkage], S) :-
    az_linkage(Ctx, Links), nonempty(Links), az_link_ids(Links, Ids),
    findall(X, member(l(X, _, _), Links), Xs0), sort(Xs0, Xs), findall(P, member(l(_, P, _), Links), Ps0), sort(Ps0, Ps),
    join(['International linkage: ', Xs, ' allied with ', Ps, '.'], S).

az_governance_text(Ctx, P, Mediators, S) :-
    az_state_by_role(Ctx, ByRole), az_state_repression(Ctx, Pairs),
    findall(X, member(p(X, _, _), Pairs), R0), append(ByRole, R0, S0), sort(S0, States),
    findall(Y, member(p(_, Y, _), Pairs), V0), sort(V0, Victims),
    ( P == [] -> T1 = ''
    ; Victims == [] -> join(['the state is a party (', States, ')'], T1)
    ; join(['the state is a party (', States, '), attacking or coercing ', Victims], T1) ),
    ( Mediators == [] -> T2 = '' ; join(['mediation by ', Mediators, ' was followed by more violence'], T2) ),
    ( T1 \== '', T2 \== '' -> Sep = '; ' ; Sep = '' ),
    join(['Governance failure: ', T1, Sep, T2, '.'], S).

az_name(communal_identity, 'communal identity').
az_name(deprivation, 'deprivation').
az_name(governance_failure, 'governance failure').
az_name(international_linkage, 'international linkage').

az_and([], 'none').
az_and([X], X) :- !.
az_and([X, Y], T) :- !, atomic_list_concat([X, ' and ', Y], T).
az_and([X|Xs], T) :- az_and(Xs, Rest), atomic_list_concat([X, ', ', Rest], T).

% ---- findings -------------------------------------------------------------------

finding(Key, Value, Sentence, Ids, Because) :-
    az_ctx(Ctx), az_preconditions(Ctx, Held), az_finding(Ctx, Held, Key, Value, Sentence, Ids, Because).

az_finding(_, Held, precondition, Name, Sentence, Ids, Because) :- member(pre(Name, Ids, Because, Sentence), Held).
az_finding(ctx(Parties, _, _), Held, protracted_social_conflict, Value, Sentence, Ids, [Rule | Inds]) :-
    findall(N, member(pre(N, _, _, _), Held), Names),
    findall(E, member(pre(_, E, _, _), Held), Es), append(Es, Ids0), sort(Ids0, Ids1),
    ( Ids1 = [] -> Ids = Parties ; Ids = Ids1 ),
    findall(I, (member(pre(_, _, [_|Is], _), Held), member(I, Is)), Inds),
    length(Names, K), ( K >= 3 -> Value = yes ; Value = no ),
    Rule = 'Azar: a protracted social conflict when at least three of the four preconditions hold',
    findall(T, (member(N, Names), az_name(N, T)), HeldNames), az_and(HeldNames, HeldText),
    findall(T, (az_name(N, T), \+ member(N, Names)), AbsentNames), az_and(AbsentNames, AbsentText),
    ( az_protracted(P), nonempty(P) -> Lasting = ' The hostility has lasted over a year and goes on.' ; Lasting = '' ),
    az_psc_text(Value, K, HeldText, AbsentText, Lasting, Sentence).

az_psc_text(yes, K, Held, Absent, Lasting, S) :-
    ( Absent == none -> Rest = '' ; atomic_list_concat([' (not shown: ', Absent, ')'], Rest) ),
    atomic_list_concat(['A protracted social conflict in Azar''s sense: ', K, ' of the 4 preconditions hold (', Held, ')', Rest, '.', Lasting], S).
az_psc_text(no, K, Held, Absent, Lasting, S) :-
    atomic_list_concat(['Not a protracted social conflict in Azar''s sense: ', K, ' of the 4 preconditions hold (', Held, '); not shown: ', Absent, '.', Lasting], S).
