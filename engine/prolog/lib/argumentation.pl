% Contradictions weighed: which account stands when claims and events contradict each other.
% Loaded with conflict.pl into the helper library every rule module imports (engine/prolog/
% registry.ts); reads the graph through the bridge's predicates (lib/graph.pl).
%
% The arguments are the claims and events at an end of a CONTRADICTS edge (a node
% contradicting itself is no argument). A contradiction is mutual: each side attacks the
% other, whichever way the edge points. An attack of A on B succeeds (A defeats B) unless B is
% strictly preferred to A: B has more weight, weight being what its independent sources count
% for together. Its sources are those of its own provenance and of the claims and events that
% SUPPORT it (directly), one per publisher: a source that is a Document whose `source` is a
% URL counts as the URL's host (two reports of one outlet are one source), any other as
% itself; a record without provenance counts as one source of its own. A source counts for
% the `reliability` (a number from 0 to 1) of its Document where the graph gives one (for a
% publisher, its highest), else 1: a doubtful outlet rated 0.3 weighs less than an unrated one.
%
% The statuses are Dung's grounded semantics over the defeats (the least fixpoint, the most
% sceptical reading: Dung 1995; with preferences, Amgoud and Cayrol 2002):
%   accepted   in the grounded extension: every argument defeating it is rejected
%   rejected   defeated by an accepted argument
%   disputed   neither (undecided): e.g. two accounts that contradict each other with equal weight
% A claim or event no CONTRADICTS edge links has no status: nothing disputes it.
% Computed once per graph view (view_set/3) in time linear in the arguments and defeats,
% within the solve call's inference and time limits like every rule.

% argument_statuses(-Rows): [Id, Status, Weight, Sources] for each argument, sorted by Id; Weight
% as above, Sources the number of independent sources it counts (its own and its supporters')
argument_statuses(Rows) :-
    arg_weighed(w(Args, Statuses, Weights, _)),
    findall([Id, Status, Weight, Sources],
            ( member(Id, Args), get_assoc(Id, Statuses, Status), get_assoc(Id, Weights, Weight-Sources) ),
            Rows).

% claim_status(?Id, ?Status): the status of a claim or event a CONTRADICTS edge links (accepted,
% disputed or rejected); fails for one nothing contradicts
claim_status(Id, Status) :-
    arg_weighed(w(Args, Statuses, _, _)),
    (   nonvar(Id) -> get_assoc(Id, Statuses, Found), Status = Found
    ;   member(Id, Args), get_assoc(Id, Statuses, Status)
    ).

% rejected(+Id): Id is a claim or event the weighed evidence rejects
rejected(Id) :- claim_status(Id, rejected), !.

% disputed(?Id): Id is an account that neither stands nor falls on the evidence
disputed(Id) :- claim_status(Id, disputed).

% not_rejected(+Ids, -Kept): the ids of a list that are not rejected, in its order (findings
% should not rest on accounts the evidence rejects). Rules ask it of a few ids at a time, thousands
% of times an assess: a scan in C of the rejected ids while they are few, where a lookup of each id
% in the statuses' AVL tree took some ten inferences. The scan costs ids x rejected comparisons,
% quadratic on a graph whose contradictions reject thousands of accounts (fearon asks it 5,831
% times at 1M facts): past 32 of them each id is looked up in a trie of the rejected ones instead
% (two inferences, in C).
not_rejected(Ids, Kept) :-
    view_set(rejected_lookup, rejected_lookup, Lookup),
    (   Lookup == none -> Kept = Ids
    ;   Lookup = scan(Rejected) -> arg_kept(Ids, Rejected, Kept)
    ;   Lookup = trie(Trie), trie_kept(Ids, Trie, Kept)
    ).

% rejected_lookup(-Lookup): how not_rejected/2 finds the rejected ids, once per graph view: none when
% none is, scan(Rejected) while they are few, else trie(Trie)
rejected_lookup(Lookup) :-
    arg_weighed(w(_, _, _, Rejected)),
    (   Rejected == [] -> Lookup = none
    ;   length(Rejected, N), N =< 32 -> Lookup = scan(Rejected)
    ;   trie_new(Trie), forall(member(Id, Rejected), trie_insert(Trie, Id)), Lookup = trie(Trie)
    ).

arg_kept([], _, []).
arg_kept([Id | Ids], Rejected, Kept) :-
    ( atom(Id), memberchk(Id, Rejected) -> Kept = Rest ; Kept = [Id | Rest] ),
    arg_kept(Ids, Rejected, Rest).

trie_kept([], _, []).
trie_kept([Id | Ids], Trie, Kept) :-
    ( atom(Id), trie_lookup(Trie, Id, _) -> Kept = Rest ; Kept = [Id | Rest] ),
    trie_kept(Ids, Trie, Rest).

% arg_weighed(-w(Args, Statuses, Weights, Rejected)): the arguments (sorted), their statuses and
% their Weight-Sources, as assocs by id, and the rejected ones (sorted): once per graph view
arg_weighed(W) :- view_set(argumentation, arg_weigh, W).

arg_weigh(w(Args, Statuses, Weights, Rejected)) :-
    findall(X-Y, ( edge(_, 'CONTRADICTS', A, B, _), A \== B, ( X-Y = A-B ; X-Y = B-A ) ), Attacks0),
    sort(Attacks0, Attacks),
    findall(X, member(X-_, Attacks), Args0), sort(Args0, Args),
    findall(Id-(Weight-N), ( member(Id, Args), arg_weight(Id, Weight, N) ), WeightPairs),
    list_to_assoc(WeightPairs, Weights),
    include(arg_defeat(Weights), Attacks, Defeats),
    arg_grounded(Args, Defeats, Statuses),
    assoc_to_list(Statuses, Pairs), findall(Id, member(Id-rejected, Pairs), Rejected).

% statuses_may_move(+Added): a write (added(Nodes, Props, Edges), the flat lists of lib/graph.pl grown/3) may move the
% statuses: it adds a CONTRADICTS or SUPPORTS edge, or a Document that is some argument's source (its reliability and
% its URL's host weigh the argument: arg_weight/3). A growth that reads the statuses (not_rejected/2) fails then, its
% set found again whole. Only a Document whose id a provenance names counts: the ingest adds one for every document
% it reads, and most are sources of no argument. A Document rewritten (its reliability changed) replaces a record,
% which has every answer found again (engine/store/graph-changes.ts addedSince)
statuses_may_move(added(Nodes, _, Edges)) :- ( weighed_edge_added(Edges) -> true ; source_document_added(Nodes) ).

weighed_edge_added([_, Type, _, _, _, _ | Rest]) :- ( memberchk(Type, ['CONTRADICTS', 'SUPPORTS']) -> true ; weighed_edge_added(Rest) ).

source_document_added([Id, Label | Rest]) :- ( Label == 'Document', argument_source(_, Id) -> true ; source_document_added(Rest) ).

% arg_defeat(+Weights, +A-B): the attack of A on B succeeds: B is not strictly preferred to A
arg_defeat(Weights, A-B) :-
    get_assoc(A, Weights, WA-_), get_assoc(B, Weights, WB-_),
    \+ WB > WA + 1.0e-9.

% arg_weight(+Id, -Weight, -N): what Id's independent sources count for together, and how many they are
arg_weight(Id, Weight, N) :-
    findall(S, ( arg_sources_of(Id, S) ; edge(_, 'SUPPORTS', X, Id, _), X \== Id, arg_sources_of(X, S) ), Sources),
    findall(P-R, ( member(S, Sources), arg_publisher(S, P), arg_reliability(S, R) ), Rated0),
    sort(Rated0, Rated),
    arg_best_per_publisher(Rated, Best),
    length(Best, N),
    sum_list(Best, Weight).

% arg_sources_of(+Id, -Source): the sources of a node's provenance; the node itself when it has none
arg_sources_of(Id, Source) :- ( argument_source(Id, _) -> argument_source(Id, Source) ; Source = Id ).

% arg_publisher(+Source, -Publisher): a document of a URL source counts as its host, anything else as itself
arg_publisher(Source, Publisher) :-
    (   node(Source, 'Document'), prop(Source, source, Url), atom(Url), arg_host(Url, Host) -> Publisher = Host
    ;   atom(Source), arg_host(Source, Host) -> Publisher = Host
    ;   Publisher = Source
    ).

% arg_host(+Url, -Host): the host of a URL, lower case, without a leading www.
arg_host(Url, Host) :-
    sub_atom(Url, Before, 3, _, '://'), Before > 0, !,
    Start is Before + 3, sub_atom(Url, Start, _, 0, Rest),
    ( sub_atom(Rest, End, _, _, '/') -> sub_atom(Rest, 0, End, _, H0) ; H0 = Rest ),
    H0 \== '', downcase_atom(H0, H1),
    ( atom_concat('www.', H2, H1) -> Host = H2 ; Host = H1 ).

% arg_reliability(+Source, -R): the reliability of a source's Document (0..1) when the graph rates it, else 1
arg_reliability(Source, R) :-
    (   node(Source, 'Document'), prop(Source, reliability, R0), number(R0), R0 >= 0, R0 =< 1 -> R = R0
    ;   R = 1
    ).

% arg_best_per_publisher(+Sorted, -Reliabilities): the highest reliability of each publisher (the
% Publisher-R pairs sorted, so a publisher's highest is its last)
arg_best_per_publisher([], []).
arg_best_per_publisher([P-_, P2-R2 | Rest], Best) :- P == P2, !, arg_best_per_publisher([P2-R2 | Rest], Best).
arg_best_per_publisher([_-R | Rest], [R | Best]) :- arg_best_per_publisher(Rest, Best).

% arg_grounded(+Args, +Defeats, -Statuses): the grounded labelling (Modgil and Caminada 2009), in
% one pass: an argument goes in once every argument defeating it is out, and each argument an in
% one defeats goes out; what neither reaches is undecided (disputed)
arg_grounded(Args, Defeats, Statuses) :-
    findall(B-A, member(A-B, Defeats), ByTarget0), keysort(ByTarget0, ByTarget), group_pairs_by_key(ByTarget, Defeaters),
    keysort(Defeats, ByAttacker), group_pairs_by_key(ByAttacker, Defeated),
    list_to_assoc(Defeated, DefeatsOf),
    arg_counts(Args, Defeaters, CountPairs, Unattacked), list_to_assoc(CountPairs, Counts),
    empty_assoc(Labels0),
    arg_label_in(Unattacked, DefeatsOf, Counts, Labels0, Labels),
    assoc_to_list(Labels, Labelled), arg_statuses(Args, Labelled, Pairs),
    list_to_assoc(Pairs, Statuses).

% arg_counts(+Args, +Defeaters, -Counts, -Unattacked): A-N for each argument, N the number of its defeaters, and
% the arguments none defeats, in the order of Args: one walk of Args beside Defeaters (B-As by B, both sorted), where
% an assoc of zeros updated per argument defeated and a lookup of each argument took some 40 inferences an argument
arg_counts([], _, [], []).
arg_counts([A | Args], Defeaters, [A-N | Counts], Unattacked) :-
    (   Defeaters = [B-As | Rest], B == A
    ->  length(As, N), Unattacked = More, arg_counts(Args, Rest, Counts, More)
    ;   N = 0, Unattacked = [A | More], arg_counts(Args, Defeaters, Counts, More)
    ).

% arg_statuses(+Args, +Labelled, -Statuses): A-Status for each argument, from the A-Label pairs of those labelled
% (both lists sorted), disputed for the others: one walk of the two
arg_statuses([], _, []).
arg_statuses([A | Args], Labelled, [A-S | Statuses]) :-
    (   Labelled = [B-L | Rest], B == A
    ->  arg_status(L, S), arg_statuses(Args, Rest, Statuses)
    ;   S = disputed, arg_statuses(Args, Labelled, Statuses)
    ).

arg_status(in, accepted).
arg_status(out, rejected).

% arg_label_in(+Queue, +DefeatsOf, +Counts, +Labels0, -Labels): labels the queued arguments in,
% what they defeat out, and queues what the outs free (its count of defeaters not out falls to 0)
arg_label_in([], _, _, Labels, Labels).
arg_label_in([A | Queue], DefeatsOf, Counts, Labels0, Labels) :-
    (   get_assoc(A, Labels0, _)
    ->  arg_label_in(Queue, DefeatsOf, Counts, Labels0, Labels)
    ;   put_assoc(A, Labels0, in, Labels1),
        ( get_assoc(A, DefeatsOf, Targets) -> true ; Targets = [] ),
        arg_label_out(Targets, DefeatsOf, Counts, Counts1, Labels1, Labels2, Freed),
        append(Freed, Queue, Queue1),
        arg_label_in(Queue1, DefeatsOf, Counts1, Labels2, Labels)
    ).

arg_label_out([], _, Counts, Counts, Labels, Labels, []).
arg_label_out([B | Bs], DefeatsOf, Counts0, Counts, Labels0, Labels, Freed) :-
    (   get_assoc(B, Labels0, _)
    ->  Counts1 = Counts0, Labels1 = Labels0, Freed0 = []
    ;   put_assoc(B, Labels0, out, Labels1),
        ( get_assoc(B, DefeatsOf, Cs) -> true ; Cs = [] ),
        foldl(arg_release, Cs, Counts0-[], Counts1-Freed0)
    ),
    arg_label_out(Bs, DefeatsOf, Counts1, Counts, Labels1, Labels, Freed1),
    append(Freed0, Freed1, Freed).

% arg_release(+C, +Counts0-Freed0, -Counts-Freed): one of C's defeaters went out
arg_release(C, Counts0-Freed0, Counts-Freed) :-
    get_assoc(C, Counts0, N0), N is N0 - 1, put_assoc(C, Counts0, N, Counts),
    ( N =:= 0 -> Freed = [C | Freed0] ; Freed = Freed0 ).
