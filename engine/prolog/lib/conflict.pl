% The shared helper library of every rule module (frameworks/README.md lists each
% predicate with an example). It reads the graph only through the bridge's
% predicates: node/2, prop/3, edge/5, valid_time/2, nodes_where/4,
% reference_date/1 and date_days/2 (engine/prolog/lib/graph.pl). Set-returning
% helpers use nodes_where/4, which collects a whole index entry in one call, so
% that rules walk the sets they need, never the whole graph.

% ---- sets kept for the view ------------------------------------------------

% view_set/3 (lib/graph.pl) keeps a set for the graph view: the rules' sets below use it.

% ---- nodes of each kind --------------------------------------------------

% nodes_by_value(+Label, +Key, -Values): the values Key takes on the nodes of Label, sorted, each value's nodes kept
% for the view too (lib/graph.pl nodes_by_value_/3: one walk of the nodes of Label). Kept here so that a write grows
% the values with those of the nodes it added (added_answer/4), where it found them again by a walk of every claim
% and every event after a write of either (902k of the 1.80M inferences of the hand-over and shared sets after an
% ingest-like write at 1M facts); a value new to the view has its nodes found where asked (nodes_where/4).
nodes_by_value(Label, Key, Values) :-
    must_be(atom, Label), must_be(atom, Key),
    view_set(nodes_by_value(Label, Key), nodes_by_value_(Label, Key), Values).

actor(A) :- nonvar(A), !, node(A, 'Actor').
actor(A) :- nodes_where('Actor', _, _, As), member(A, As).

actor_type(A, Type) :- nonvar(A), !, node(A, 'Actor'), prop(A, actor_type, Type).
actor_type(A, Type) :- nonvar(Type), !, nodes_where('Actor', actor_type, Type, As), member(A, As).
actor_type(A, Type) :- actor(A), prop(A, actor_type, Type).

actor_role(A, Role) :- nonvar(A), !, node(A, 'Actor'), prop(A, role, Role).
actor_role(A, Role) :- nonvar(Role), !, nodes_where('Actor', role, Role, As), member(A, As).
actor_role(A, Role) :- actor(A), prop(A, role, Role).

% claim(?C, ?Type): C is a claim of Type (RedLine, Demand, Offer, ...).
claim(C, Type) :- nonvar(C), !, node(C, 'Claim'), prop(C, type, Type).
claim(C, Type) :- nonvar(Type), !, nodes_where('Claim', type, Type, Cs), member(C, Cs).
claim(C, Type) :- nodes_where('Claim', _, _, Cs), member(C, Cs), prop(C, type, Type).

% event(?E, ?Type): E is an event of PLOVER Type (ASSAULT, CONSULT, ...).
event(E, Type) :- nonvar(E), !, node(E, 'Event'), prop(E, event_type, Type).
event(E, Type) :- nonvar(Type), !, nodes_where('Event', event_type, Type, Es), member(E, Es).
event(E, Type) :- nodes_where('Event', _, _, Es), member(E, Es), prop(E, event_type, Type).

issue(I) :- nonvar(I), !, node(I, 'Issue').
issue(I) :- nodes_where('Issue', _, _, Is), member(I, Is).

interest(I, Type) :- nonvar(I), !, node(I, 'Interest'), interest_type_of(I, Type).
interest(I, Type) :- nodes_where('Interest', _, _, Is), member(I, Is), interest_type_of(I, Type).
interest_type_of(I, Type) :- prop(I, interest_type, T), !, Type = T.
interest_type_of(_, other).

% claims_of_type(+Type, -Claims) and events_of_type(+Type, -Events): whole sets, sorted.
claims_of_type(Type, Cs) :- nodes_where('Claim', type, Type, Cs).
events_of_type(Type, Es) :- nodes_where('Event', event_type, Type, Es).

% label(+Id, -Label): a node's label (or text), else its id.
label(Id, Label) :- prop(Id, label, L), !, Label = L.
label(Id, Label) :- prop(Id, text, T), !, Label = T.
label(Id, Id).

% text_of(+Id, -Text): a claim's text, lower case, for keyword tests.
text_of(Id, Lower) :- prop(Id, text, T), atom(T), !, downcase_atom(T, Lower).
text_of(Id, Lower) :- label(Id, L), atom(L), downcase_atom(L, Lower).

% mentions_any(+Id, +Keywords): the text (or label) of Id contains one of the keywords
% (lower-case atoms), ignoring case, on the text lowered once when the graph view
% was handed over.
mentions_any(Id, Keywords) :- text_mentions(Id, Keywords, _).

% kind_count(+Label, -N): how many nodes of a kind (one inference).
kind_count(Label, N) :- nodes_where(Label, _, _, Ids), count_ids(Ids, N).

% ---- who said and did what -----------------------------------------------

% asserts(?A, ?C, -Edge): actor A asserts claim C, through edge Edge.
asserts(A, C, E) :- nonvar(C), !, edge(E, 'ASSERTS', A, C, _).
asserts(A, C, E) :- edge(E, 'ASSERTS', A, C, _).
asserts(A, C) :- asserts(A, C, _).

% claim_by(?A, ?C, ?Type): A asserts a claim C of Type.
claim_by(A, C, Type) :- nonvar(A), !, edge(_, 'ASSERTS', A, C, _), claim(C, Type).
claim_by(A, C, Type) :- claim(C, Type), edge(_, 'ASSERTS', A, C, _).

% claim_target(?C, ?A): claim C is aimed at actor A.
claim_target(C, A) :- edge(_, 'TARGETS', C, A, _).

% participant(?E, ?A, ?Role): actor A takes part in event E as Role (perpetrator, target, mediator, participant).
participant(E, A, Role) :- nonvar(E), !, edge(P, 'PARTICIPATES_IN', A, E, _), participation_role(P, Role).
participant(E, A, Role) :- edge(P, 'PARTICIPATES_IN', A, E, _), participation_role(P, Role).
participation_role(P, Role) :- prop(P, role, R), !, Role = R.
participation_role(_, participant).

% acts(?A, ?E, ?Type): A is the perpetrator (or, when the event names none, a participant) of an event of Type.
acts(A, E, Type) :- nonvar(A), !, edge(P, 'PARTICIPATES_IN', A, E, _), participation_role(P, Role), Role \== target, Role \== mediator, event(E, Type).
acts(A, E, Type) :- event(E, Type), edge(P, 'PARTICIPATES_IN', A, E, _), participation_role(P, Role), Role \== target, Role \== mediator.

% ---- sides -----------------------------------------------------------------

% opposes(?A, ?B): an OPPOSES edge either way.
opposes(A, B) :- edge(_, 'OPPOSES', A, B, _).
opposes(A, B) :- edge(_, 'OPPOSES', B, A, _).
opposes(A, B, E) :- edge(E, 'OPPOSES', A, B, _).
opposes(A, B, E) :- edge(E, 'OPPOSES', B, A, _).

allied(A, B) :- edge(_, 'ALLIED_WITH', A, B, _).
allied(A, B) :- edge(_, 'ALLIED_WITH', B, A, _).
allied(A, B, E) :- edge(E, 'ALLIED_WITH', A, B, _).
allied(A, B, E) :- edge(E, 'ALLIED_WITH', B, A, _).

% hostile_pairs(-Pairs): every directed p(A, B, Evidence) where A acts against B: an
% OPPOSES edge, a hostile event of A's (perpetrator) with B as target, or a Threat,
% Accusation, Demand or RedLine of A's aimed at B (TARGETS). Set-level: cheap on large graphs.
hostile_pairs(Pairs) :-
    findall(p(A, B, [E]), edge(E, 'OPPOSES', A, B, _), Opposes),
    findall(Es, (hostile_event_type(T), events_of_type(T, Es)), EventLists),
    union_ids(EventLists, Events),
    link_pairs(Events, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), ByEvents),
    findall(Cs, (hostile_claim_type(T), claims_of_type(T, Cs)), ClaimLists),
    union_ids(ClaimLists, Claims),
    link_pairs(Claims, in('ASSERTS'), out('TARGETS'), ByClaims),
    append([Opposes, ByEvents, ByClaims], Pairs0),
    merge_pairs(Pairs0, directed, Pairs).

% The event and claim types by which one actor acts against another (each event's perpetrator
% against its target, each claim's speaker against what it TARGETS), in this order.
hostile_event_type(T) :- member(T, ['ASSAULT', 'COERCE', 'THREATEN', 'SANCTION', 'ACCUSE']).
hostile_claim_type(T) :- member(T, ['Threat', 'Accusation', 'Demand', 'RedLine']).

% hostile(?A, ?B, -Evidence): A acts against B, on these ids (all of them in one list).
hostile(A, B, Evidence) :- hostile_pairs(Pairs), member(p(A, B, Evidence), Pairs).

% opposing_pair(-A, -B, -Evidence): each pair of hostile actors once (A @< B), with the ids that show it.
opposing_pair(A, B, Evidence) :-
    hostile_pairs(Pairs), merge_pairs(Pairs, undirected, Undirected), member(p(A, B, Evidence), Undirected).

% hostile_actor_pairs(-Pairs): the pairs alone, X-Y with X @< Y, each once: who stands
% against whom, as hostile_pairs/1 reads it, without collecting every pair's evidence.
% Several frameworks ask for them, some many times: they are computed once per graph view and kept
% by view_set/3, which hands the list over without the copy a table makes at each call (thousands
% of pairs at 100k facts).
hostile_actor_pairs(Pairs) :- view_set(hostile_actor_pairs, all_hostile_actor_pairs, Pairs).
all_hostile_actor_pairs(Pairs) :- findall(X-Y, hostile_actor_pair(X, Y), L), sort(L, Pairs).
hostile_actor_pair(X, Y) :- edge(_, 'OPPOSES', P, Q, _), P \== Q, order_pair(P, Q, X, Y).
hostile_actor_pair(X, Y) :-
    hostile_event_type(T), events_of_type(T, Es),
    link_pairs(Es, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), Ps), member(p(P, Q, _), Ps), order_pair(P, Q, X, Y).
hostile_actor_pair(X, Y) :-
    hostile_claim_type(T), claims_of_type(T, Cs),
    link_pairs(Cs, in('ASSERTS'), out('TARGETS'), Ps), member(p(P, Q, _), Ps), order_pair(P, Q, X, Y).

% added_answer(+Key, +Added, +Answer, -Grown): an answer this library keeps for the view (view_set/3) with the
% records a write added (lib/graph.pl grown/3; Added is added(Nodes, Props, Edges), the flat lists the engine
% took). The hostile pairs take those of the OPPOSES edges added and of the hostile events and claims an edge
% added links (each event or claim paired again whole: an edge added to one held pairs it anew with its other
% ends), where a write of an event, a claim or one of their edges would have them found again over every one
% (1.7M inferences at 1M facts, the costliest set after an ingest-like write).
added_answer(hostile_actor_pairs, Added, Pairs, Grown) :-
    added_hostile_pairs(Added, New),
    ( New == [] -> Grown = Pairs ; append(New, Pairs, All), sort(All, Grown) ).     % (append/3 walks the few new)

added_answer(nodes_by_value(Label, Key), added(Nodes, Props, _), Values, Grown) :-
    added_values(Nodes, Props, Label, Key, New), ord_union(Values, New, Grown).
% The opponents of each actor take the pairs of the hostile pairs' growth, where they were found again from every pair
% (both_ways/2, keysort/2 and an index of some 30k actors: 182k inferences at 1M facts): each side of a pair added has
% the other merged into its list (the pairs are X-Y with X @< Y, so that each list, merged, is sorted as found).
added_answer(hostile_partners, Added, Partners, Grown) :-
    added_partners(Added, New),
    ( New == [] -> Grown = Partners ; maplist(merged_group(Partners), New, Merged), put_by_subject(Partners, Merged, Grown) ).
added_answer(opponent_index, Added, Index, Grown) :-
    added_partners(Added, New), foldl(put_partners, New, Index, Grown).

% added_partners(+Added, -Partners): Actor-Opponents of the hostile pairs a write added, by actor
added_partners(Added, Partners) :-
    added_hostile_pairs(Added, Pairs), both_ways(Pairs, Both), keysort(Both, Sorted), group_pairs_by_key(Sorted, Partners).

put_partners(Actor-Opponents, Index, Grown) :-
    ( get_assoc(Actor, Index, Held) -> ord_union(Held, Opponents, Merged) ; Merged = Opponents ),
    put_assoc(Actor, Index, Merged, Grown).

% edges_added(+Flat, -Edges): e(Type, From, To) of each edge of the flat list (Id, Type, From, To, Confidence, Role...)
edges_added([], []).
edges_added([_, Type, From, To, _, _ | Rest], [e(Type, From, To) | Edges]) :- edges_added(Rest, Edges).

% Per-actor answers a rule module grows at a write (its added_answer/4): the records of the actors a write touched,
% found again from each one's own edges (own_ends/5) and put in place of their old ones (put_by_subject/3).

% added_ends(+Added, -Ids): the nodes a write touched (lib/graph.pl: it fails past growth_node_limit/1, so that every
% growth built on it fails and its set is found again whole at its next run)

% own_ends(+X, +Type, ?Role, +Label, -Ids): the nodes of Label that X's edges of Type (of Role, when an atom) lead to,
% sorted: X's group when group_by_edge/5 groups those nodes by the other end of their edges (Type, in, Role). Read
% once per write for all the modules' growths (write_memo/3: the claims a node asserts are read by six of them)
own_ends(X, Type, Role, Label, Ids) :-
    ( var(Role) -> Key = own_ends(X, Type, any, Label) ; Key = own_ends(X, Type, role(Role), Label) ),
    write_memo(Key, Ids, own_ends_(X, Type, Role, Label, Ids)).
own_ends_(X, Type, Role, Label, Ids) :- group_by_edge([X], Type, out, Role, G), pairs_keys(G, Ends), filter_ids(Ends, kind(Label), Ids).

% own_claims(+X, +Type, -Claims): the claims of Type X asserts, sorted, read from its own edges (own_ends/5): an actor's
% red lines, offers or commitments, as a module's growth reads them for each actor a write touched
own_claims(X, Type, Claims) :- own_ends(X, 'ASSERTS', _, 'Claim', Cs), filter_ids(Cs, prop(type, Type), Claims).

% A set of pairs of opponents grows the same way: the pairs of each node of added_ends/2 found again, its opponents read
% from its own edges (own_opponents/2), the rest kept (a hostile pair a write adds has an end an edge added ends at). A
% node's list of opponents changes also at the other end of a hostile pair added (added_sides/2).

% added_sides(+Added, -Ids): added_ends/2 and both ends of each hostile pair the write added (added_hostile_pairs/2:
% an edge added to an event held pairs its perpetrator, which no edge added ends at, with a target), sorted
added_sides(Added, Ids) :-
    added_ends(Added, Ends), added_hostile_pairs(Added, Pairs),
    findall(X, ( member(P-Q, Pairs), member(X, [P, Q]) ), Sides),
    append(Ends, Sides, Ids0), sort(Ids0, Ids).

% own_opponents(+X, -Opponents): X's opponents as hostile_partners/1 has them (sorted; [] when it has none), read
% from X's own edges (its OPPOSES edges either way, the hostile events it perpetrates or is the target of, the
% hostile claims it asserts or that aim at it), where opponents/2 reads every pair of the view; read once per write
% for all the modules' growths (write_memo/3)
own_opponents(X, Opponents) :- write_memo(own_opponents(X), Opponents, own_opponents_(X, Opponents)).
own_opponents_(X, Opponents) :- findall(Y, own_opponent(X, Y), Ys), sort(Ys, Opponents).

own_opponent(X, Y) :- ( edge(_, 'OPPOSES', X, Y, _) ; edge(_, 'OPPOSES', Y, X, _) ), Y \== X.
% (the hostile events and claims paired in one link_pairs/4 call each: one call an event or claim took some 75k
% inferences for a node of 1,000 of each)
own_opponent(X, Y) :-
    own_ends(X, 'PARTICIPATES_IN', perpetrator, 'Event', Ps), own_ends(X, 'PARTICIPATES_IN', target, 'Event', Ts),
    findall(E, ( ( member(E, Ps) ; member(E, Ts) ), event(E, T), hostile_event_type(T) ), Es0), sort(Es0, Es),
    link_pairs(Es, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), Pairs), linked_with(Pairs, X, Y).
own_opponent(X, Y) :-
    own_ends(X, 'ASSERTS', _, 'Claim', Asserted), findall(C, edge(_, 'TARGETS', C, X, _), Aimed),
    findall(C, ( ( member(C, Asserted) ; member(C, Aimed) ), claim(C, T), hostile_claim_type(T) ), Cs0), sort(Cs0, Cs),
    link_pairs(Cs, in('ASSERTS'), out('TARGETS'), Pairs), linked_with(Pairs, X, Y).

% linked_with(+Pairs, +X, -Y): the other side of each p(P, Q, _) of link_pairs/4 that X is a side of
linked_with(Pairs, X, Y) :- member(p(P, Q, _), Pairs), ( P == X -> Y = Q ; Q == X, Y = P ).

% put_by_subject(+Records, +New, -Merged): Records and New sorted by their first argument (each subject once), a
% subject's record of New in place of its record of Records (sort/4 keeps the first of a subject's records, New's;
% in C, where a walk of the records took some 45k inferences at 1M facts for each set grown)
put_by_subject(Records, New, Merged) :- append(New, Records, All), sort(1, @<, All, Merged).

% added_hostile_pairs(+Added, -Pairs): the pairs X-Y (sorted) of added_hostile_pair/3 of the edges a write added
% (Added: added(Nodes, Props, Edges)), found once per write for the library's hostile pairs and the modules' growths
% (write_memo/3: one write is grown at a time, so the key needs no more)
added_hostile_pairs(added(_, _, Flat), Pairs) :- write_memo(added_hostile_pairs, Pairs, added_hostile_pairs_(Flat, Pairs)).
added_hostile_pairs_(Flat, Pairs) :- edges_added(Flat, Edges), findall(X-Y, added_hostile_pair(Edges, X, Y), Ps), sort(Ps, Pairs).

% added_hostile_pair(+Edges, -X, -Y): a pair hostile_actor_pair/2 holds of an OPPOSES edge added, an event an
% edge added takes part in, or a claim an edge added asserts or aims (perhaps held already)
added_hostile_pair(Added, X, Y) :- added_link(Added, hostile_event_type, hostile_claim_type, P, Q), P \== Q, order_pair(P, Q, X, Y).

% added_link(+Added, :EventType, :ClaimType, -A, -B): a link of one actor against another (A, B as they come) that the
% edges added (edges_added/2) show: an OPPOSES edge added, an event of an EventType an edge added takes part in (its
% perpetrator against its target), or a claim of a ClaimType an edge added asserts or aims (its speaker against what
% it TARGETS), each event or claim paired again whole. The caller applies its own filter and order (the hostile
% pairs drop an OPPOSES edge of an actor to itself and order each pair; galtung's adjacency keeps both).
:- meta_predicate added_link(+, 1, 1, -, -).
added_link(Added, _, _, A, B) :- member(e('OPPOSES', A, B), Added).
added_link(Added, EventType, _, A, B) :-
    findall(E, member(e('PARTICIPATES_IN', _, E), Added), Es0), sort(Es0, Es),
    member(E, Es), event(E, T), call(EventType, T),
    link_pairs([E], in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), Ps), member(p(A, B, _), Ps).
added_link(Added, _, ClaimType, A, B) :-
    findall(C, ( member(e(T, X, Y), Added), ( T == 'ASSERTS' -> C = Y ; T == 'TARGETS', C = X ) ), Cs0), sort(Cs0, Cs),
    member(C, Cs), claim(C, T), call(ClaimType, T),
    link_pairs([C], in('ASSERTS'), out('TARGETS'), Ps), member(p(A, B, _), Ps).

% hostile_partners(-Partners): Actor-Opponents for each actor of a hostile pair, by actor, each
% list sorted: the rules that look at the pairs of a few actors (the attackers, the movers) start
% from those actors rather than walk every pair (kept for the view, as the pairs are).
hostile_partners(Partners) :- view_set(hostile_partners, hostile_partners_, Partners).
hostile_partners_(Partners) :-
    hostile_actor_pairs(Pairs),
    both_ways(Pairs, L), keysort(L, S), group_pairs_by_key(S, Partners).

% both_ways(+Pairs, -Both): X-Y and Y-X for each X-Y of Pairs, in its order (one step a pair, where a
% findall with a disjunction takes five)
both_ways([], []).
both_ways([X-Y | Pairs], [X-Y, Y-X | Both]) :- both_ways(Pairs, Both).

% opponents(+Actor, -Opponents): Actor's opponents as hostile_partners/1 has them (sorted; [] when it
% has none), looked up in an index of them built once per graph view (view_set/3, read without a
% copy): for rules that ask of a few actors at a time, many times
opponents(Actor, Opponents) :- view_set(opponent_index, opponent_index, Index), group_ids(Actor, Index, Opponents).
opponent_index(Index) :- hostile_partners(Ps), index_groups(Ps, Index).

% hostile_pairs_among(+Groups, -Pairs): p(A, B, IdsA, IdsB) for each hostile pair A-B (A @< B, as
% hostile_actor_pairs/1 has them, in that order) whose two sides both have ids in Groups (Actor-Ids
% sorted by actor, as the grouping helpers return them): read from each actor of Groups to its
% opponents, not over every pair.
hostile_pairs_among(Groups, Pairs) :-
    hostile_partners(Partners), index_groups(Groups, Index),
    findall(p(A, B, IdsA, IdsB),
            ( partners_of_groups(Groups, Partners, A, IdsA, Bs), member(B, Bs), A @< B, group_ids(B, Index, IdsB), IdsB \== [] ),
            Pairs).

% partners_of_groups(+Groups, +Partners, -A, -Ids, -Opponents): each actor of Groups that has
% opponents, with its ids and its opponents (both lists sorted by actor: one walk of the two)
partners_of_groups([A-Ids | Gs], [B-Bs | Ps], Actor, ActorIds, Opponents) :-
    compare(O, A, B),
    (   O == (=) -> ( Actor-ActorIds-Opponents = A-Ids-Bs ; partners_of_groups(Gs, Ps, Actor, ActorIds, Opponents) )
    ;   O == (<) -> partners_of_groups(Gs, [B-Bs | Ps], Actor, ActorIds, Opponents)
    ;   partners_of_groups([A-Ids | Gs], Ps, Actor, ActorIds, Opponents)
    ).

% pair_evidence(+A, +B, -Ids): the two actors and the OPPOSES edges between them.
pair_evidence(A, B, Ids) :- findall(E, ( edge(E, 'OPPOSES', A, B, _) ; edge(E, 'OPPOSES', B, A, _) ), Es), append([A, B], Es, Ids).

% order_pair(+P, +Q, -X, -Y): the two actors in standard order.
order_pair(P, Q, P, Q) :- P @< Q, !.
order_pair(P, Q, Q, P).

% opposing_pairs(-Pairs): all of them as one list of p(A, B, Evidence), A @< B (one inference).
opposing_pairs(Undirected) :- hostile_pairs(Pairs), merge_pairs(Pairs, undirected, Undirected).

% ---- time --------------------------------------------------------------------

% dated(?Id, -Date): Id has a valid time (an event's date, a claim's timestamp).
dated(Id, Date) :- valid_time(Id, Date).

% recent_window(-Days): how far back "recent" reaches from the reference date.
recent_window(180).

% days_before_reference(+Id, -Days): how many days before the reference date Id happened. The day
% is valid_days/2's, which the bridge hands over beside each valid time (lib/graph.pl; its filters read
% it too): the days date_days/2 gives the same date, without parsing the date or keeping a table
% per date (730 of them at 100k facts, a tenth of a second to fill); the reference's days are the
% ones the filters read (reference_days/1 of lib/graph.pl), and an id has a day only when the view
% has a reference date
days_before_reference(Id, Days) :- valid_days(Id, D), reference_days(R), Days is R - D.

% id_days(+Ids, -IdDays): Id-Days for each dated id of the list, in its order, Days being how many
% days before the reference date it happened: a rule that compares the dates of a few ids with each
% other (what followed what, within how long) reads each id's day once
id_days(Ids, IdDays) :- findall(Id-D, ( member(Id, Ids), days_before_reference(Id, D) ), IdDays).

% recent(+Id): Id happened within the recent window before the reference date.
recent(Id) :- recent_window(W), days_before_reference(Id, Days), Days >= 0, Days =< W.

% recent_ids(+Ids, -Recent): the ids of a list dated within the recent window.
recent_ids(Ids, Recent) :- recent_window(W), filter_ids(Ids, window(0, W), Recent).

% current_ids(+Ids, -Current): the recent ones and the undated ones (nothing says they are old).
current_ids(Ids, Current) :- recent_window(W), filter_ids(Ids, current(W), Current).

% dated_ids(+Ids, -Dated)
dated_ids(Ids, Dated) :- filter_ids(Ids, dated, Dated).

% earlier_ids(+Ids, -Earlier): the ids dated in the window of the same length before the recent one.
earlier_ids(Ids, Earlier) :- recent_window(W), Lo is W + 1, Hi is 2 * W, filter_ids(Ids, window(Lo, Hi), Earlier).

% trend(+Ids, -Trend, -Recent, -Earlier): compares the ids of the recent window with those of
% the window of the same length before it: rising, falling or steady (Recent and Earlier are lists).
trend(Ids, Trend, Recent, Earlier) :-
    recent_ids(Ids, Recent), earlier_ids(Ids, Earlier),
    count_ids(Recent, R), count_ids(Earlier, E), trend_of(R, E, Trend).
trend_of(R, E, rising) :- R > E, R - E >= 2, R * 4 >= E * 5, !.
trend_of(R, E, falling) :- E > R, E - R >= 2, E * 4 >= R * 5, !.
trend_of(_, _, steady).

% span_days(+Ids, -Days): days between the earliest and the latest dated Id (0 with fewer than two).
span_days(Ids, Days) :-
    findall(D, (member(Id, Ids), valid_days(Id, D)), Ds),
    ( Ds = [] -> Days = 0 ; min_list(Ds, Min), max_list(Ds, Max), Days is Max - Min ).

% before(+X, +Y): X happened before Y (both dated).
before(X, Y) :- valid_time(X, DX), valid_time(Y, DY), DX @< DY.

% ---- counting and evidence ------------------------------------------------

% The goals of count/3 and ids/3 run in the calling rule module, which may define
% predicates this library does not know.
:- meta_predicate count(?, 0, -), ids(?, 0, -).

% count(+Template, +Goal, -N): how many distinct Template answers Goal has.
count(Template, Goal, N) :- findall(Template, Goal, L), sort(L, S), count_ids(S, N).

% ids(+Template, +Goal, -Ids): the distinct answers, sorted (evidence lists).
ids(Template, Goal, Ids) :- findall(Template, Goal, L), sort(L, Ids).

% nonempty(+List)
nonempty([_|_]).

% at_least(+N, +List): List has N elements or more.
at_least(N, List) :- count_ids(List, L), L >= N.

% share(+Part, +Whole, -Ratio): Part / Whole, 0 when Whole is 0.
share(_, 0, 0) :- !.
share(Part, Whole, Ratio) :- Ratio is Part / Whole.

% join(+Parts, -Text): a sentence from atoms, numbers and lists of labels.
join(Parts, Text) :- maplist(part_text, Parts, Atoms), atomic_list_concat(Atoms, Text).
part_text(L, T) :- is_list(L), !, maplist(label, L, Ls), list_text(Ls, T).
part_text(X, X).
list_text([], 'none').
list_text([X], X) :- !.
% in one concatenation: one made per element, each the text of the rest of the list, took the square of its
% length in atoms (fearon's list of the actors in a commitment problem: 49 MB of atoms at 1M facts)
list_text(Xs, T) :- append(Front, [Last], Xs), !, atomic_list_concat(Front, ', ', Head), atomic_list_concat([Head, ' and ', Last], T).

% labels(+Ids, -Labels): the labels of Ids, for sentences.
labels(Ids, Labels) :- maplist(label, Ids, Labels).

% current(+Id): Id is recent, or carries no date (nothing says it is old).
current(Id) :- valid_time(Id, _), !, recent(Id).
current(_).

% current_claims(+Type, -Ids) and current_events(+Type, -Ids): the current ones of a kind.
current_claims(Type, Ids) :- claims_of_type(Type, All), current_ids(All, Ids).
current_events(Type, Ids) :- events_of_type(Type, All), current_ids(All, Ids).

% fatalities(+Events, -Sum): the fatalities the events report.
fatalities(Events, Sum) :- sum_prop(Events, fatalities, Sum).

% speakers(+Claims, -Groups): Actor-Claims pairs, who asserts which of the claims.
speakers(Claims, Groups) :- group_by_edge(Claims, 'ASSERTS', in, _, Groups).

% perpetrators(+Events, -Groups) and targets(+Events, -Groups): Actor-Events pairs.
perpetrators(Events, Groups) :- group_by_edge(Events, 'PARTICIPATES_IN', in, perpetrator, Groups).
targets(Events, Groups) :- group_by_edge(Events, 'PARTICIPATES_IN', in, target, Groups).
participants(Events, Groups) :- group_by_edge(Events, 'PARTICIPATES_IN', in, _, Groups).

% claims_by_actor(+Type, -Groups): Actor-Claims pairs for the claims of one type (several frameworks
% group the same claims: speakers/2 keeps the grouping of a large set for the view, view_memo/3).
claims_by_actor(Type, Groups) :- claims_of_type(Type, Cs), speakers(Cs, Groups).

% keyed_member(+SortedKeys, +Keyed, -Value): a Value of a Key-Value list (keysorted) whose Key is in
% SortedKeys, in the order of Keyed: one walk of the two lists. For a few hundred edges or claims
% keyed by an actor, and a set of most actors (the parties), which is too large to index for them
keyed_member([K | Ks], [K1-V1 | Vs], V) :-
    compare(O, K, K1),
    (   O == (<) -> keyed_member(Ks, [K1-V1 | Vs], V)
    ;   O == (>) -> keyed_member([K | Ks], Vs, V)
    ;   ( V = V1 ; keyed_member([K | Ks], Vs, V) )
    ).

% group_ids(+Key, +Groups, -Ids): the ids of one key of a Key-Ids list, or of the index
% index_groups/2 made of one ([] when absent). A lookup in the list walks it: a rule that
% looks keys up in a loop (each side of every pair) indexes the groups first.
group_ids(Key, Groups, Ids) :- group_lookup(Groups, Key, Found), !, Ids = Found.
group_ids(_, _, []).

group_lookup(t, _, _) :- !, fail.
group_lookup(t(K, V, B, L, R), Key, Ids) :- !, get_assoc(Key, t(K, V, B, L, R), Ids).
group_lookup(Groups, Key, Ids) :- memberchk(Key-Ids, Groups).

% index_groups(+Groups, -Index): a Key-Ids list (sorted by key, each key once, as the
% grouping helpers return it) as an index for group_ids/3.
index_groups(Groups, Index) :- list_to_assoc(Groups, Index).

% mentioning(+Ids, +Keywords, -Hits): the ids whose text mentions one of the keywords.
mentioning(Ids, Keywords, Hits) :- filter_ids(Ids, mentions(Keywords), Hits).

% own_mentioning(+Ids, +Keywords, -Hits): the ids whose text mentions one of the keywords, sorted, read from the
% mentions of those ids alone (mentioning_each/3): for a growth's few ids (an actor's own claims, frameworks/README.md),
% where mentioning/3 over indexed words reads the set of every id that mentions them, computed again over the whole
% view at each call while a write's sets are grown
own_mentioning(Ids, Keywords, Hits) :- mentioning_each(Ids, Keywords, Pairs), pairs_values(Pairs, Lists), append(Lists, Hits0), sort(Hits0, Hits).

% nodes_mentioning(+Label, +Keywords, -Hits): the nodes of Label whose text mentions one of the
% keywords, sorted: what nodes_where(Label, _, _, All), mentioning(All, Keywords, Hits) gives. When
% the text index covers every keyword, the nodes it lists for them (a few hundred) are read and kept
% when of Label, where mentioning/3 would test each of the thousands of claims (indexed_words/1 and
% mentioned_by/2 of lib/graph.pl: the index filter_ids/3 reads)
nodes_mentioning(Label, Keywords, Hits) :-
    (   indexed_words(Keywords)
    ->  mentioned_by(Keywords, Mentioned), filter_ids(Mentioned, kind(Label), Hits)
    ;   nodes_where(Label, _, _, All), mentioning(All, Keywords, Hits)
    ).

% ---- lists, groups and sentences the frameworks share ---------------------------

% take(+N, +List, -Prefix): the first N elements of List, all of them when it is shorter. The
% frameworks take 5 or 10 ids of thousands of lists per assess at 100k facts: those two are read
% in the clause head, one inference where a step per element takes N + 1.
take(5, [A, B, C, D, E | _], Prefix) :- !, Prefix = [A, B, C, D, E].
take(10, [A, B, C, D, E, F, G, H, I, J | _], Prefix) :- !, Prefix = [A, B, C, D, E, F, G, H, I, J].
take(0, _, []) :- !.
take(_, [], []) :- !.
take(N, [X | Xs], [X | Ys]) :- M is N - 1, take(M, Xs, Ys).

% grouped_ids(+Groups, -Ids): the ids of every group of a Key-Ids list, appended in the groups' order.
grouped_ids([], []).
grouped_ids([_-Ids | Groups], All) :- grouped_ids(Groups, Rest), append(Ids, Rest, All).

% select_groups(+SortedKeys, +SortedGroups, -Selected): the Key-Ids groups whose Key is in SortedKeys.
select_groups([], _, []) :- !.
select_groups(_, [], []) :- !.
select_groups([K | Ks], [G-V | Gs], Out) :- compare(O, K, G), select_groups_(O, K, Ks, G, V, Gs, Out).
select_groups_(<, _, Ks, G, V, Gs, Out) :- select_groups(Ks, [G-V | Gs], Out).
select_groups_(=, K, Ks, _, V, Gs, [K-V | Out]) :- select_groups(Ks, Gs, Out).
select_groups_(>, K, Ks, _, _, Gs, Out) :- select_groups([K | Ks], Gs, Out).

% merge_groups(+Groups, -Merged): Key-Ids groups with each key once, the ids of a key merged and sorted.
merge_groups(Groups, Merged) :- msort(Groups, Sorted), merge_sorted_groups(Sorted, Merged).
merge_sorted_groups([], []).
merge_sorted_groups([K-A, K-B | Rest], Merged) :- !, append(A, B, C0), sort(C0, C), merge_sorted_groups([K-C | Rest], Merged).
merge_sorted_groups([G | Rest], [G | Merged]) :- merge_sorted_groups(Rest, Merged).

% doers(+Events, -Groups): Actor-Events, who carries out the events (perpetrator or participant).
doers(Events, Groups) :-
    group_by_edge(Events, 'PARTICIPATES_IN', in, perpetrator, G1),
    group_by_edge(Events, 'PARTICIPATES_IN', in, participant, G2),
    append(G1, G2, G0), merge_groups(G0, Groups).

% collect_tagged(+Tagged, +Empty, :Fill, -Records): Key-Record for a list of Key-t(Tag, Ids) sorted by
% key, each Record built from Empty by call(Fill, Tag, Ids, Record0, Record) over the key's entries.
:- meta_predicate collect_tagged(+, +, 4, -).
collect_tagged([], _, _, []).
collect_tagged([K-t(T, Ids) | Rest], Empty, Fill, [K-R | Records]) :-
    call(Fill, T, Ids, Empty, R1), collect_key(K, Rest, Fill, R1, R, Rest1), collect_tagged(Rest1, Empty, Fill, Records).
collect_key(K, [K-t(T, Ids) | Rest], Fill, R0, R, Out) :- !, call(Fill, T, Ids, R0, R1), collect_key(K, Rest, Fill, R1, R, Out).
collect_key(_, Rest, _, R, R, Rest).

% few_labels(+Ids, -Text): at most five ids by label ("A, B, C, D and 7 others").
few_labels(Ids, Text) :- length(Ids, N), N =< 5, !, join([Ids], Text).
few_labels(Ids, Text) :-
    take(4, Ids, Top), length(Ids, N), Others is N - 4,
    labels(Top, Labels), atomic_list_concat(Labels, ', ', Front), atomic_list_concat([Front, ' and ', Others, ' others'], Text).

% interest_types(-Types): the types of Interest nodes (HOLDS_INTEREST) the frameworks weigh.
interest_types([security, territory, resources, recognition, autonomy, identity, power, economic, participation]).

% holds_interest_edge(+Actor, +Interest, -Edge): the first HOLDS_INTEREST edge from Actor to Interest.
holds_interest_edge(A, I, E) :- edge(E, 'HOLDS_INTEREST', A, I, _), !.

% peace_process_types(-EventTypes, -ClaimTypes): the node types of the peace process, its talks and agreements and
% its offers and commitments; every reading of the process below, and a growth that tests a node added
% (peace_process_node/1: stedman's latest date), takes them from here
peace_process_types(['CONSULT', 'AGREE'], ['Offer', 'Commitment']).

% peace_process_node(+Id): Id is an event or a claim of a peace process type
peace_process_node(Id) :-
    peace_process_types(ETs, CTs), ( event(Id, T) -> memberchk(T, ETs) ; claim(Id, T) -> memberchk(T, CTs) ).

% peace_process(-Events, -Claims): the process, its talks and agreements (CONSULT, AGREE events) and
% its offers and commitments (Offer, Commitment claims), each sorted; peace_process_ids/1 both in one list.
% Kept for the view (view_set/3): a run asks for them again and again (stedman ten times, each an append of
% every talk and offer of the graph)
peace_process(Events, Claims) :- view_set(peace_process, peace_process_, Events-Claims).
peace_process_(Events-Claims) :-
    peace_process_types(ETs, CTs),
    maplist(events_of_type, ETs, Es), append(Es, E0), sort(E0, Events),
    maplist(claims_of_type, CTs, Cs), append(Cs, C0), sort(C0, Claims).
peace_process_ids(Ids) :- view_set(peace_process_ids, peace_process_ids_, Ids).

% process_participants(-Groups) and process_speakers(-Groups): Actor-Ids (both sorted) of the peace process's events
% and claims, as participants/2 and speakers/2 group peace_process/2's lists: grouped per type and merged, so that each
% type's grouping is read as kept (warm_view_sets/0 computes it, a write grows it), where a grouping of the types'
% lists appended was found again after every write of an event or a claim (some 180k inferences at 1M facts)
process_participants(Groups) :-
    peace_process_types(ETs, _), findall(G, ( member(T, ETs), events_of_type(T, Es), participants(Es, G) ), Gs), append(Gs, G0), merge_groups(G0, Groups).
process_speakers(Groups) :-
    peace_process_types(_, CTs), findall(G, ( member(T, CTs), claims_by_actor(T, G) ), Gs), append(Gs, G0), merge_groups(G0, Groups).
peace_process_ids_(Ids) :- peace_process(Es, Cs), append(Es, Cs, Ids0), sort(Ids0, Ids).

% peace_process_exists: the graph holds a process event or claim.
peace_process_exists :- peace_process_types(ETs, _), member(T, ETs), events_of_type(T, [_|_]), !.
peace_process_exists :- peace_process_types(_, CTs), member(T, CTs), claims_of_type(T, [_|_]), !.

% view_findings(+Name, :Find, -Found): f(Key, Value, Sentence, Ids, Because) for every answer of the module's Find/5,
% kept for the view under Name (view_set/3, in the module), found once for the run's findings and read again by
% strength/3 (lederach's and zartman's finding/5). Not grown: a write that changes what they read has them found
% again. Kept whole, with no findings limit in the key, so only for a module that ranks no finding (no rank/3 or
% ranks/1, no kept/2, kept_subjects/2 or kept_member/4): nothing in them then reads the run's parley_findings_cap and
% every run finds them all; a module that ranks must key such a list by the cap, or a later run with another limit
% would read the first run's (frameworks/README.md)
:- meta_predicate view_findings(+, 5, -).
view_findings(Name, M:Find, Found) :- view_set(Name, M:findings_of(M:Find), Found).
findings_of(Find, Found) :- findall(f(K, V, S, I, B), call(Find, K, V, S, I, B), Found).

% ---- per-actor findings, bounded ----------------------------------------------

% A framework that concludes something of every actor (or pair, or spoiler) declares those
% findings' candidates with rank(Key, Subject, Score) and guards each such finding/5 clause
% with kept(Key, Subject) before it builds the sentence and the evidence. A run keeps the Cap
% candidates of the highest Score over all its ranked keys (ties by Subject, then Key), Cap
% being the run's findings limit (frameworks/run.ts sets parley_findings_cap in the finding
% call; unset, as when a query calls finding/5, every subject is kept), and reports how many
% it left out (findings_omitted/2).
:- meta_predicate kept(:, ?), kept_subjects(:, -), kept_member(:, ?, ?, +), findings_omitted(:, -).

% (Subject is bound: the kept pairs are ground, and memberchk/2 tests one in a single step where
% ord_memberchk/2 walks the list in Prolog, for each of the thousands of candidates a run meets)
kept(M:Key, Subject) :-
    (   nb_current(parley_findings_cap, Cap), integer(Cap)
    ->  ranked_kept(M, Cap, Kept, _), memberchk(Key-Subject, Kept)
    ;   true
    ).

% kept_subjects(+Key, -Subjects): the subjects of Key a run keeps, sorted; fails when every subject is
% kept (no cap). A rule whose candidates are many and kept few looks the kept ones up in its list
% (memberchk/2, a scan in C) instead of testing kept/2 on each candidate; its findings must then come
% in the Subjects' order, as they do when it enumerates the candidates sorted by subject.
kept_subjects(M:Key, Subjects) :-
    nb_current(parley_findings_cap, Cap), integer(Cap),
    ranked_kept(M, Cap, Kept, _), findall(S, member(Key-S, Kept), Subjects).

% kept_member(+Key, ?Subject, ?Candidate, +Candidates): member(Candidate, Candidates), Candidate being
% about Subject (they share variables: pm(A, B, ...) and A-B), for the candidates a run keeps, as
% member/2 then kept/2 would give them when Candidates are sorted by Subject, without testing each
%   finding(pair, [A, B], ...) :- my_pairs(Ps), kept_member(pair, A-B, pm(A, B, N, Ids), Ps), ...
kept_member(M:Key, Subject, Candidate, Candidates) :-
    (   kept_subjects(M:Key, Kept)
    ->  member(Subject, Kept), memberchk(Candidate, Candidates)
    ;   member(Candidate, Candidates)
    ).

% findings_omitted(+Cap, -N): how many ranked candidates the cap leaves out.
findings_omitted(M:Cap, N) :- ( ranking_module(M) -> ranked_kept(M, Cap, _, N) ; N = 0 ).

ranking_module(M) :- ( current_predicate(M:ranks/1) -> true ; current_predicate(M:rank/3) ).

% ranked_kept(+Module, +Cap, -Kept, -Omitted): the Key-Subject pairs kept, as an ordered set
% (kept for the view, view_memo/3: every guarded clause asks; a table would hide from a set that
% found it filled what it read)
ranked_kept(M, Cap, Kept, Omitted) :- view_set(ranked_kept(M, Cap), ranked_kept_(M, Cap), Kept-Omitted).
ranked_kept_(M, Cap, Kept-Omitted) :-
    rank_table(M, Table), msort(Table, Ordered),
    length(Ordered, Total),
    Take is min(Cap, Total), length(First, Take), append(First, _, Ordered),
    findall(Key-Subject, member(r(_, Subject, Key, _), First), Pairs), sort(Pairs, Kept),
    Omitted is Total - Take.

% rank_table(+Module, -Table): the module's candidates as rank_entries/2 gives them: its ranks/1, where it keeps them
% (in a model its growth updates, so that a ranking after a write no longer enumerates every candidate: 1.03M of the
% 1.18M inferences six frameworks' rankings took after an ingest-like write at 1M facts), else its rank/3's
rank_table(M, Table) :-
    (   current_predicate(M:ranks/1) -> M:ranks(Table)
    ;   findall(Key-Subject-Score, ( M:rank(Key, Subject, Score), number(Score) ), Found), rank_entries(Found, Table)
    ).

% rank_entries(+Scored, -Table): Key-Subject-Score triples (in any order, repeated or not; a Score that is no number
% left out, as rank_table/2 leaves out rank/3's) as a ranking table: r(Neg, Subject, Key, Key-Subject) once per
% Key-Subject, with its highest Score (Neg negated, so that msort/2 puts the highest first, ties by Subject then Key),
% sorted by Key-Subject
rank_entries(Found, Table) :- sort(Found, Sorted), best_scores(Sorted, Table).

% ranks_put(+Table0, +Scored, -Table): Table0 with the entries of Scored (Key-Subject-Score) in place of those of the
% same Key-Subject, sorted by Key-Subject as put_by_subject/3 merges records (sort/4 in C). A module whose growth finds
% some subjects' records again passes their candidates: a candidate it no longer gives stays as it was, so a module may
% keep its ranking so only where a write can only raise or keep a subject's candidates (frameworks/README.md)
ranks_put(Table0, Scored, Table) :- rank_entries(Scored, New), append(New, Table0, All), sort(4, @<, All, Table).

% ranks_replace(+Table0, +Gone, +Scored, -Table): ranks_put/3 after taking out the entries of the Key-Subject pairs in
% Gone: a module whose growth may find a subject again with no candidate passes that subject's Key-Subject in Gone (each
% write's own few: the table is walked only when Gone is not empty)
ranks_replace(Table0, [], Scored, Table) :- !, ranks_put(Table0, Scored, Table).
ranks_replace(Table0, Gone, Scored, Table) :- sort(Gone, Keys), exclude(rank_entry_of(Keys), Table0, Kept), ranks_put(Kept, Scored, Table).
rank_entry_of(Keys, r(_, _, _, KS)) :- ord_memberchk(KS, Keys).

% best_scores(+Sorted, -Table): each Key-Subject once, with its highest Score, in one walk of the list (a Key-Subject's
% scores that are no number sort after its numbers, and are passed over)
best_scores([], []).
best_scores([K-S-_, K2-S2-Sc2 | Rest], Table) :- K == K2, S == S2, number(Sc2), !, best_scores([K2-S2-Sc2 | Rest], Table).
best_scores([K-S-Score | Rest], Table) :- number(Score), !, Table = [r(Neg, S, K, K-S) | Table1], Neg is -Score, best_scores(Rest, Table1).
best_scores([_ | Rest], Table) :- best_scores(Rest, Table).

% ---- warming a view ---------------------------------------------------------

% warm_view_sets: computes the sets of this library that several frameworks read and keep for the
% view (view_memo/3): the nodes of each kind and of each claim and event type, who asserts each
% type of claim, who did what to whom in each type of event, the current and recent ones of each,
% the hostile pairs and each actor's opponents. A reasoning worker runs it when it is handed a new
% view, before any assess asks (engine/reason/worker-entry.ts), so that the first assess reads them.
warm_view_sets :-
    forall(member(L, ['Actor', 'Issue', 'Interest']), nodes_where(L, _, _, _)),
    nodes_by_value('Claim', type, ClaimTypes),
    forall(member(T, ClaimTypes), ( claims_by_actor(T, _), current_claims(T, _), claims_of_type(T, C1), trend(C1, _, _, _) )),
    nodes_by_value('Event', event_type, EventTypes),
    forall(member(T, EventTypes), ( events_of_type(T, E1), group_by_roles(E1, 'PARTICIPATES_IN', [perpetrator, target]), current_ids(E1, _), trend(E1, _, _, _) )),
    opponents('$none', _).

% ---- reading strength -------------------------------------------------------

% reading_strength(+Weight, +Ids, -Score): how strongly the graph supports a conclusion resting on
% Ids, for a framework's strength/3 (frameworks/README.md, "Fit"). Weight (0..1) says how telling
% the conclusion is of the situation, as the theory sees it ("ripe" is a strong reading, "no
% spiral" a weak one); it is scaled by the share of the graph's claims and events the conclusion
% rests on (a rate, so the score does not saturate as the graph grows; its square root, so that a
% conclusion resting on a quarter of the graph keeps most of its weight) and by the share of that
% evidence in the recent window:
%   Score = Weight * (0.5 + 0.3 * sqrt(Share) + 0.2 * RecentShare)
reading_strength(Weight, Ids, Score) :-
    sort(Ids, Sorted), recent_window(Window),
    (   shared_set(Sorted)
    ->  view_memo(moves_tally(Sorted, Window), Tally, moves_tally_kept(Sorted, Window, Tally)), t(NC, NE, NR) = Tally
    ;   moves_tally(Sorted, Window, t(NC, NE, NR))
    ),
    N is NC + NE,
    kind_count('Claim', TC), kind_count('Event', TE), Total is TC + TE,
    share(N, Total, Share), share(NR, N, RecentShare),
    Score0 is Weight * (0.5 + 0.3 * sqrt(Share) + 0.2 * RecentShare),
    Score is min(1.0, max(0.0, Score0)).

% moves_tally_kept(+Sorted, +Window, -Tally): moves_tally/3, from the tally kept over the list before the view's last
% write where there is one: a conclusion's evidence is a list its rules build (appends, sorts), which grows at a write
% by the nodes the write added, so that its tally, kept under the list, was counted again whole after every write (1.39M
% inferences across nine frameworks after an ingest-like write at 1M facts). The tally over Sorted is the kept one over
% Sorted less the nodes the write added that it holds (found by its slot's print: their length and first id), plus
% theirs: a node's label and date never change at a write, and a kept tally is one the write left valid (it reads the
% reference date, and a removal drops it)
% Evidence that changed otherwise (ids out, or in and not the write's) is found from the moves a growth noted
% (note_evidence_moved/3), where one accounts for it.
moves_tally_kept(Sorted, Window, Tally) :-
    (   moves_tally_grown(Sorted, Window, Tally) -> true
    ;   moves_tally_moved(Sorted, Window, Tally) -> true
    ;   moves_tally(Sorted, Window, Tally)
    ).

moves_tally_grown(New, Window, t(NC, NE, NR)) :-
    write_nodes(Written), Written \== [],
    findall(Id, ( member(Id, Written), memberchk(Id, New) ), Delta), Delta \== [],
    length(New, N), length(Delta, D), M is N - D, M > 0,
    first_outside(New, Delta, First),
    strip_module(moves_tally, Module, _),
    memo_slot(Module, moves_tally(list(M, First), Window), Slot), memo_entries(Slot, Entries),
    member((Module:moves_tally(Old, W))-r(answer(t(NC0, NE0, NR0)), Reads), Entries), W == Window,
    % Old and the nodes added make up New, and no node is in both: sort/2 and ==/2 compare them in C
    length(Old, M), append(Delta, Old, Both), sort(Both, Merged), Merged == New, !,
    reads_add(Reads),
    moves_tally(Delta, Window, t(DC, DE, DR)),
    NC is NC0 + DC, NE is NE0 + DE, NR is NR0 + DR.

% note_evidence_moved(+Name, +Gone, +Came): a module's growth notes that the write took the ids Gone out of the evidence
% list Name of its strength/3 and put the ids Came in (both sorted): ids no entry of its answer cites any more, and ids
% no entry cited before, as its counts of citing entries find them (thomas_kilmann's tk_model). The tally over the new
% list is then the kept one over the list before, less Gone's, plus Came's, where the ids' comparison would cost more
% than the count it saves (ord_subtract/3 both ways over 29.5k ids: 237k inferences at 1M facts). One note a Name,
% each growth's in place of the last (bounded by the modules that note); a note that no longer fits the kept tallies
% (the model found again whole, no strength run since the write before) finds none, or fails the check of
% moves_tally_moved/3, and the tally is counted again
note_evidence_moved(Name, Gone, Came) :-
    ( nb_current(parley_evidence_moved, Notes0) -> true ; Notes0 = [] ),
    ( selectchk(Name-_, Notes0, Notes1) -> true ; Notes1 = Notes0 ),
    nb_setval(parley_evidence_moved, [Name-moved(Gone, Came) | Notes1]).

% cited_counts(:Cites, +Entries, -Cited): Id-N for each id the Entries of a model cite (each answer of call(Cites, Entry,
% Ids) a list of ids: an entry's samples, as its run gathers them), N the times they cite it, sorted by id: a conclusion's
% evidence kept with the model, so that a write's growth moves the counts of its touched entries' ids (cited_moved/8),
% where the evidence was gathered again from every entry after every write (thomas_kilmann's and french_raven's fits:
% 356k and 341k inferences at 1M facts), and an id leaves the evidence only when nothing cites it. The lists are counted
% as they come (msort/2 and clumped/2), not each entry's sorted first: a findall and a sort an entry cost french_raven's
% fresh run 400k inferences more at 1M facts. Kept in parts (parted_answer/2's list keyed by 1)
:- meta_predicate cited_counts(2, +, -), cited_moved(2, +, +, +, +, -, -, -).
cited_counts(Cites, Entries, Cited) :-
    findall(Ids, ( member(Entry, Entries), call(Cites, Entry, Ids) ), Lists), append(Lists, All), msort(All, Sorted),
    clumped(Sorted, Cited).

% cited_moved(:Cites, +KeyArg, +NewEntries, +Entries0, +Cited0, -Puts, -Gone, -Came): the counts of cited_counts/3 moved by
% a growth that puts NewEntries (sorted by their key, argument KeyArg) in place of those of the same keys in Entries0 and
% Cited0 (the answer's lists before the write, in parts or whole): each old entry's ids counted out (the old entries read
% by their keys: kept_keyed/4) and each new one's in; Puts the counts that moved, as replaced(Gone, Counts) (added_parts/4),
% Gone the ids no entry cites any more and Came those no entry cited before (sorted: note_evidence_moved/3's)
cited_moved(Cites, KeyArg, NewEntries, Entries0, Cited0, replaced(Gone, Counts), Gone, Came) :-
    findall(Key, ( member(Entry, NewEntries), arg(KeyArg, Entry, Key) ), Keys),
    kept_keyed(Entries0, KeyArg, Keys, OldEntries),
    findall(Id-Step, ( ( member(Entry, OldEntries), Step = -1 ; member(Entry, NewEntries), Step = 1 ),
                       call(Cites, Entry, Ids), member(Id, Ids) ), Steps0),
    keysort(Steps0, Steps), group_pairs_by_key(Steps, ById),
    findall(Id-D, ( member(Id-Ss, ById), sum_list(Ss, D), D =\= 0 ), Moves), pairs_keys(Moves, Ids),
    kept_keyed(Cited0, 1, Ids, Before),
    findall(Id-N0-N, ( member(Id-D, Moves), ( memberchk(Id-N0, Before) -> true ; N0 = 0 ), N is N0 + D ), Moved),
    findall(Id, member(Id-_-0, Moved), Gone),
    findall(Id, member(Id-0-_, Moved), Came),
    findall(Id-N, ( member(Id-_-N, Moved), N > 0 ), Counts).

% moves_tally_moved(+New, +Window, -Tally): the tally over New from a noted move (note_evidence_moved/3) and the tally
% kept over New less Came plus Gone (found by its slot's print). Checked whatever the note, by sizes of sets sorted in C
% (no scan of one list for each id of another, which could cost more than the count it saves): New and Gone make up a
% set of as many ids as both lists hold (Gone's ids each once and none in New), so do Came and Gone (none both), and so
% do the list before and Came, the same set (==/2); then the list before is New less Came plus Gone, and the tally
% theirs, as exact as counting it again
moves_tally_moved(New, Window, t(NC, NE, NR)) :-
    nb_current(parley_evidence_moved, Notes), member(_-moved(Gone, Came), Notes),
    length(New, N), length(Gone, G), length(Came, C),
    append(Gone, New, Both), sort(Both, Union), length(Union, U), U =:= N + G,
    append(Came, Gone, Moved), sort(Moved, MovedSet), length(MovedSet, CG), CG =:= C + G,
    M is U - C, M > 0,
    first_outside(Union, Came, First),
    strip_module(moves_tally, Module, _),
    memo_slot(Module, moves_tally(list(M, First), Window), Slot), memo_entries(Slot, Entries),
    member((Module:moves_tally(Old, W))-r(answer(t(NC0, NE0, NR0)), Reads), Entries), W == Window,
    length(Old, M), append(Came, Old, Joined), sort(Joined, Union), !,
    reads_add(Reads),
    moves_tally(Gone, Window, t(GC, GE, GR)), moves_tally(Came, Window, t(CC, CE, CR)),
    NC is NC0 - GC + CC, NE is NE0 - GE + CE, NR is NR0 - GR + CR.

% first_outside(+Ids, +Out, -First): the first of Ids not in Out
first_outside([Id | Ids], Out, First) :- ( memberchk(Id, Out) -> first_outside(Ids, Out, First) ; First = Id ).
