% Stedman's spoilers in peace processes (1997).
%   the process   talks and agreements (CONSULT, AGREE events), offers and commitments (Offer, Commitment
%                 claims); without them there is nothing to spoil and the framework does not apply
%   spoiler       an actor opposed to the process: an OPPOSES edge to a party of the process (or role
%                 spoiler in the graph), that acts against it: RedLine or Denial claims against the
%                 agreement, talks or ceasefire, or ASSAULT events after the first Commitment or AGREE
%   type          greedy   demands shift: dated Demands on two or more dates, not all for inclusion
%                 limited  demands inclusion (a seat, representation, recognition), or other limited demands
%                 total    rejects every offer: REJECT events, claims rejecting any agreement, or no
%                          Demand or Offer of its own
%   position      inside when it takes part in CONSULT or AGREE events or made a Commitment, else outside
%   strategy      Stedman's custodian strategies: inducement (limited), socialization (greedy),
%                 coercion (total)
% spoiler/1 is callable from queries: MATCH (a:Actor) WHERE spoiler(a) RETURN a.label.
% Helpers of this module are prefixed st_.

:- module(stedman, [indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, keywords/2, spoiler/1]).

% ---- applies --------------------------------------------------------------

missing('no peace process: no talks, offers, agreements or commitments (CONSULT, AGREE events; Offer, Commitment claims): there is nothing to spoil') :-
    \+ peace_process_exists.

% ---- indicators -------------------------------------------------------------

indicator(process, 1, 'a peace process: CONSULT and AGREE events, Offer and Commitment claims').
indicator(agreement, 1, 'an agreement to spoil: Commitment claims and AGREE events').
indicator(opposition, 1, 'opposition to the process: OPPOSES edges between an actor and a party to the process (who took part in talks or agreements, or made a commitment or offer)').
indicator(red_lines_against_deal, 1, 'red lines against the deal: RedLine or Denial claims about the agreement, deal, ceasefire, talks, accord, negotiation or peace').
indicator(violence_after_commitment, 1, 'violence after a commitment: ASSAULT events dated after the first Commitment claim or AGREE event').
indicator(inclusion_demands, 0.5, 'demands for inclusion: Demand claims for a seat, inclusion, representation or recognition').
indicator(shifting_demands, 0.5, 'shifting demands: one actor''s Demand claims dated on two or more dates').
indicator(total_rejection, 0.5, 'total rejection: REJECT events, claims rejecting any agreement or talks (never, any agreement, under no circumstances)').
indicator(declared_spoilers, 0.5, 'actors the graph already names as spoilers (role spoiler)').

present(process, Ids) :- peace_process_ids(Ids), nonempty(Ids).
present(agreement, Ids) :- st_agreement_ids(Ids), nonempty(Ids).
present(opposition, Ids) :- st_opposition(Ids), nonempty(Ids).
present(red_lines_against_deal, Ids) :- st_deal_claims(Ids), nonempty(Ids).
present(violence_after_commitment, Ids) :- st_assaults_after(Ids), nonempty(Ids).
present(inclusion_demands, Ids) :- st_inclusion_demands(Ids), nonempty(Ids).
present(shifting_demands, Ids) :- st_shifting_demands(Ids), nonempty(Ids).
present(total_rejection, Ids) :- st_rejections(Ids), nonempty(Ids).
present(declared_spoilers, Ids) :- nodes_where('Actor', role, spoiler, Ids), nonempty(Ids).

% ---- the process ---------------------------------------------------------------

st_agreement_ids(Ids) :- events_of_type('AGREE', A), claims_of_type('Commitment', C), append(A, C, I0), sort(I0, Ids).

% st_ctx(-ctx(Inside, Parties)): Inside = who took part in talks or agreements or made a
% commitment; Parties = Inside and those who made an offer (whom a spoiler can oppose)
st_ctx(ctx(Inside, Parties)) :-
    process_participants(G1), claims_by_actor('Commitment', G2), claims_by_actor('Offer', G3),
    pairs_keys(G1, K1), pairs_keys(G2, K2), pairs_keys(G3, K3),
    append(K1, K2, I0), sort(I0, Inside), append(Inside, K3, P0), sort(P0, Parties).

% ---- evidence of spoiling ---------------------------------------------------------

keywords(st_deal_words, [agreement, ' deal', ceasefire, 'cease-fire', truce, talks, accords, ' accord ', ' accord,', ' accord.', negotiat, peace, treaty, settlement]).
keywords(st_inclusion_words, [inclusion, 'be included', 'included in', 'a seat', 'seats at', 'seat at', represented, representation, recognition, recognis, recogniz,
    'part of the talks', 'part of the negotiations', 'at the table', 'a place at', 'excluded from', 'without us', 'share of power', 'power-sharing', 'power sharing']).
keywords(st_total_words, [never, 'any agreement', 'any deal', 'any talks', 'any negotiation', 'all talks', 'all negotiations', 'all agreements',
    'reject all', 'rejects all', 'reject any', 'rejects any', 'no agreement', 'no negotiation', 'no talks', 'under no circumstances',
    'until victory', 'total victory', 'to the end']).

% RedLine and Denial claims against the agreement, talks or ceasefire (each type's claims filtered apart: a filter over
% a type's claims is kept for the view and grown by a write, where one over their append was found again after every
% write of a claim, some 80k inferences at 1M facts)
st_deal_claims(Ids) :-
    keywords(st_deal_words, W),
    claims_of_type('RedLine', R), mentioning(R, W, IR), claims_of_type('Denial', D), mentioning(D, W, ID), append(IR, ID, Ids).

% the first dated Commitment claim or AGREE event (up to the reference date): how many days before
% the reference date (kept for the view, view_set/3: the indicators and the spoilers' behaviour read it)
st_first_agreement_days(Days) :- view_set(st_first_agreement_days, st_first_agreement_days_, Days).
st_first_agreement_days_(Days) :-
    st_agreement_ids(Ids),
    findall(D, ( member(Id, Ids), days_before_reference(Id, D), D >= 0 ), Ds), max_list(Ds, Days).

% ASSAULT events dated after the first commitment or agreement
st_assaults_after(Ids) :-
    st_first_agreement_days(First), First >= 1, To is First - 1,
    events_of_type('ASSAULT', A), filter_ids(A, window(0, To), Ids).

% REJECT events, and claims rejecting any agreement or talks
st_rejections(Ids) :-
    events_of_type('REJECT', Rejects),
    findall(X, (member(T, ['RedLine', 'Denial', 'Position', 'Threat']), claims_of_type(T, Cs), keywords(st_total_words, W), mentioning(Cs, W, X)), L),
    append([Rejects | L], I0), sort(I0, Ids).

st_inclusion_demands(Ids) :- claims_of_type('Demand', D), keywords(st_inclusion_words, W), mentioning(D, W, Ids).

% st_shifting_demands(-Ids): the dated demands of every speaker whose demands shift (st_shifting/3), sorted. Kept with
% view_set/3 and grown by a write (added_answer/4 below), where each speaker's demands were dated again at every run
% after a write (some 79k inferences at 1M facts, 5k speakers)
st_shifting_demands(Ids) :- view_set(st_shifting_demands, st_shifting_demands_, Ids).
st_shifting_demands_(Ids) :-
    claims_by_actor('Demand', Groups), st_inclusion_demands(Inclusion),
    findall(Ds, (member(_-Ds0, Groups), st_shifting(Ds0, Inclusion, Ds)), L), append(L, I0), sort(I0, Ids).

% the shifting demands grown by a write: a speaker's demands change only with its own ASSERTS edges (it is then among
% the write's ends, added_ends/2), and a write only adds: one that rewrites a node (a claim's text, date or type) ends
% the added records (engine/store/graph-changes.ts addedSince) and has every answer found again, and a held text's
% mentions change only with a new name indexed, which has an answer that read it found again (lib/graph.pl
% unseen_changes/3). So a speaker whose demands shift still does, with the demands added, and the others' stay as
% they were: st_added/3 only adds. Each touched speaker's are found again from its own claims, their inclusion demands
% among them (st_shifting/3 asks only of the speaker's own)
added_answer(st_shifting_demands, Added, Ids0, Ids) :-
    added_ends(Added, Ends), keywords(st_inclusion_words, W),
    findall(Ds, ( member(A, Ends), own_claims(A, 'Demand', Ds0), own_mentioning(Ds0, W, Inclusion), st_shifting(Ds0, Inclusion, Ds) ), L),
    append(L, New), st_added(New, Ids0, Ids).

% st_shifting(+Demands, +Inclusion, -Dated): an actor's dated demands when they fall on two or more
% dates and not all are for inclusion (among Inclusion, the demands for it): each demand's day read
% once, where filters per actor cost a call each for hundreds of actors
st_shifting(Demands, Inclusion, Dated) :-
    Demands = [_, _ | _], id_days(Demands, IdDays), IdDays = [_-K, _ | _],
    \+ \+ ( member(_-D, IdDays), D =\= K ),
    \+ \+ ( member(X-_, IdDays), \+ memberchk(X, Inclusion) ),
    findall(X, member(X-_, IdDays), Dated).

% st_opposition(-Ids): the OPPOSES edges between an actor and a party of the process (either way), kept with the
% spoilers and grown with them (st_spoilers/2), where the parties and every OPPOSES edge were read again at each run
% after a write (some 158k inferences at 1M facts); none without a peace process, which has no parties
st_opposition(Ids) :- ( view_set(st_spoilers, st_all_spoilers, sp(_, _, _, Found)) -> Ids = Found ; Ids = [] ).

% of all the OPPOSES edges, those with a party at one end (keyed by each end, walked once with the parties)
st_opposition_edges(ctx(_, Parties), Ids) :-
    findall(P-E, ( edge(E, 'OPPOSES', X, Y, _), ( P = X ; P = Y ) ), L0), keysort(L0, ByEnd),
    findall(E, keyed_member(Parties, ByEnd, E), L), sort(L, Ids).

% ---- one actor --------------------------------------------------------------------

% st_profile(+A, -prof(Claims, Acts)): the claims A asserts, the events A perpetrates or takes part in
% (not as target or mediator), each read from A's own edges
st_profile(A, prof(Claims, Acts)) :-
    group_by_edge([A], 'ASSERTS', out, _, GC), pairs_keys(GC, Claims),
    group_by_edge([A], 'PARTICIPATES_IN', out, perpetrator, GP), pairs_keys(GP, Done),
    group_by_edge([A], 'PARTICIPATES_IN', out, participant, GQ), pairs_keys(GQ, Joined),
    append(Done, Joined, A0), sort(A0, Acts).

st_claims_of(prof(Claims, _), Types, Ids) :- findall(X, (member(T, Types), filter_ids(Claims, prop(type, T), X)), L), append(L, Ids).
st_acts_of(prof(_, Acts), Type, Ids) :- filter_ids(Acts, prop(event_type, Type), Ids).

% st_spoiler_with(+A, +OpposedParties, +Behaviour, -s(A, Opposed, OppositionIds, Behaviour)): A is a
% spoiler: opposed to a party of the process (OPPOSES either way), or named spoiler in the graph, and
% acting against the process (Behaviour, st_behaviour/1: RedLine or Denial claims about the deal, or
% ASSAULT events after the first commitment)
st_spoiler_with(A, Ps, Beh, s(A, Ps, OppIds, Beh)) :-
    ( actor_role(A, spoiler) -> Decl = [A] ; Decl = [] ),
    ( Ps = [_|_] ; Decl = [_] ), !,
    findall(E, (member(P, Ps), ( edge(E, 'OPPOSES', A, P, _) ; edge(E, 'OPPOSES', P, A, _) )), Es),
    append(Es, Decl, O), sort(O, OppIds).

% st_behaviour(-Index): each actor's moves against the process, as an index for group_ids/3: the
% RedLine and Denial claims about the deal it asserts, and the ASSAULT events after the first
% commitment or agreement it perpetrates or takes part in (not as target or mediator)
st_behaviour(Index) :-
    st_deal_claims(Deal), speakers(Deal, ByDeal),
    (   st_assaults_after(Attacks)
    ->  group_by_edge(Attacks, 'PARTICIPATES_IN', in, perpetrator, G1),
        group_by_edge(Attacks, 'PARTICIPATES_IN', in, participant, G2)
    ;   G1 = [], G2 = []
    ),
    append([ByDeal, G1, G2], G0), msort(G0, G), st_merge(G, Groups), index_groups(Groups, Index).

% st_candidates(+Ctx, -Candidates): Actor-OpposedParties for the actors with an OPPOSES edge (either
% way) to a party of the process, and those named spoiler: the OPPOSES edges (a few hundred) keyed
% by each end and walked once with the parties, rather than every party's edges read
st_candidates(ctx(_, Parties), Candidates) :-
    findall(P-(O-[P]), ( edge(_, 'OPPOSES', X, Y, _), ( P-O = X-Y ; P-O = Y-X ) ), L0), keysort(L0, ByParty),
    findall(C, keyed_member(Parties, ByParty, C), Opposed),
    nodes_where('Actor', role, spoiler, Declared), findall(D-[], member(D, Declared), DL),
    append(Opposed, DL, C0), msort(C0, C1), st_merge(C1, Candidates).

st_merge([], []).
st_merge([A-X, A-Y | Rest], Out) :- !, append(X, Y, XY), sort(XY, Z), st_merge([A-Z | Rest], Out).
st_merge([P | Rest], [P | Out]) :- st_merge(Rest, Out).

% st_spoilers(-Ctx, -Spoilers): s(...) for every spoiler, sorted by actor (none without a peace process)
% (kept with view_set/3: the ranking and the findings read them, once per graph view, with the first agreement's
% days they were found with, or none, and the opposition edges, st_opposition/1, which read the same parties; a write
% grows them: added_answer/4 below)
st_spoilers(Ctx, Spoilers) :- view_set(st_spoilers, st_all_spoilers, sp(Ctx, _, Spoilers, _)).
st_all_spoilers(sp(Ctx, First, Spoilers, Opposition)) :-
    peace_process_exists, st_ctx(Ctx), st_opposition_edges(Ctx, Opposition), st_candidates(Ctx, Candidates), st_behaviour(Moves),
    ( st_first_agreement_days(First) -> true ; First = none ),
    findall(S, ( member(A-Ps0, Candidates), group_ids(A, Moves, Beh), Beh \== [],
                 st_drop(A, Ps0, Ps), st_spoiler_with(A, Ps, Beh, S) ), Spoilers).

% added_answer(+Key, +Added, +Answer, -Grown): the spoilers grown with a write (lib/graph.pl grown/3), where a write of
% a claim, an event or an edge had them found again whole. A write only adds: a node becomes inside or a party by its
% own edges (the write's ends, added_ends/2), an actor's parties opposed and moves against the process change with its
% own edges or a party new at the other end of its OPPOSES edges. Those actors' entries are found again from their own
% edges, the others kept. The attacks counted are those after the first agreement: an agreement dated before it moves
% that window for every actor, and the spoilers are then found again whole (as when the reference date moves:
% unseen_changes/3 of lib/graph.pl). An OPPOSES edge joins the opposition when it is added with a party at one end or
% when an end becomes a party: either way that end is among the write's ends, whose edges are read (each end looked up
% in the parties by memberchk/2, a scan in C, where ord_memberchk/2 walks some 12k parties in Prolog at 1M facts).
added_answer(st_spoilers, Added, sp(ctx(Inside0, Parties0), First, Spoilers0, Opposition0), sp(ctx(Inside, Parties), First, Spoilers, Opposition)) :-
    st_first_agreement_stays(Added, First),
    added_ends(Added, Ends),
    include(st_own_inside, Ends, In), st_added(In, Inside0, Inside),
    include(st_own_offer, Ends, Offering), append(In, Offering, Joined), st_added(Joined, Parties0, Parties),
    findall(P, ( member(P, Joined), \+ memberchk(P, Parties0) ), NewParties),      % (the parties hold the inside)
    findall(O, ( member(P, NewParties), opposes(P, O) ), Os), append(Ends, Os, T0), sort(T0, Touched),
    findall(S, ( member(A, Touched), st_own_spoiler(A, Parties, First, S) ), New),
    % a write only adds, so each touched spoiler is found again, and takes its old entry's place by subject (no walk of
    % the others, where an exclude/3 and append/3 of every spoiler took most of the growth's 166k inferences at 1M
    % facts); one that is not would be left in place, so the growth fails and the spoilers are found again whole
    \+ ( member(A, Touched), memberchk(s(A, _, _, _), Spoilers0), \+ memberchk(s(A, _, _, _), New) ),
    put_by_subject(Spoilers0, New, Spoilers),
    findall(E, ( member(P, Ends), memberchk(P, Parties), opposes(P, _, E) ), Es), st_added(Es, Opposition0, Opposition).

% st_added(+New, +Set, -Grown): the ordered set Set with the few ids of New, sorted in C (ord_union/3 walks Set)
st_added(New, Set, Grown) :- ( New == [] -> Grown = Set ; append(New, Set, All), sort(All, Grown) ).

% the first agreement's days grown by a write: the largest of those kept and of the agreements it added (a write only
% adds nodes; one that moves the reference date has them found again: unseen_changes/3 of lib/graph.pl), where a write
% of a claim or an event had every agreement's date read again (some 135k inferences at 1M facts)
added_answer(st_first_agreement_days, added(Nodes, _, _), First, Grown) :-
    findall(D, st_added_agreement_days(Nodes, D), Ds), max_list([First | Ds], Grown).

% st_first_agreement_stays(+Added, +First): no agreement the write added is dated before the first one (First days
% before the reference date, or none)
st_first_agreement_stays(added(Nodes, _, _), First) :-
    \+ ( st_added_agreement_days(Nodes, D), ( First == none -> true ; D > First ) ).

% st_added_agreement_days(+Nodes, -Days): the days before the reference date of an AGREE event or Commitment claim a
% write added (Nodes, the flat list of parley_add_facts/9), dated up to it
st_added_agreement_days(Nodes, D) :-
    added_node_ids(Nodes, Ids), member(Id, Ids), ( event(Id, 'AGREE') ; claim(Id, 'Commitment') ),
    days_before_reference(Id, D), D >= 0.

st_own_inside(X) :-
    own_ends(X, 'PARTICIPATES_IN', _, 'Event', Es), ( member(E, Es), ( event(E, 'CONSULT') ; event(E, 'AGREE') ) -> true ; st_asserts(X, 'Commitment') ).
st_own_offer(X) :- st_asserts(X, 'Offer').
st_asserts(X, Type) :- own_claims(X, Type, [_|_]).

% st_own_spoiler(+A, +Parties, +First, -Spoiler): A's entry as st_all_spoilers/1 finds it, read from A's own edges:
% the parties it opposes and its moves against the process (st_behaviour/1: its RedLine and Denial claims about the
% deal, the ASSAULT events after the first agreement it perpetrates or takes part in)
st_own_spoiler(A, Parties, First, S) :-
    findall(P, ( opposes(A, P), ord_memberchk(P, Parties) ), Ps1), sort(Ps1, Ps0),
    ( Ps0 = [_|_] ; actor_role(A, spoiler) ), !,
    own_ends(A, 'ASSERTS', _, 'Claim', Cs), st_claims_of(prof(Cs, []), ['RedLine', 'Denial'], RD), keywords(st_deal_words, W), own_mentioning(RD, W, Deal),
    (   integer(First), First >= 1
    ->  To is First - 1, own_ends(A, 'PARTICIPATES_IN', perpetrator, 'Event', P), own_ends(A, 'PARTICIPATES_IN', participant, 'Event', Q),
        append(P, Q, PQ), filter_ids(PQ, prop(event_type, 'ASSAULT'), As), filter_ids(As, window(0, To), Attacks)
    ;   Attacks = []
    ),
    append(Deal, Attacks, B0), sort(B0, Beh), Beh \== [],
    st_drop(A, Ps0, Ps), st_spoiler_with(A, Ps, Beh, S).

st_drop(_, [], []).
st_drop(X, [X|T], R) :- !, st_drop(X, T, R).
st_drop(X, [H|T], [H|R]) :- st_drop(X, T, R).

% st_type(+Profile, -Type, -Evidence, -Reason, -Indicators): greedy, then limited (inclusion), then total, then limited
st_type(Prof, Type, Ids, Reason, Inds) :-
    st_claims_of(Prof, ['Demand'], Demands), st_claims_of(Prof, ['Offer'], Offers),
    st_type_(Prof, Demands, Offers, Type, Ids, Reason, Inds), !.

st_type_(_, Demands, _, greedy, Dated, Reason, [shifting_demands]) :-
    st_inclusion_demands(Inclusion), st_shifting(Demands, Inclusion, Dated),
    findall(D, (member(C, Dated), valid_time(C, D)), Dates0), sort(Dates0, Dates), length(Dated, N),
    Dates = [First | _], last(Dates, Last),
    atomic_list_concat(['its demands have shifted over time (', N, ' demands from ', First, ' to ', Last, ')'], Reason).
st_type_(_, Demands, _, limited, Inc, 'it demands inclusion: a seat, representation or recognition', [inclusion_demands]) :-
    keywords(st_inclusion_words, W), mentioning(Demands, W, Inc), nonempty(Inc).
st_type_(Prof, Demands, Offers, total, Ids, Reason, Inds) :-
    st_acts_of(Prof, 'REJECT', R1), st_claims_of(Prof, ['RedLine', 'Denial', 'Position', 'Threat'], RC), keywords(st_total_words, W), mentioning(RC, W, R2),
    append(R1, R2, Rej0), sort(Rej0, Rej), append(Demands, Offers, Own),
    ( Rej = [_|_] ; Own = [] ),
    ( Rej = [_|_], Own = [] -> Reason = 'it rejects talks and agreements outright and puts forward no demand or offer of its own'
    ; Rej = [_|_] -> Reason = 'it rejects talks and agreements outright'
    ; Reason = 'it puts forward no demand or offer of its own: nothing a settlement could give it' ),
    ( Rej = [_|_] -> Ids = Rej, Inds = [total_rejection] ; Ids = [], Inds = [] ).
st_type_(_, Demands, Offers, limited, Own, 'it pursues limited demands of its own, without rejecting every settlement', []) :-
    append(Demands, Offers, Own).

st_strategy(limited, inducement, 'inducement: meet its limited demands (inclusion, recognition) through the process').
st_strategy(greedy, socialization, 'socialization: set clear norms for acceptable behaviour, rewarding compliance and sanctioning violations').
st_strategy(total, coercion, 'coercion: protect the process from it, weaken it, or let the process go on without it (the departing train)').

% ---- the query predicate -----------------------------------------------------------

% spoiler(?Actor): Actor is a spoiler of any type (the spoilers are found once per graph view, and
% a query asks for each of its actors)
spoiler(A) :- nonvar(A), !, st_spoilers(_, S), memberchk(s(A, _, _, _), S).
spoiler(A) :- st_spoilers(_, S), member(s(A, _, _, _), S).

% ---- findings -------------------------------------------------------------------

finding(peace_process, Value, Sentence, Ids, [Rule, process]) :-
    peace_process(Es, Cs), length(Es, NE), length(Cs, NC),
    st_counts([NE-'talks or agreement event'-'talks and agreement events', NC-'offer or commitment'-'offers and commitments'], Record),
    st_process(_, Current),
    st_process_latest(Dates), ( Dates = [Latest] -> true ; Latest = 'undated' ),
    recent_window(Days), atomic_list_concat(['a peace process is talks and agreements (CONSULT, AGREE), offers and commitments (Offer, Commitment); it is current when some of it falls in the recent window (', Days, ' days) or is undated'], Rule),
    ( Current = [_|_] -> Value = yes,
        atomic_list_concat(['A peace process is under way: ', Record, ', the latest on ', Latest, '.'], Sentence)
    ; Value = no,
        recent_window(Days), atomic_list_concat(['No current peace process: the ', Record, ' on record are all older than ', Days, ' days (the latest on ', Latest, '); any spoilers found acted against a process that has lapsed.'], Sentence) ),
    peace_process_ids(Ids).

% st_process(-Ids, -Current): the process's ids (failing when there is none) and its current ones, for the finding
% and for the strength of a process under way, which reads them alone (the finding's counts cost it as much again:
% some 12k inferences at 100k facts)
st_process(Ids, Current) :- peace_process_ids(Ids), nonempty(Ids), current_ids(Ids, Current).

% st_process_latest(-Dates): [Latest], the latest date of the process's talks, agreements, offers and commitments (the
% last in the standard order, as a sort of them all gives it), or [] when none is dated. Kept with view_set/3 and grown by
% a write (added_answer/4 below): the date of each of the process's ids was read at every run after a write (some
% 101k inferences at 1M facts, 20k ids)
st_process_latest(Dates) :- view_set(st_process_latest, st_process_latest_, Dates).
st_process_latest_(Dates) :- peace_process_ids(Ids), st_latest_of(Ids, [], Dates).

% st_latest_of(+Ids, +Dates0, -Dates): [Latest] of the dates of Ids and of Dates0 ([] or [Date]), or [] when there is none
st_latest_of(Ids, Dates0, Dates) :-
    findall(D, ( member(Id, Ids), valid_time(Id, D) ), Ds, Dates0),
    ( max_member(Latest, Ds) -> Dates = [Latest] ; Dates = [] ).

% the latest date grown by a write: a write only adds nodes (one that rewrites a node has every answer found again:
% engine/store/graph-changes.ts addedSince), so the latest is the kept one or a date of a node the write added to the process
added_answer(st_process_latest, added(Nodes, _, _), Dates0, Dates) :-
    added_node_ids(Nodes, Ids), include(peace_process_node, Ids, Process), st_latest_of(Process, Dates0, Dates).

% per spoiler, three findings each (type, position, strategy), ranked by the moves against the
% process: a run keeps its findings limit of them (kept/2), and profiles only the spoilers it keeps
rank(Key, A, N) :- st_spoilers(_, Spoilers), member(s(A, _, _, Beh), Spoilers), length(Beh, N), st_finding_key(Key).

st_finding_key(spoiler). st_finding_key(spoiler_position). st_finding_key(strategy).

finding(Key, Value, Sentence, Ids, Because) :-
    % a caller asking for another finding (strength/3 for the peace process) profiles no spoiler
    ( var(Key) -> true ; st_finding_key(Key) ),
    % a kept spoiler is profiled once, for all its kept findings
    st_spoilers(ctx(Inside, _), Spoilers), st_kept_spoiler(Spoilers, s(A, Ps, OppIds, Beh)),
    st_profile(A, Prof), st_type(Prof, Type, TypeIds, TypeReason, TInds),
    st_finding_key(Key), kept(Key, A),
    st_spoiler_finding(A, Ps, OppIds, Beh, Prof, Type, TypeIds, TypeReason, TInds, Inside, Key, Value, Sentence, Ids, Because).

% st_kept_spoiler(+Spoilers, -Spoiler): the spoilers a run keeps for one of the three keys at least, in
% the order of Spoilers (by actor, as the kept subjects are): the few kept looked up, not each tested
st_kept_spoiler(Spoilers, S) :-
    (   kept_subjects(spoiler, _)
    ->  findall(A, ( st_finding_key(K), kept_subjects(K, As), member(A, As) ), Kept0), sort(Kept0, Kept),
        S = s(A, _, _, _), member(A, Kept), memberchk(S, Spoilers)
    ;   member(S, Spoilers)
    ).

st_spoiler_finding(A, Ps, OppIds, Beh, _, Type, TypeIds, TypeReason, TInds, _, spoiler, [A, Type], Sentence, Ids, Because) :-
    st_behaviour_text(Beh, BText, BInds),
    ( Ps = [] -> join(['', [A], ' is named a spoiler in the graph'], OText) ; few_labels(Ps, PN), join(['', [A], ' opposes ', PN, ' (in the process)'], OText) ),
    ( Ps = [] -> OInds = [declared_spoilers] ; OInds = [opposition] ),
    append([OInds, BInds, TInds], Inds),
    atomic_list_concat(['a spoiler opposes a party to the process and acts against it; ', Type, ' spoilers: ', TypeReason], Rule),
    Because = ['a spoiler opposes the process or a party to it (OPPOSES) and acts against it (red lines against the deal, or attacks after a commitment)', Rule | Inds],
    join([OText, '; it ', BText, ': a ', Type, ' spoiler, since ', TypeReason, '.'], Sentence),
    append([[A], OppIds, Beh, TypeIds], I0), sort(I0, Ids).
st_spoiler_finding(A, _, OppIds, Beh, prof(Claims, Acts), _, _, _, _, Inside, spoiler_position, [A, Position], Sentence, Ids, [Rule, opposition]) :-
    % memberchk/2 scans Inside in C, where ord_intersection/3 walked it in Prolog (some 12k actors at 1M facts: 150k
    % inferences for a run's eight kept spoilers)
    ( memberchk(A, Inside) -> Position = inside ; Position = outside ),
    filter_ids(Acts, prop(event_type, 'CONSULT'), E1), filter_ids(Acts, prop(event_type, 'AGREE'), E2), append(E1, E2, MyEvents),
    filter_ids(Claims, prop(type, 'Commitment'), MyCommits),
    Rule = 'inside spoilers take part in talks or agreements (CONSULT, AGREE) or made a commitment; outside spoilers do not',
    ( Position == inside ->
        length(MyEvents, NE), length(MyCommits, NC),
        st_counts([NE-'talks or agreement event'-'talks and agreement events', NC-'commitment'-'commitments'], Record),
        join(['', [A], ' is an inside spoiler, party to the process (', Record, ') while acting against it; inside spoilers tend to strategic deception, keeping to the letter of the process while undermining it.'], Sentence)
    ; join(['', [A], ' is an outside spoiler: it took part in no talks or agreement and made no commitment, so it acts against the process from outside, often by violence.'], Sentence) ),
    append([[A], MyEvents, MyCommits, OppIds, Beh], I0), sort(I0, Ids).
st_spoiler_finding(A, _, OppIds, Beh, _, Type, TypeIds, _, _, _, strategy, [A, Strategy], Sentence, Ids, [Rule]) :-
    st_strategy(Type, Strategy, Text),
    atomic_list_concat(['Stedman matches custodian strategies to spoiler types: a ', Type, ' spoiler calls for ', Strategy], Rule),
    join(['For ', [A], ' (', Type, ' spoiler) the fitting strategy is ', Text, '.'], Sentence),
    append([[A], OppIds, Beh, TypeIds], I0), sort(I0, Ids).

% the sentence part on what the spoiler did, and the indicators behind it
st_behaviour_text(Beh, Text, Inds) :-
    filter_ids(Beh, kind('Claim'), RL), filter_ids(Beh, kind('Event'), AS),
    length(AS, N), st_count(N, 'attack', 'attacks', Attacks),
    ( RL = [_|_], AS = [_|_] -> atomic_list_concat(['stated red lines against the deal and carried out ', Attacks, ' after the first commitment'], Text), Inds = [red_lines_against_deal, violence_after_commitment]
    ; RL = [_|_] -> Text = 'stated red lines against the deal', Inds = [red_lines_against_deal]
    ; atomic_list_concat(['carried out ', Attacks, ' after the first commitment'], Text), Inds = [violence_after_commitment] ).

% st_counts(+[N-Singular-Plural, ...], -Text): "2 talks and agreement events and 1 commitment", leaving out zeros
st_counts(Items, Text) :-
    findall(T, (member(N-S-P, Items), N > 0, st_count(N, S, P, T)), Ts),
    ( Ts = [] -> Text = 'nothing' ; atomic_list_concat(Ts, ' and ', Text) ).

% st_count(+N, +Singular, +Plural, -Text): "1 attack", "3 attacks"
st_count(1, Singular, _, Text) :- !, atomic_list_concat([1, ' ', Singular], Text).
st_count(N, _, Plural, Text) :- atomic_list_concat([N, ' ', Plural], Text).


% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% spoilers of a process are the reading's substance: the process and the spoilers' moves against
% it are its evidence; a process without spoilers is a weak reading
strength(spoilers-N, Score, Ids) :-
    st_spoilers(_, Spoilers), Spoilers = [_|_], length(Spoilers, N),
    findall(I, ( member(s(A, _, _, Beh), Spoilers), member(I, [A | Beh]) ), I0), peace_process_ids(P),
    append(I0, P, I1), sort(I1, Ids), reading_strength(0.9, Ids, Score).
strength(peace_process-yes, Score, Ids) :- st_process(Ids, [_|_]), reading_strength(0.4, Ids, Score).
