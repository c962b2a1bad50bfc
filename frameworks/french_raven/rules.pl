% French & Raven (1959), with Raven's informational power (1965): the bases of social power.
%   coercive       the ability to punish: Threat claims; COERCE and ASSAULT events it perpetrates
%   reward         the ability to give: Offer claims; AID events it perpetrates
%   legitimate     a recognised right to prescribe: actor_type state, government or
%                  international_org; claims citing a mandate, the law, the constitution,
%                  an election or a resolution
%   expert         knowledge others credit: claims citing experts or specialists
%   informational  the information itself: claims citing reports, data, evidence,
%                  investigations, figures ("according to")
%   referent       identification with the actor: ALLIED_WITH a community or civil-society
%                  actor; being a community (actor_type community)
% An actor's dominant base is the one with the most moves; ties go in the order of the
% literature: reward, coercive, legitimate, referent, expert, informational.
%
% Shape: each source of a base is an Actor-Ids grouping made in one step by a set predicate
% (claims_by_actor, perpetrators, speakers of the claims mentioning the keywords) and passed over
% once, so that the cost grows with the number of actors rather than with every claim and
% event; count_ids/2 counts a list; evidence cites the first
% five ids of each group.

:- module(french_raven, [
    indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, ranks/1, keywords/2, power_base/2
]).

% ---- applies --------------------------------------------------------------

missing('no claims or events: power bases are read from what actors say and do') :-
    kind_count('Claim', 0), kind_count('Event', 0).
missing('no actor shows a power base: no threats, coercion or attacks, offers or aid, mandates or state standing, cited evidence or expertise, or community support') :-
    \+ (fr_source(_, G), G \== []).

% ---- indicators -------------------------------------------------------------

indicator(coercive, 1, 'coercive power: Threat claims, COERCE and ASSAULT events an actor perpetrates').
indicator(reward, 1, 'reward power: Offer claims, AID events an actor perpetrates').
indicator(legitimate, 1, 'legitimate power: states, governments and international organisations; claims citing a mandate, the law, the constitution, an election or a resolution').
indicator(expert, 1, 'expert power: claims citing experts, specialists, studies or technical assessments').
indicator(informational, 1, 'informational power: claims citing reports, data, evidence, investigations or figures').
indicator(referent, 1, 'referent power: alliances (ALLIED_WITH) with community or civil-society actors; communities themselves').

present(Base, Ids) :-
    fr_base(Base),
    findall(F, (fr_source(Base, G), take(5, G, G5), member(_-Is, G5), take(5, Is, F)), Fs),
    append(Fs, L), sort(L, Ids), nonempty(Ids).

% the bases, in tie-break order
fr_base(reward). fr_base(coercive). fr_base(legitimate). fr_base(referent). fr_base(expert). fr_base(informational).

keywords(fr_words(legitimate), ['mandate', ' law', 'lawful', 'legal', 'constitution', 'elected', 'election', 'resolution', 'sovereign', 'legitimate']).
keywords(fr_words(expert), ['expert', 'specialist', 'scientist', 'engineers', 'study', 'studies', 'technical assessment', 'professional']).
keywords(fr_words(informational), ['report', 'data', 'evidence', 'investigation', 'according to', 'figures', 'statistics', 'documents', 'footage', 'satellite', 'records', 'census', 'survey']).

% ---- list tools ------------------------------------------------------------------------

% fr_tally(+Groups, +Base, -Tallies): Actor-t(Rank, Base, Count, FirstIds) for each Actor-Ids group,
% Rank being the base's place in tie-break order (so that an actor's tallies sort in that order).
fr_tally(Groups, Base, Tallies) :- findall(B, fr_base(B), Bs), nth1(Rank, Bs, Base), !, fr_tally(Groups, Rank, Base, Tallies).
fr_tally([], _, _, []).
fr_tally([A-Ids|Gs], R, Base, [A-t(R, Base, N, S)|Ts]) :- count_ids(Ids, N), take(5, Ids, S), fr_tally(Gs, R, Base, Ts).

% fr_selves(+Actors, -Groups): Actor-[Actor] for each actor (the actor is its own evidence).
fr_selves([], []).
fr_selves([A|As], [A-[A]|Gs]) :- fr_selves(As, Gs).

% ---- moves per base ------------------------------------------------------------------

% fr_source(?Base, -Groups): Actor-Ids groupings of the moves or attributes of each base.
fr_source(coercive, G) :- fr_claim_type(coercive, T), claims_by_actor(T, G).
fr_source(coercive, G) :- fr_event_type(coercive, T), events_of_type(T, Es), perpetrators(Es, G).
fr_source(reward, G) :- fr_claim_type(reward, T), claims_by_actor(T, G).
fr_source(reward, G) :- fr_event_type(reward, T), events_of_type(T, Es), perpetrators(Es, G).
fr_source(legitimate, G) :- fr_legitimate_type(T), nodes_where('Actor', actor_type, T, As), fr_selves(As, G).
fr_source(legitimate, G) :- fr_citing(legitimate, G).
fr_source(expert, G) :- fr_citing(expert, G).
fr_source(informational, G) :- fr_citing(informational, G).
fr_source(referent, G) :-
    findall(A-[E], (fr_ally_type(T), nodes_where('Actor', actor_type, T, Cs), member(C, Cs), allied(C, A, E), A \== C), G).
fr_source(referent, G) :- fr_referent_type(T), nodes_where('Actor', actor_type, T, As), fr_selves(As, G).

% The types each grouping reads, one list for fr_source/2 and its growth (fr_own_source/3) both: the claims and the
% events (an actor perpetrates) of a base, the actor types with standing, the actor types whose allies gain referent
% power, and the actor type that holds it itself
fr_claim_type(coercive, 'Threat').
fr_claim_type(reward, 'Offer').
fr_event_type(coercive, T) :- member(T, ['COERCE', 'ASSAULT']).
fr_event_type(reward, 'AID').
fr_legitimate_type(T) :- member(T, [state, government, international_org]).
fr_ally_type(T) :- member(T, [community, civil_society]).
fr_referent_type(community).

% fr_citing(+Base, -Groups): speakers of the claims whose text cites the base's keywords (kept with
% view_set/3: the indicators and the profile both read them).
fr_citing(Base, Groups) :- view_set(fr_citing(Base), fr_citing_(Base), Groups).
fr_citing_(Base, Groups) :- keywords(fr_words(Base), Words), nodes_mentioning('Claim', Words, Hits), speakers(Hits, Groups).

% added_answer(fr_citing(Base), ...): the speakers citing a base grown with a write, where a write of a claim or an
% ASSERTS edge had them found again (79k and 39k inferences at 1M facts after an ingest-like write). A write only adds:
% a speaker's claims citing the base only grow, and a speaker's group changes only at an ASSERTS edge added from it (it
% is an end of an edge added: added_ends/2); each such group is found again from the speaker's own claims
% (fr_own_citing/3, as the profile's growth reads it) and put in place of its old one
added_answer(fr_citing(Base), Added, Groups0, Groups) :-
    added_ends(Added, Ends),
    findall(G, ( member(X, Ends), fr_own_citing(X, Base, G) ), New0), append(New0, New),
    put_by_subject(Groups0, New, Groups).

% fr_profile(-Profiles): p(Actor, [Base-c(Count, Ids)...]) for each actor with a base, bases in
% tie-break order; computed once per graph view and kept with view_set/3 (read without the copy a table makes), with
% the ids they cite (fr_cited/1)
fr_profile(Profiles) :- view_set(fr_profile, fr_compute_profile, frp(Profiles, _)).

% fr_cited(-Cited): Id-N for each id the profiles cite (strength/3's evidence), N the times their bases cite it
% (lib/conflict.pl cited_counts/3), kept with the profiles and grown with them
fr_cited(Cited) :- view_set(fr_profile, fr_compute_profile, frp(_, Cited)).

% fr_cites(+Profile, -Ids): the ids of each base of a profile
fr_cites(p(_, Bases), Ids) :- member(_-c(_, Ids), Bases).

% ranks(-Table): the candidates of rank/3 as a ranking table (lib/conflict.pl rank_table/2), kept with view_set/3
% apart from the profiles (the profiles' many readers need not copy it) and grown with them, so that the ranking after
% a write no longer scores every profile again (406k inferences at 1M facts after an ingest-like write)
ranks(Table) :- view_set(fr_ranks, fr_ranks_, Table).
fr_ranks_(Table) :- fr_profile(Profiles), fr_scored(Profiles, Scored), rank_entries(Scored, Table).

% fr_scored(+Profiles, -Scored): the Key-Subject-Score candidates of the profiles (rank/3's)
fr_scored(Profiles, Scored) :- findall(Key-Subject-N, ( member(P, Profiles), fr_rank(P, Key, Subject, N) ), Scored).

fr_compute_profile(frp(Profiles, Cited)) :-
    findall(Ts, (fr_source(Base, G), fr_tally(G, Base, Ts)), Lists),
    append(Lists, All), msort(All, Sorted), group_pairs_by_key(Sorted, ByActor),
    findall(p(A, Bases), (member(A-Ts, ByActor), fr_bases(Ts, Bases)), Profiles),
    cited_counts(fr_cites, Profiles, Cited).

% added_parts(+Key, +Added, +Answer, -Puts): the profiles with the records a write added (lib/graph.pl grown/3): the
% profile of each node the write added or an edge added ends at (added_ends/2), found again from its own edges
% (fr_own_source/3) and put in place of its old one (as put_by_subject/3 would), where a write of a claim or an event
% had every profile found again from every grouping (some 40 % of a run after an ingest-like write); the counts of the
% ids they cite move by their old profiles' ids out and the new ones' in (lib/conflict.pl cited_moved/8). Both answers
% are kept in parts (parted_answer/2, lib/graph.pl): the profiles and their cited ids by actor and by id, the ranking by
% its Key-Subject.
parted_answer(fr_profile, [1-1, 2-1]).
parted_answer(fr_ranks, list(4)).
added_parts(fr_profile, Added, frp(Profiles0, Cited0), [1-New, 2-CitedPuts]) :-
    fr_grown_profiles(Added, New),
    cited_moved(fr_cites, 1, New, Profiles0, Cited0, CitedPuts, Gone, Came),
    note_evidence_moved(fr_bases, Gone, Came).
% the ranking takes the candidates of those profiles in place of theirs (an actor's bases and counts only grow with a
% write, so its new candidates cover all of its old ones), as ranks_put/3 would
added_parts(fr_ranks, Added, _, New) :- fr_grown_profiles(Added, Profiles), fr_scored(Profiles, Scored), rank_entries(Scored, New).

% fr_grown_profiles(+Added, -Profiles): the profiles found again for a write, once for both growths (write_memo/3)
fr_grown_profiles(Added, New) :-
    write_memo(fr_grown_profiles, New, ( added_ends(Added, Touched), findall(p(X, Bases), ( member(X, Touched), fr_own_profile(X, Bases) ), New) )).

% fr_own_profile(+X, -Bases): X's bases (fails when it has none), as fr_compute_profile/1 finds them from every grouping
fr_own_profile(X, Bases) :-
    findall(Ts, ( fr_own_source(X, Base, G), fr_tally(G, Base, Ts) ), Lists),
    append(Lists, All), All \== [], msort(All, Sorted), pairs_values(Sorted, Ts), fr_bases(Ts, Bases).

% fr_own_source(+X, ?Base, -Groups): X's groups (X-Ids) in each fr_source/2 grouping, read from X's own edges
fr_own_source(X, coercive, G) :- fr_claim_type(coercive, T), fr_own_claims(X, T, G).
fr_own_source(X, coercive, G) :- fr_event_type(coercive, T), fr_own_events(X, T, G).
fr_own_source(X, reward, G) :- fr_claim_type(reward, T), fr_own_claims(X, T, G).
fr_own_source(X, reward, G) :- fr_event_type(reward, T), fr_own_events(X, T, G).
fr_own_source(X, legitimate, [X-[X]]) :- fr_legitimate_type(T), node(X, 'Actor'), prop(X, actor_type, T).
fr_own_source(X, legitimate, G) :- fr_own_citing(X, legitimate, G).
fr_own_source(X, expert, G) :- fr_own_citing(X, expert, G).
fr_own_source(X, informational, G) :- fr_own_citing(X, informational, G).
fr_own_source(X, referent, G) :-
    findall(X-[E], ( allied(C, X, E), X \== C, fr_ally_type(T), node(C, 'Actor'), prop(C, actor_type, T) ), G0), msort(G0, G).
fr_own_source(X, referent, [X-[X]]) :- fr_referent_type(T), node(X, 'Actor'), prop(X, actor_type, T).

fr_own_claims(X, Type, [X-Cs]) :- own_claims(X, Type, Cs), Cs \== [].
fr_own_events(X, Type, [X-Es]) :- own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', Es0), filter_ids(Es0, prop(event_type, Type), Es), Es \== [].
fr_own_citing(X, Base, [X-Cs]) :-
    own_ends(X, 'ASSERTS', _, 'Claim', Cs0), keywords(fr_words(Base), Words), own_mentioning(Cs0, Words, Cs), Cs \== [].

% fr_bases(+Tallies, -Bases): Base-c(Count, Ids) for each base the actor uses, in tie-break order
% (the actor's tallies, sorted, come base by base in that order).
fr_bases([], []).
fr_bases([t(R, B, N, S)|Ts], [B-c(Sum, Ids)|Bases]) :-
    fr_sum(Ts, R, N, Sum, [S], Ls, Rest), append(Ls, L), sort(L, Ids), fr_bases(Rest, Bases).

% fr_sum(+Tallies, +Rank, +N0, -N, +L0, -L, -Rest): the count and first ids of the leading tallies of one base
fr_sum([t(R, _, K, S)|Ts], R, N0, N, L0, L, Rest) :- !, N1 is N0 + K, fr_sum(Ts, R, N1, N, [S|L0], L, Rest).
fr_sum(Rest, _, N, N, L, L, Rest).

% fr_dominant(+Bases, -Base, -Ids): the base with the most moves, the first in order on a tie.
fr_dominant(Bases, Base, Ids) :-
    findall(N, member(_-c(N, _), Bases), Ns), max_list(Ns, Max),
    member(Base-c(Max, Ids), Bases), !.

fr_base_text(coercive, 'coercive power (threats, coercion, attacks)').
fr_base_text(reward, 'reward power (offers, aid)').
fr_base_text(legitimate, 'legitimate power (its standing as a state, government or international body, or the mandates, laws and elections it cites)').
fr_base_text(expert, 'expert power (the expertise it cites)').
fr_base_text(informational, 'informational power (the reports, data and evidence it cites)').
fr_base_text(referent, 'referent power (the communities that identify with it or stand with it)').

fr_profile_text(Bases, Text) :-
    findall(Part, (member(B-c(N, _), Bases), atomic_list_concat([B, ' ', N], Part)), Parts),
    atomic_list_concat(Parts, ', ', Text).

% ---- query-callable ------------------------------------------------------------------

% power_base(?A, ?Base): A uses Base.
power_base(A, Base) :- fr_profile(Ps), member(p(A, Bases), Ps), member(Base-_, Bases).

% ---- findings ------------------------------------------------------------------------

% fr_kept_base(+Profiles, -A, -Base, -N, -Ids): the bases a run keeps (kept/2), in the order of the
% profiles (by actor, bases in tie-break order): the few kept actors looked up in the thousands of
% profiles, not each actor and base tested (kept_member/4 does the same for a flat list)
fr_kept_base(Ps, A, Base, N, Ids) :-
    (   kept_subjects(power_base, Kept)
    ->  findall(A0, member([A0, _], Kept), As0), sort(As0, As),
        member(A, As), memberchk(p(A, Bases), Ps), member(Base-c(N, Ids), Bases), memberchk([A, Base], Kept)
    ;   member(p(A, Bases), Ps), member(Base-c(N, Ids), Bases)
    ).

% per actor, ranked by moves: a run keeps its findings limit of them (kept/2)
rank(Key, Subject, N) :- fr_profile(Ps), member(P, Ps), fr_rank(P, Key, Subject, N).
fr_rank(p(A, Bases), power_base, [A, Base], N) :- member(Base-c(N, _), Bases).
fr_rank(p(A, Bases), dominant_base, A, Max) :- findall(N, member(_-c(N, _), Bases), Ns), max_list(Ns, Max).

finding(power_base, [A, Base], Sentence, [A | Ids], [Base, 'an actor uses a base of power when the graph shows one of its moves of that base']) :-
    fr_profile(Ps), fr_kept_base(Ps, A, Base, N, Ids),
    fr_base_text(Base, Text),
    join([[A], ' uses ', Text, ': ', N, ' of its moves or attributes show it.'], Sentence).

finding(dominant_base, [A, Base], Sentence, [A | Ids], [Base, 'the dominant base is the one with the most moves; ties go in the order reward, coercive, legitimate, referent, expert, informational']) :-
    fr_profile(Ps), kept_member(dominant_base, A, p(A, Bases), Ps), fr_dominant(Bases, Base, Ids),
    fr_base_text(Base, Text), fr_profile_text(Bases, Profile),
    join([[A], ' relies most on ', Text, ' (bases: ', Profile, ').'], Sentence).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% power is in every conflict: the reading is the stronger the more bases of power the actors use
% (0.4 and 0.1 a base), its evidence every move of every base
% (the evidence is kept with the profiles, each id with the times they cite it: fr_cited/1)
strength(bases-N, Score, Ids) :-
    fr_profile(Ps), findall(B, ( member(p(_, Bases), Ps), member(B-_, Bases) ), B0), B0 = [_|_], sort(B0, Bs), length(Bs, N),
    fr_cited(Cited), pairs_keys(Cited, Ids),
    W is min(0.9, 0.4 + 0.1 * N), reading_strength(W, Ids, Score).
