% Galtung's violence triangle (1969, 1990) and ABC conflict triangle (1969, 1996).
%   direct violence      harm done by an actor to another: ASSAULT and COERCE events
%   structural violence  harm built into the social order: Grievance claims about exclusion,
%                        deprivation, discrimination, poverty, marginalisation, denied access, inequality
%   cultural violence    what makes the other two look right: claims that dehumanise the other side
%                        or justify violence
%   ABC triangle         attitudes (Accusation, Grievance claims), behaviour (events), contradiction
%                        (opposing actors with claims about one Issue, or interests of one type)
% The whole view is read (not only the recent window): the triangle describes the
% conflict's make-up, not its momentum. Helpers of this module are prefixed gt_.

% ---- applies --------------------------------------------------------------

missing('no claims or events: violence is read from what the actors do (events) and say (claims)') :-
    kind_count('Claim', 0), kind_count('Event', 0).

% ---- indicators -------------------------------------------------------------

indicator(direct_violence, 1, 'direct violence: physical harm or coercion done by an actor (ASSAULT, COERCE events)').
indicator(structural_violence, 1, 'structural violence: Grievance claims about exclusion, deprivation, discrimination, poverty, marginalisation, denied access or inequality').
indicator(cultural_violence, 1, 'cultural violence: claims that dehumanise the other side (vermin, traitors, subhuman, infidels...) or justify violence (deserved, justified, holy war; Justification claims about force)').
indicator(attitudes, 1, 'attitudes: hostile perceptions voiced in Accusation and Grievance claims').
indicator(behaviour, 1, 'behaviour: what the parties do (events of any type)').
indicator(contradiction, 1, 'contradiction: opposing actors with claims about the same Issue (ABOUT), or holding interests of the same type (HOLDS_INTEREST)').

present(direct_violence, Ids) :- gt_direct(Ids), nonempty(Ids).
present(structural_violence, Ids) :- gt_structural(Ids), nonempty(Ids).
present(cultural_violence, Ids) :- gt_cultural(Dehumanising, Justifying), append(Dehumanising, Justifying, Ids0), sort(Ids0, Ids), nonempty(Ids).
present(attitudes, Ids) :- claims_of_type('Accusation', A), claims_of_type('Grievance', G), append(A, G, Ids0), sort(Ids0, Ids), nonempty(Ids).
present(behaviour, Ids) :- nodes_where('Event', _, _, Ids), nonempty(Ids).
present(contradiction, Ids) :- gt_contradiction(Ids), nonempty(Ids).

% ---- the three kinds of violence ----------------------------------------------

gt_direct(Ids) :- events_of_type('ASSAULT', A), events_of_type('COERCE', C), append(A, C, Ids0), sort(Ids0, Ids).

gt_structural(Ids) :- claims_of_type('Grievance', G), gt_structural_words(W), mentioning(G, W, Ids).

% gt_cultural(-Dehumanising, -Justifying): claims that dehumanise or justify (sorted, may overlap).
gt_cultural(Dehumanising, Justifying) :-
    nodes_where('Claim', _, _, All),
    gt_dehumanising_words(DW), mentioning(All, DW, Dehumanising),
    gt_justifying_words(JW), mentioning(All, JW, Said),
    claims_of_type('Justification', J), gt_force_words(FW), mentioning(J, FW, OfForce),
    append(Said, OfForce, J0), sort(J0, Justifying).

gt_structural_words([exclud, exclusion, depriv, discriminat, poverty, impoverish, marginalis, marginaliz,
    'denied access', 'deny access', 'denies access', 'denied the right', 'no access', 'without access', 'cut off from',
    inequalit, unequal, segregat, disenfranchis, 'second-class', landless]).
gt_dehumanising_words([vermin, cockroach, rats, parasite, terrorists, traitors, infidel, animals, subhuman, 'sub-human',
    savages, inferior, cleanse, impure, 'not human']).
gt_justifying_words([deserve, justified, 'holy war', 'had it coming', 'only language they understand', 'necessary evil']).
gt_force_words([violence, violent, attack, strike, kill, force, bomb, shell, war, fight, arms, armed, retaliat, punish, eliminat, crush]).

gt_kind(direct, 1, direct_violence, 'direct').
gt_kind(structural, 2, structural_violence, 'structural').
gt_kind(cultural, 3, cultural_violence, 'cultural').

% ---- the ABC triangle: contradiction ------------------------------------------

% opposing actors (either way: OPPOSES edges, hostile events, hostile claims aimed at the other)
gt_opposing(Pairs) :- findall(A-B, opposing_pair(A, B, _), Pairs).

gt_contradiction(Ids) :-
    gt_opposing(Pairs), nonempty(Pairs),
    gt_issue_contradictions(Pairs, I1), gt_interest_contradictions(Pairs, I2),
    append(I1, I2, Ids0), sort(Ids0, Ids).

% claims of both sides of an opposing pair ABOUT one Issue: the issue and those claims
gt_issue_contradictions(Pairs, Ids) :-
    nodes_where('Claim', _, _, Cs),
    link_pairs(Cs, in('ASSERTS'), out('ABOUT'), ActorIssue),
    findall(Ev, (member(A-B, Pairs), member(p(A, I, CA), ActorIssue), member(p(B, I, CB), ActorIssue),
                 append([[I], CA, CB], Ev)), Found),
    append(Found, Ids0), sort(Ids0, Ids).

% both sides of an opposing pair hold interests of the same type (other than 'other')
gt_interest_contradictions(Pairs, Ids) :-
    findall(Ev, (gt_contested_interest_type(T), nodes_where('Interest', interest_type, T, Is), nonempty(Is),
                 group_by_edge(Is, 'HOLDS_INTEREST', in, _, Holders),
                 member(A-B, Pairs), member(A-IA, Holders), member(B-IB, Holders), append(IA, IB, Ev)), Found),
    append(Found, Ids0), sort(Ids0, Ids).

gt_contested_interest_type(T) :- member(T, [security, territory, resources, recognition, autonomy, identity, power, economic]).

% ---- sentences -------------------------------------------------------------------

gt_keys([], []).
gt_keys([K-_|Rest], [K|Ks]) :- gt_keys(Rest, Ks).

% ' by A, B and C' when the evidence names who did or said it
gt_by(Groups, Text) :- gt_keys(Groups, Actors), ( Actors = [] -> Text = '' ; join([', by ', Actors], Text) ).

gt_plural(1, Singular, _, Singular) :- !.
gt_plural(_, _, Plural, Plural).

% ---- findings -------------------------------------------------------------------

finding(violence, direct, Sentence, Ids, ['direct violence is harm an actor does to another: ASSAULT and COERCE events', direct_violence]) :-
    present(direct_violence, Ids), length(Ids, N), fatalities(Ids, F),
    perpetrators(Ids, Groups), gt_by(Groups, By), gt_plural(N, 'event', 'events', Noun),
    ( F > 0 -> atomic_list_concat([' with ', F, ' fatalities reported'], Dead) ; Dead = '' ),
    join(['Direct violence: ', N, ' ASSAULT or COERCE ', Noun, Dead, By, '.'], Sentence).
finding(violence, structural, Sentence, Ids, ['structural violence is harm built into the social order: Grievance claims about exclusion, deprivation, discrimination, poverty or denied access', structural_violence]) :-
    present(structural_violence, Ids), length(Ids, N), speakers(Ids, Groups), gt_by(Groups, By),
    gt_plural(N, 'grievance describes', 'grievances describe', Noun),
    join(['Structural violence: ', N, ' ', Noun, ' exclusion, deprivation, discrimination or denied access', By, '.'], Sentence).
finding(violence, cultural, Sentence, Ids, ['cultural violence is what makes direct and structural violence look right: claims that dehumanise the other side or justify violence', cultural_violence]) :-
    present(cultural_violence, Ids), gt_cultural(D, J), length(Ids, N), length(D, ND), length(J, NJ),
    speakers(Ids, Groups), gt_by(Groups, By), gt_plural(N, 'claim', 'claims', Noun),
    join(['Cultural violence: ', N, ' ', Noun, ' (', ND, ' dehumanising the other side, ', NJ, ' justifying violence)', By, '.'], Sentence).

% the kind with the most evidence; ties go to direct, then structural, then cultural
finding(dominant_violence, Kind, Sentence, Ids, [Rule, Indicator]) :-
    findall(Neg-Order-K-I-Ev, (gt_kind(K, Order, I, _), present(I, Ev), length(Ev, N), Neg is -N), Counts),
    msort(Counts, [_-_-Kind-Indicator-Ids | _]),
    gt_kind(Kind, _, _, Name),
    findall(T, (gt_kind(_, _, I2, Name2), ( present(I2, Ev2) -> length(Ev2, N2) ; N2 = 0 ),
                atomic_list_concat([Name2, ' ', N2], T)), Parts),
    atomic_list_concat(Parts, ', ', Tally),
    Rule = 'the dominant kind is the one with the most evidence (ties: direct, then structural, then cultural)',
    gt_capitalise(Name, Title),
    join([Title, ' violence dominates the evidence (items per kind: ', Tally, ').'], Sentence).

% the corners of the conflict triangle that are visible, as a list in the order A, B, C
finding(abc, Corners, Sentence, Ids, [Rule | Corners]) :-
    findall(C-Ev, (member(C, [attitudes, behaviour, contradiction]), present(C, Ev)), Found), nonempty(Found),
    gt_keys(Found, Corners), findall(Ev, member(_-Ev, Found), Evs), append(Evs, Ids0), sort(Ids0, Ids),
    findall(C, (member(C, [attitudes, behaviour, contradiction]), \+ member(C, Corners)), Absent),
    gt_abc_reading(Corners, Absent, Reading),
    Rule = 'attitudes are Accusation and Grievance claims, behaviour is events, contradiction is opposing actors on one Issue or interest type',
    gt_and(Corners, Seen),
    join(['Of the conflict triangle, the corners visible are ', Seen, Reading], Sentence).

gt_abc_reading([_, _, _], _, ': a manifest conflict, which Galtung would address on all three corners at once.') :- !.
gt_abc_reading([contradiction], _, ' alone: a latent conflict, an incompatibility not yet voiced or acted on.') :- !.
gt_abc_reading(_, Absent, Text) :-
    gt_and(Absent, Missing), gt_plural_of(Absent, Verb),
    atomic_list_concat(['; ', Missing, ' ', Verb, ' not shown in the graph.'], Text).

gt_plural_of([_], 'is') :- !.
gt_plural_of(_, 'are').

% gt_and(+Atoms, -Text): "a", "a and b", "a, b and c"
gt_and([X], X) :- !.
gt_and([X, Y], T) :- !, atomic_list_concat([X, ' and ', Y], T).
gt_and([X|Xs], T) :- gt_and(Xs, Rest), atomic_list_concat([X, ', ', Rest], T).

gt_capitalise(S0, S) :- atom_chars(S0, [C|Cs]), upcase_atom(C, U), atom_chars(U, [UC]), atom_chars(S, [UC|Cs]).
