% Galtung's violence triangle (1969, 1990) and ABC conflict triangle (1969, 1996).
%   direct violence      harm done by an actor to another: ASSAULT and COERCE events
%   structural violence  harm built into the social order: Grievance claims about exclusion,
%                        deprivation, discrimination, poverty, marginalisation, denied access, inequality
%   cultural violence    what makes the other two look right: claims that dehumanise the other side
%                        (Dehumanization claims, or dehumanising words) or justify violence (words of
%                        justification about force, or a Justification claim REFERS_TO an ASSAULT or
%                        COERCE event)
%   ABC triangle         attitudes (Accusation, Grievance claims), behaviour (events), contradiction
%                        (opposing actors with claims about one Issue or interests CONCERNS it, or
%                        interests of one type)
% The whole view is read (not only the recent window): the triangle describes the
% conflict's make-up, not its momentum. Helpers of this module are prefixed gt_.

:- module(galtung, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% ---- applies --------------------------------------------------------------

missing('no claims or events: violence is read from what the actors do (events) and say (claims)') :-
    kind_count('Claim', 0), kind_count('Event', 0).

% ---- indicators -------------------------------------------------------------

indicator(direct_violence, 1, 'direct violence: physical harm or coercion done by an actor (ASSAULT, COERCE events)').
indicator(structural_violence, 1, 'structural violence: Grievance claims about exclusion, deprivation, discrimination, poverty, marginalisation, denied access or inequality').
indicator(cultural_violence, 1, 'cultural violence: claims that dehumanise the other side (Dehumanization claims; vermin, traitors, subhuman, infidels...) or justify violence (force called deserved, justified or necessary; holy war; Justification claims about force or referring to an ASSAULT or COERCE event)').
indicator(attitudes, 1, 'attitudes: hostile perceptions voiced in Accusation and Grievance claims').
indicator(behaviour, 1, 'behaviour: what the parties do (events of any type)').
indicator(contradiction, 1, 'contradiction: opposing actors with claims about the same Issue (ABOUT) or interests in it (CONCERNS), or holding interests of the same type (HOLDS_INTEREST)').

present(direct_violence, Ids) :- gt_direct(Ids), nonempty(Ids).
present(structural_violence, Ids) :- gt_structural(Ids), nonempty(Ids).
present(cultural_violence, Ids) :- gt_cultural(Dehumanising, Justifying), append(Dehumanising, Justifying, Ids0), sort(Ids0, Ids), nonempty(Ids).
present(attitudes, Ids) :- claims_of_type('Accusation', A), claims_of_type('Grievance', G), append(A, G, Ids0), sort(Ids0, Ids), nonempty(Ids).
present(behaviour, Ids) :- nodes_where('Event', _, _, Ids), nonempty(Ids).
present(contradiction, Ids) :- gt_contradiction(Ids), nonempty(Ids).

% ---- the three kinds of violence ----------------------------------------------

% The sets below are read by the indicators, the findings and the tally of kinds alike: each is
% computed once per graph view and kept with view_set/3 (read without the copy a table makes).
gt_direct(Ids) :- view_set(gt_direct, gt_direct_, Ids).
gt_structural(Ids) :- view_set(gt_structural, gt_structural_, Ids).
gt_cultural(Dehumanising, Justifying) :- view_set(gt_cultural, gt_cultural_, Dehumanising-Justifying).
% the adjacency, the speakers by issue and the contradiction are kept as one model (gt_model/1), so that a write
% grows the contradiction from the grown adjacency and speakers (added_answer/4 below)
gt_adjacency(Adj) :- gt_model(m(Adj, _, _, _)).
gt_issue_speakers(ByIssue) :- gt_model(m(_, ByIssue, _, _)).
gt_contradiction(Ids) :- gt_model(m(_, _, _, Ids)).

gt_direct_(Ids) :- events_of_type('ASSAULT', A), events_of_type('COERCE', C), append(A, C, Ids0), sort(Ids0, Ids).

gt_structural_(Ids) :- claims_of_type('Grievance', G), keywords(gt_structural_words, W), mentioning(G, W, Ids).

% gt_cultural(-Dehumanising, -Justifying): claims that dehumanise or justify (sorted, may overlap).
gt_cultural_(Dehumanising-Justifying) :-
    keywords(gt_dehumanising_words, DW), nodes_mentioning('Claim', DW, Worded),
    claims_of_type('Dehumanization', Typed), append(Worded, Typed, D0), sort(D0, Dehumanising),
    keywords(gt_force_words, FW), nodes_mentioning('Claim', FW, OfForce),
    keywords(gt_justifying_words, JW), mentioning(OfForce, JW, Said),
    keywords(gt_violence_justified, VJ), nodes_mentioning('Claim', VJ, Outright),
    claims_of_type('Justification', J), mentioning(J, FW, Justifications), gt_justified_acts(J, OfActs),
    append([Said, Outright, Justifications, OfActs], J0), sort(J0, Justifying).

% gt_justified_acts(+Justifications, -OfViolence): the Justification claims that speak of (REFERS_TO) direct violence.
% The REFERS_TO edges are read once, grouped by the event they refer to; one walk of both sorted lists picks the direct
% acts' groups and the claims that refer to them are intersected with the Justification claims. A lookup of each
% claim's edges cost some 50k inferences at 1M facts (6,347 Justification claims); testing each referred event with
% ord_memberchk/2 against every ASSAULT and COERCE event was quadratic: 16.6M inferences for 6,000 Justification
% claims referring to 11,000 ASSAULT events, near the default limit of 20M, against some 93k so
gt_justified_acts(J, OfViolence) :-
    gt_direct(Direct),
    findall(E-C, edge(_, 'REFERS_TO', C, E, _), Refs0), sort(Refs0, Refs), group_pairs_by_key(Refs, ByEvent),
    select_groups(Direct, ByEvent, OfActs), grouped_ids(OfActs, Referring0), sort(Referring0, Referring),
    ord_intersection(J, Referring, OfViolence).

keywords(gt_structural_words, [exclud, exclusion, depriv, discriminat, poverty, impoverish, marginalis, marginaliz,
    'denied access', 'deny access', 'denies access', 'denied the right', 'no access', 'without access', 'cut off from',
    inequalit, unequal, segregat, disenfranchis, 'second-class', landless]).
keywords(gt_dehumanising_words, [vermin, cockroach, ' rats', parasite, terrorists, traitors, infidel, animals, subhuman, 'sub-human',
    savages, inferior, cleanse, impure, 'not human']).
% words that justify, counted only in a claim that also speaks of force; and phrases that justify violence by themselves
keywords(gt_justifying_words, [deserve, justified, justify, legitimate, 'had it coming', 'no choice', 'necessary', 'self-defence', 'self-defense', 'right to']).
keywords(gt_violence_justified, [ 'holy war', 'deserve to die', 'deserved to die', 'deserve no mercy', 'only language they understand', 'had it coming']).
keywords(gt_force_words, [violence, violent, attack, strike, ' kill', 'by force', 'use of force', 'force is', 'armed struggle', 'take up arms',
    bomb, shelling, ' war ', ' war,', ' war.', warfare, fight, retaliat, punish, eliminat, crush, 'driven out', 'drive them out', expel]).

gt_kind(direct, 1, direct_violence, 'direct').
gt_kind(structural, 2, structural_violence, 'structural').
gt_kind(cultural, 3, cultural_violence, 'cultural').

% ---- the ABC triangle: contradiction ------------------------------------------

% Two actors are opposing when an OPPOSES edge joins them (either way), or one acts against the
% other: a hostile event (ASSAULT, COERCE, THREATEN, SANCTION) with the other as target, or a
% Threat, Accusation, Demand or RedLine aimed at the other (TARGETS). gt_adjacency/1 builds, once,
% each pair of adversaries from the set predicates (link_pairs) and the OPPOSES edges, kept once under
% the first of its two actors (gt_adjacency_/1); the speakers on each issue and the holders of each
% interest type are then looked up in it.

% gt_model(-m(Adj, ByIssue, BySet, Ids)): the adjacency, the speakers by issue, Set-Evidence for each contested set
% with an opposed pair (sorted by set) and the contradiction, their evidence's union
gt_model(Model) :- view_set(gt_model, gt_model_, Model).
gt_model_(m(Adj, ByIssue, BySet, Ids)) :-
    gt_adjacency_(Adj), gt_issue_speakers_(ByIssue),
    findall(Set-Ev, (gt_contested_set(Set), gt_set_opposed(Set, s(Adj, ByIssue), Ev)), Found), keysort(Found, BySet),
    gt_contradiction_ids(BySet, Ids).

gt_contradiction_ids(BySet, Ids) :- pairs_values(BySet, Found), append(Found, Ids0), sort(Ids0, Ids).

% added_answer(+Key, +Added, +Answer, -Grown): the model with the records a write added (lib/graph.pl grown/3): the
% adjacency and the speakers grown (gt_added_adversaries/4, gt_added_speakers/4), and the contested sets whose answer
% they can change found again (gt_touched_sets/4), the others kept: a set's opposed pair and its evidence read only
% its speakers (or holders) and their adversaries. Where an ingest-like write had the walk of every issue's speakers
% found again (some 0.55M inferences and 0.65 s of CPU at 1M facts), it reads the few sets the write touched; a write
% past growth_node_limit/1 (added_ends/2 fails) has every set's answer found again, over the grown adjacency.
added_answer(gt_model, Added, m(Adj0, ByIssue0, BySet0, _), m(Adj, ByIssue, BySet, Ids)) :-
    Added = added(_, _, Edges), edges_added(Edges, New),
    gt_added_adversaries(New, Adj0, Adj, Changed), gt_added_speakers(New, ByIssue0, ByIssue, Spoken),
    (   added_ends(Added, _)
    ->  gt_touched_sets(New, Changed, Spoken, Sets),
        findall(Set-Ev, (member(Set, Sets), gt_contested(Set), gt_set_opposed(Set, s(Adj, ByIssue), Ev)), Found),
        findall(Set-Ev, (member(Set-Ev, BySet0), \+ ord_memberchk(Set, Sets)), Kept),
        append(Kept, Found, All)
    ;   findall(Set-Ev, (gt_contested_set(Set), gt_set_opposed(Set, s(Adj, ByIssue), Ev)), All)
    ),
    keysort(All, BySet), gt_contradiction_ids(BySet, Ids).

% gt_touched_sets(+New, +Changed, +Spoken, -Sets): the contested sets whose answer a write can change (sorted): the
% issues given speakers, the issues an actor given adversaries speaks on, the interest types those actors, or a holder
% of an interest added, hold
gt_touched_sets(New, Changed, Spoken, Sets) :-
    findall(issue(I), ( member(I, Spoken) ; member(A, Changed), gt_spoken_by(A, I) ), Issues),
    findall(A, ( member(A, Changed) ; member(e('HOLDS_INTEREST', A, _), New) ), Holders0), sort(Holders0, Holders),
    findall(interest(T), ( member(A, Holders), edge(_, 'HOLDS_INTEREST', A, In, _), prop(In, interest_type, T) ), Types),
    append(Issues, Types, Sets0), sort(Sets0, Sets).

% gt_spoken_by(+Actor, -Issue): an issue Actor speaks on, as gt_issue_speakers_/1 reads it, from the actor's own edges
gt_spoken_by(A, I) :- edge(_, 'ASSERTS', A, C, _), edge(_, 'ABOUT', C, I, _).
gt_spoken_by(A, I) :- edge(_, 'HOLDS_INTEREST', A, C, _), edge(_, 'CONCERNS', C, I, _).

% a set gt_contested_set/1 enumerates
gt_contested(issue(I)) :- once(node(I, 'Issue')).
gt_contested(interest(T)) :- gt_contested_interest_type(T).

% gt_sides(-s(Adj, ByIssue)): the adjacency and the speakers by issue, read once for all the contested
% sets
gt_sides(s(Adj, ByIssue)) :- gt_adjacency(Adj), gt_issue_speakers(ByIssue).

% the sets of actors whose opposition makes a contradiction: the speakers on each Issue, the holders
% of each interest type (the adjacency is read at the start of each, and not carried further)
gt_contested_set(issue(I)) :- nodes_where('Issue', _, _, Issues), member(I, Issues).
gt_contested_set(interest(T)) :- gt_contested_interest_type(T).

% the issue and the opposing actors' claims about it
% (one opposing pair per issue or interest type is enough to show the contradiction)
gt_set_opposed(issue(Issue), s(Adj, ByIssue), [Issue | Said]) :-
    group_ids(Issue, ByIssue, Speakers), gt_opposed_pair(Speakers, Adj, Pair), gt_pair_ids(Pair, Speakers, Said).
% the opposing actors' interests of that type (other than 'other')
gt_set_opposed(interest(Type), s(Adj, _), Interests) :-
    nodes_where('Interest', interest_type, Type, Is), nonempty(Is),
    group_by_edge(Is, 'HOLDS_INTEREST', in, _, Holders), gt_opposed_pair(Holders, Adj, Pair), gt_pair_ids(Pair, Holders, Interests).

% gt_issue_speakers(-ByIssue): Issue-Speakers for each issue claims are about, Speakers being Actor-Claims
% (both sorted), as an index (index_groups/2): read once from the ABOUT edges and the claims' speakers (each claim's
% ASSERTS edges read as asserts/2 reads them, without its calls around edge/5: 35k ABOUT edges at 1M facts)
gt_issue_speakers_(ByIssue) :-
    findall(I-(A-C), ( edge(_, 'ABOUT', C, I, _), edge(_, 'ASSERTS', A, C, _) ; edge(_, 'CONCERNS', C, I, _), edge(_, 'HOLDS_INTEREST', A, C, _) ), L),
    sort(L, Sorted), group_pairs_by_key(Sorted, Issues),
    findall(I-Speakers, ( member(I-ACs, Issues), group_pairs_by_key(ACs, Speakers) ), Groups), index_groups(Groups, ByIssue).

% gt_added_speakers(+New, +ByIssue, -Grown, -Spoken): the speakers by issue with the edges a write added (edges_added/2):
% the issue, speaker and claim each ABOUT, ASSERTS, CONCERNS or HOLDS_INTEREST edge added links (with the edges it
% meets, held or added), merged into the index, where a write of such an edge would have them read again over every
% ABOUT edge (some 1.5M inferences at 1M facts); Spoken: the issues given speakers (sorted)
gt_added_speakers(Added, ByIssue, Grown, Spoken) :-
    findall(I-(A-C), ( member(e(T, From, To), Added), gt_said_by(T, From, To, I, A, C) ), L),
    sort(L, Sorted), group_pairs_by_key(Sorted, Issues), pairs_keys(Issues, Spoken),
    foldl(gt_add_speakers, Issues, ByIssue, Grown).

% gt_said_by(+Type, +From, +To, -Issue, -Actor, -Claim): what an edge of Type links, as gt_issue_speakers_/1 reads it
gt_said_by('ABOUT', C, I, I, A, C) :- asserts(A, C).
gt_said_by('ASSERTS', A, C, I, A, C) :- edge(_, 'ABOUT', C, I, _).
gt_said_by('CONCERNS', C, I, I, A, C) :- edge(_, 'HOLDS_INTEREST', A, C, _).
gt_said_by('HOLDS_INTEREST', A, C, I, A, C) :- edge(_, 'CONCERNS', C, I, _).

gt_add_speakers(I-ACs, Index0, Index) :-
    group_pairs_by_key(ACs, New),
    ( get_assoc(I, Index0, Old) -> true ; Old = [] ),
    append(Old, New, All), merge_groups(All, Speakers),
    put_assoc(I, Index0, Speakers, Index).

% gt_added_adversaries(+New, +Adj, -Grown, -Changed): the adjacency with the edges a write added: the links of each
% OPPOSES edge added, and of each event or claim of gt_adjacency_/1's types that an edge added links (added_link/5 of
% lib/conflict.pl, which the hostile pairs grow with too), merged into the index, where a write of such an edge would
% have every link found and sorted again; Changed: the actors given a link, at either end (sorted)
gt_added_adversaries(Added, Adj, Grown, Changed) :-
    findall(A-B, added_link(Added, gt_hostile_event_type, gt_hostile_claim_type, A, B), Found),
    findall(X, ( member(A-B, Found), member(X, [A, B]) ), Ends), sort(Ends, Changed),
    findall(L, ( member(A-B, Found), gt_link(A, B, L) ), Links), sort(Links, Sorted), group_pairs_by_key(Sorted, Groups),
    foldl(gt_add_adversaries, Groups, Adj, Grown).

gt_add_adversaries(A-New, Index0, Index) :-
    ( get_assoc(A, Index0, Old) -> ord_union(Old, New, All) ; All = New ),
    put_assoc(A, Index0, All, Index).

% gt_adjacency(-Adj): Actor-Adversaries, each pair of adversaries once, under the first of the two in the standard
% order (an actor opposed to itself under itself), both sorted, as an index (index_groups/2): the walk for an opposed
% pair (gt_first_pair/3) looks only after each actor, and found every link twice (68k at 1M facts, some 14 steps a
% speaker of an issue with no opposed pair). The OPPOSES edges' links are the list the pairs' are added to, where
% append/2 walked the pairs' 68k links to add them at the end
gt_adjacency_(Adj) :-
    findall(L, ( edge(_, 'OPPOSES', S, T, _), gt_link(S, T, L) ), OL),
    findall(Ps, (gt_hostile_event_type(T), events_of_type(T, Es), nonempty(Es),
                 link_pairs(Es, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), Ps)), EL),
    findall(Ps, (gt_hostile_claim_type(T), claims_of_type(T, Cs), nonempty(Cs),
                 link_pairs(Cs, in('ASSERTS'), out('TARGETS'), Ps)), CL),
    append(EL, CL, PLs), gt_pair_lists(PLs, OL, Links),
    sort(Links, Sorted), group_pairs_by_key(Sorted, Groups), index_groups(Groups, Adj).

% gt_link(+A, +B, -Link): the link of two adversaries, the first in the standard order as its key
gt_link(A, B, Link) :- ( B @< A -> Link = B-A ; Link = A-B ).

% the event and claim types whose links make the adjacency, for gt_adjacency_/1 and its growth both (the library's
% hostile_event_type/1 less ACCUSE)
gt_hostile_event_type(T) :- member(T, ['ASSAULT', 'COERCE', 'THREATEN', 'SANCTION']).
gt_hostile_claim_type(T) :- member(T, ['Threat', 'Accusation', 'Demand', 'RedLine']).

gt_pair_lists([], Acc, Acc).
gt_pair_lists([Ps | Rest], Acc0, Acc) :- gt_pair_links(Ps, Acc0, Acc1), gt_pair_lists(Rest, Acc1, Acc).
gt_pair_links([], Acc, Acc).
gt_pair_links([p(A, B, _) | Rest], Acc, Out) :- gt_link(A, B, L), gt_pair_links(Rest, [L | Acc], Out).

gt_contested_interest_type(T) :- member(T, [security, territory, resources, recognition, autonomy, identity, power, economic]).
gt_contested_interest_type(participation).

% gt_opposed_pair(+Groups, +Adj, -Pair): A-B, the first two actors of Actor-Ids groups (sorted by actor) that are
% adversaries (A @=< B); walks the groups, looking each actor's adversaries after it up (the first of them in the
% groups), and stops at the first pair. The first actor with an adversary in the groups has none before it there (that
% one would come first), so the adversaries after each actor (gt_adjacency_/1) find the pair every adversary would. The
% lookup is get_assoc/3's (an actor with no adversary after it is not in the index), not group_ids/3's two calls
% around it: at 1M facts a fresh run makes some 35k, one per speaker of each issue; the groups are read as they are,
% where their actors taken out (pairs_keys/2) and the pair's groups selected again (select_groups/3) took some 50k
gt_opposed_pair(Groups, Adj, Pair) :- Groups = [_, _ | _], gt_first_pair(Groups, Adj, Pair).

gt_first_pair(Groups, Adj, Pair) :-
    Groups = [A-_ | Rest],
    (   get_assoc(A, Adj, Adv), member(B, Adv), memberchk(B-_, Groups)
    ->  Pair = A-B
    ;   gt_first_pair(Rest, Adj, Pair)
    ).

% gt_pair_ids(+Pair, +Groups, -Ids): the ids of the pair's two groups, the first's then the second's (one group for an
% actor opposed to itself)
gt_pair_ids(A-B, Groups, Ids) :-
    memberchk(A-IdsA, Groups),
    ( A == B -> Ids = IdsA ; memberchk(B-IdsB, Groups), append(IdsA, IdsB, Ids) ).

% ---- sentences -------------------------------------------------------------------

% ' by A, B and C' when the evidence names who did or said it
gt_by([], '') :- !.
gt_by(Groups, Text) :- gt_names(Groups, Names), atomic_list_concat([', by ', Names], Text).

% gt_names(+Groups, -Text): the actors of Actor-Items groups by label, at most five, those with the
% most items first when there are more ("A, B, C, D and 7 others")
gt_names(Groups, Text) :- length(Groups, N), N =< 5, !, pairs_keys(Groups, Actors), join([Actors], Text).
% (ranked by a stable sort/4 of Count-Actor, most first, ties in the groups' order, by actor: a step and a length/2 a
% group, where a findall of -Count-Actor took four, over the 7.7k perpetrators of direct violence at 1M facts)
gt_names(Groups, Text) :-
    gt_counted(Groups, Counted), sort(1, @>=, Counted, Ranked),
    take(4, Ranked, Top), pairs_values(Top, Actors), length(Groups, N), Others is N - 4,
    labels(Actors, Labels), atomic_list_concat(Labels, ', ', Front), atomic_list_concat([Front, ' and ', Others, ' others'], Text).

gt_counted([], []).
gt_counted([A-Items | Groups], [K-A | Counted]) :- length(Items, K), gt_counted(Groups, Counted).

gt_plural(1, Singular, _, Singular) :- !.
gt_plural(_, _, Plural, Plural).

% ---- findings -------------------------------------------------------------------

% (each sentence is written first, from the tabled sets, and the evidence read after it)
finding(violence, direct, Sentence, Ids, ['direct violence is harm an actor does to another: ASSAULT and COERCE events', direct_violence]) :-
    gt_direct_sentence(Sentence), present(direct_violence, Ids).
finding(violence, structural, Sentence, Ids, ['structural violence is harm built into the social order: Grievance claims about exclusion, deprivation, discrimination, poverty or denied access', structural_violence]) :-
    gt_structural_sentence(Sentence), present(structural_violence, Ids).
finding(violence, cultural, Sentence, Ids, ['cultural violence is what makes direct and structural violence look right: claims that dehumanise the other side or justify violence', cultural_violence]) :-
    gt_cultural_sentence(Sentence), present(cultural_violence, Ids).

% The sentences are kept for the view (view_set/3, with what they read): a write that touches no event, claim or
% edge they read (an Issue, a Location, a Document) leaves them, where each run after it summed the fatalities and
% grouped the perpetrators and speakers again (some 130k inferences at 1M facts after an Issue node was written)
gt_direct_sentence(Sentence) :- view_set(gt_direct_sentence, gt_direct_sentence_, Sentence).
gt_structural_sentence(Sentence) :- view_set(gt_structural_sentence, gt_structural_sentence_, Sentence).
gt_cultural_sentence(Sentence) :- view_set(gt_cultural_sentence, gt_cultural_sentence_, Sentence).

gt_direct_sentence_(Sentence) :-
    gt_direct(Ids), nonempty(Ids), fatalities(Ids, F), gt_perpetrators(Groups), length(Ids, N),
    gt_by(Groups, By), gt_plural(N, 'event', 'events', Noun),
    ( F > 0 -> atomic_list_concat([' with ', F, ' fatalities reported'], Dead) ; Dead = '' ),
    atomic_list_concat(['Direct violence: ', N, ' ASSAULT or COERCE ', Noun, Dead, By, '.'], Sentence).
% gt_perpetrators(-Groups): perpetrators/2 of direct violence, merged from those of each event type (kept for the view
% by the library's shared sets, lib/conflict.pl warm_view_sets/0), where the grouping of the union walked the edges of
% each of its events again (some 86k inferences at 1M facts, 11k events)
gt_perpetrators(Groups) :-
    events_of_type('ASSAULT', A), events_of_type('COERCE', C), perpetrators(A, GA), perpetrators(C, GC),
    append(GA, GC, Both), merge_groups(Both, Groups).

gt_structural_sentence_(Sentence) :-
    gt_structural(Ids), nonempty(Ids), speakers(Ids, Groups), length(Ids, N), gt_by(Groups, By),
    gt_plural(N, 'grievance describes', 'grievances describe', Noun),
    atomic_list_concat(['Structural violence: ', N, ' ', Noun, ' exclusion, deprivation, discrimination or denied access', By, '.'], Sentence).
gt_cultural_sentence_(Sentence) :-
    gt_cultural(D, J), append(D, J, Ids0), sort(Ids0, Ids), nonempty(Ids), speakers(Ids, Groups),
    length(D, ND), length(J, NJ), length(Ids, N), gt_by(Groups, By), gt_plural(N, 'claim', 'claims', Noun),
    atomic_list_concat(['Cultural violence: ', N, ' ', Noun, ' (', ND, ' dehumanising the other side, ', NJ, ' justifying violence)', By, '.'], Sentence).

% the kind with the most evidence; ties go to direct, then structural, then cultural
finding(dominant_violence, Kind, Sentence, Ids, [Rule, Indicator]) :-
    gt_tally(Tally), msort(Tally, [_-_-Kind | _]), gt_kind(Kind, _, Indicator, Name),
    findall(T, (gt_kind(K2, _, _, Name2), member(Neg-_-K2, Tally), N2 is -Neg, atomic_list_concat([Name2, ' ', N2], T)), Parts),
    atomic_list_concat(Parts, ', ', Text),
    Rule = 'the dominant kind is the one with the most evidence (ties: direct, then structural, then cultural)',
    gt_capitalise(Name, Title),
    atomic_list_concat([Title, ' violence dominates the evidence (items per kind: ', Text, ').'], Sentence),
    present(Indicator, Ids).

% gt_tally(-Tally): -Count-Order-Kind for each kind of violence (0 when absent), at least one present
gt_tally(Tally) :-
    findall(Neg-Order-K, (gt_kind(K, Order, I, _), ( present(I, Ev) -> length(Ev, N) ; N = 0 ), Neg is -N), Tally),
    member(Neg-_-_, Tally), Neg < 0, !.

% the corners of the conflict triangle that are visible, as a list in the order A, B, C
finding(abc, Corners, Sentence, Ids, [Rule | Corners]) :-
    findall(C-Ev, (member(C, [attitudes, behaviour, contradiction]), gt_corner(C, Ev)), Found), nonempty(Found),
    pairs_keys(Found, Corners), findall(Ev, member(_-Ev, Found), Evs), gt_union(Evs, Ids),
    findall(C, (member(C, [attitudes, behaviour, contradiction]), \+ member(C, Corners)), Absent),
    gt_abc_reading(Corners, Absent, Reading),
    Rule = 'attitudes are Accusation and Grievance claims, behaviour is events, contradiction is opposing actors on one Issue or interest type',
    list_text(Corners, Seen),
    join(['Of the conflict triangle, the corners visible are ', Seen, Reading], Sentence).

% gt_union(+Lists, -Ids): the elements of Lists, sorted; the shorter lists put in front of the longest, which append/3
% does not walk: append/2 walked every list, the behaviour corner's too (every event: 57k at 1M facts)
gt_union(Lists, Ids) :-
    map_list_to_pairs(length, Lists, Keyed), keysort(Keyed, ByLength), pairs_values(ByLength, Ordered),
    reverse(Ordered, [Longest | Shorter]), foldl(append, Shorter, Longest, Ids0), sort(Ids0, Ids).

% a corner and its evidence; for contradiction the first issue or interest type that shows it is enough
gt_corner(contradiction, Ev) :- !, gt_sides(Sides), gt_contested_set(Set), gt_set_opposed(Set, Sides, Ev), !.
gt_corner(C, Ev) :- present(C, Ev).

gt_abc_reading([_, _, _], _, ': a manifest conflict, which Galtung would address on all three corners at once.') :- !.
gt_abc_reading([contradiction], _, ' alone: a latent conflict, an incompatibility not yet voiced or acted on.') :- !.
gt_abc_reading(_, Absent, Text) :-
    list_text(Absent, Missing), gt_plural_of(Absent, Verb),
    atomic_list_concat(['; ', Missing, ' ', Verb, ' not shown in the graph.'], Text).

gt_plural_of([attitudes], 'are') :- !.
gt_plural_of([_], 'is') :- !.
gt_plural_of(_, 'are').

gt_capitalise(S0, S) :- atom_chars(S0, [C|Cs]), upcase_atom(C, U), atom_chars(U, [UC]), atom_chars(S, [UC|Cs]).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% structural and cultural violence are what the violence triangle sees that others do not;
% direct violence several frameworks read
strength(dominant_violence-K, Score, Ids) :- finding(dominant_violence, K, _, Ids, _), gt_kind_weight(K, W), reading_strength(W, Ids, Score).

gt_kind_weight(cultural, 0.9).
gt_kind_weight(structural, 0.85).
gt_kind_weight(direct, 0.55).
