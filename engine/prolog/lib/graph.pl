% The graph predicates every rule module reads the graph through (frameworks/README.md
% lists them). engine/prolog/bridge.ts loads this file once per engine, into module
% user, which every rule module inherits from, and before each solve call makes the g_*
% facts below hold the records of the call's graph view: all of them when the view is
% new, only the records added since when the graph has only grown (parley_add_view/11), only
% the records taken out when the valid-time cut moved earlier or a view without one is cut
% (parley_remove_view/7).
% The set predicates do over those facts what a rule would otherwise spell out as a
% findall and a sort; their results are sorted and duplicate-free.
%
%   g_node(Id, Label)               one per label of a node in the view
%   g_prop(Id, Key, Value)          node properties (no null values); prop/3 with the id
%                                   unbound and a key and value given reads only these
%   g_eprop(Id, Key, Value)         edge properties
%   g_edge(Id, Type, From, To, Confidence, Role)
%                                   Role: the edge's role property when it is text, else []
%                                   (the edge's role is then participant); in the edge's own fact,
%                                   read where the edge is found, not looked up again by its id
%   g_valid(Id, Date, Days)         a node's valid time, 'YYYY-MM-DD', and the same as days since
%                                   1970-01-01, read from the node's first g_node fact in the slot (below)
%   g_text(Id, Lower)               a node's text (else label) in lower case, but where
%                                   g_text_in_props holds and node_text/2 reads it back from g_prop
%   g_text_in_props                 g_text leaves out the texts of ASCII only that are no other value as an atom
%                                   (not true, false, nor one that begins with {, as an object's JSON does:
%                                   bridge.ts textReadBackFromProps)
%   g_ref(Date, Days)               the reference date, when there is one, and its days
%   g_mention(Word, Id)             node Id's text contains Word, one of the keywords the rule
%                                   modules declare (keywords/2 facts) or the name of a node of
%                                   a label they declare (name_keywords/1): the text index the
%                                   bridge builds when it hands the view over (text-index.ts)
%   g_named(Word)                   Word is the name of a node of a name_keywords label: g_mention
%                                   covers it in this view
%   g_memo(Slot)                    a global variable holding view_memo/3 answers of this view
%   g_source(Id, Source)            a source of node Id's provenance (document id, else source),
%                                   for the nodes at an end of a CONTRADICTS or SUPPORTS edge
% and, for as long as the engine runs (not per view):
%   g_indexed(Word)                 Word is a declared keyword: g_mention covers it
%
% The engine holds the facts of several views at once, each view's in a module of its own (a view
% slot, named by the bridge): the g_* predicates above, in module user, each hold one clause that
% forwards to the active slot's facts (parley_use_view/1). Switching views rewrites those clauses
% (microseconds), where handing a view over again costs about a second of a core at 100k facts; each
% slot keeps its own clause indexes. The writers below assert into, and retract from, the active slot.
% A slot holds g_node and g_valid together, as g_node(Id, Label, Valid): Valid is v(Date, Days) in the
% node's first fact when it has a valid time, else []. A clause costs some 100 bytes of the engine's
% memory whatever it holds, and each clause index 20 more a clause and 24 a hash bucket (bench/handover.ts):
% a g_valid fact of its own, looked up by the node's id through an index of its own, took some 153 bytes
% a dated node (19.5 bytes a fact of the 1M-fact conflict graph), where v(Date, Days) in the node's fact
% takes 24.

:- dynamic g_node/2, g_prop/3, g_eprop/3, g_edge/6, g_valid/3, g_text/2, g_text_in_props/0, g_ref/2, g_mention/2, g_named/1, g_indexed/1, g_memo/1, g_source/2.
% g_memo_used(Slot, Generation): the last generation (memo_sweep/0) in which a view_memo/3 answer of Slot was
% computed or found (global: a slot's name holds its view)
:- dynamic g_memo_used/2.

% view_fact(?Head): the per-view facts each slot holds
view_fact(g_node(_, _, _)).  view_fact(g_prop(_, _, _)).       view_fact(g_eprop(_, _, _)).
view_fact(g_edge(_, _, _, _, _, _)).
view_fact(g_text(_, _)).     view_fact(g_ref(_, _)).           view_fact(g_mention(_, _)).
view_fact(g_named(_)).       view_fact(g_memo(_)).             view_fact(g_source(_, _)).
view_fact(g_text_in_props).

% view_reader(?Head, +Slot, -Body): module user's g_* predicate Head, reading Slot's facts by Body. The valid time
% is taken from the node's facts looked up by the id alone: with the third argument bound too, SWI-Prolog would
% weigh an index of both arguments at each call (above)
view_reader(g_node(Id, Label), Slot, Slot:g_node(Id, Label, _)).
view_reader(g_valid(Id, Date, Days), Slot, ( Slot:g_node(Id, _, Valid), Valid = v(Date, Days) )).
view_reader(Head, Slot, Slot:Head) :- view_fact(Head), Head \= g_node(_, _, _).

% parley_use_view(+Slot): the g_* predicates read Slot's facts from now on; tabled answers (of the last
% active view) are dropped when the slot changes. A slot used for the first time holds no facts.
parley_use_view(Slot) :-
    (   nb_current(parley_view, Slot) -> true
    ;   view_slot(Slot),
        forall(view_reader(Head, Slot, Body), ( retractall(Head), assertz((Head :- Body)) )),
        nb_setval(parley_view, Slot),
        abolish_all_tables
    ).

% view_slot(+Slot): Slot's g_* predicates exist (dynamic), so that a hand-over may fill them before it is used
view_slot(Slot) :- forall(view_fact(Head), ( functor(Head, Name, Arity), dynamic(Slot:Name/Arity) )).

% active_view(-Slot): the slot the g_* predicates read
active_view(Slot) :- nb_getval(parley_view, Slot).
% parley_unreported(Module): a rule module whose text names g_* facts, read past the notes of read_note/1
% (engine/prolog/bridge.ts consult): none of its answers is kept across a write
:- dynamic parley_unreported/1.

% Every g_* fact is looked up with one argument bound, the most selective one the call
% has, and the other arguments are compared after. SWI-Prolog builds a just-in-time index
% on the bound argument the first time; a call with two bound arguments of a dynamic
% predicate has it assess and rebuild a combined index over all its clauses, again and
% again (half a second a call at 100k facts).

% Each of them notes what it reads that records added to the view could change (read_note/1): a
% lookup by the id of a record the view holds reads nothing an addition changes, the enumerations
% and the walks along edges do.
node(Id, Label) :- nonvar(Id), !, ( g_node(Id, L) *-> L = Label ; read_note(label(any)), fail ).
node(Id, Label) :- label_read(Label), g_node(Id, Label).

prop(Id, Key, Value) :- nonvar(Id), !, ( g_prop(Id, K, V) ; g_eprop(Id, K, V) ), K = Key, V = Value.
prop(Id, Key, Value) :- atom(Key), nonvar(Value), !, read_note(label(any)), g_prop(Id, K, Value), K == Key.
prop(Id, Key, Value) :- read_note(label(any)), read_note(type(any)), ( g_prop(Id, Key, Value) ; g_eprop(Id, Key, Value) ).

edge(Id, Type, From, To, Confidence) :- nonvar(Id), !, g_edge(Id, T, F, D, C, _), T = Type, F = From, D = To, C = Confidence.
edge(Id, Type, From, To, Confidence) :- nonvar(To), !, type_read(Type), g_edge(I, T, F, To, C, _), T = Type, F = From, I = Id, C = Confidence.
edge(Id, Type, From, To, Confidence) :- nonvar(From), !, type_read(Type), g_edge(I, T, From, D, C, _), T = Type, D = To, I = Id, C = Confidence.
edge(Id, Type, From, To, Confidence) :- type_read(Type), g_edge(Id, Type, From, To, Confidence, _).

valid_time(Id, Date) :- ( var(Id) -> read_note(label(any)) ; true ), g_valid(Id, Date, _).
% valid_days(?Id, ?Days): a node's valid time as days since 1970-01-01 (date_days/2 of its date)
valid_days(Id, Days) :- ( var(Id) -> read_note(label(any)) ; true ), g_valid(Id, _, Days).

reference_date(Date) :- read_note(ref), g_ref(Date, _).

% argument_source(?Id, ?Source): held for the claims and events a CONTRADICTS or SUPPORTS edge links
% (an edge added may give a node the view held its sources)
argument_source(Id, Source) :- read_note(source), g_source(Id, Source).

label_read(Label) :- ( atom(Label) -> read_note(label(Label)) ; read_note(label(any)) ).
type_read(Type) :- ( atom(Type) -> read_note(type(Type)) ; read_note(type(any)) ).

% nodes_where(+Label, ?Key, ?Value, -Ids): memoised for the view (view_memo/3), so that a set the rules of several
% frameworks read (the claims, the claims of a type) is collected once per graph view
nodes_where(Label, Key, Value, Ids) :- must_be(atom, Label), view_memo(nodes_where(Label, Key, Value), Found, nodes_where_(Label, Key, Value, Found)), Ids = Found.
nodes_where_(Label, Key, Value, Ids) :-
    read_note(label(Label)),
    (   atom(Key), nonvar(Value)
    ->  findall(Id, (g_prop(Id, K, Value), K == Key, g_node(Id, L), L == Label), Found)
    ;   findall(Id, g_node(Id, Label), Found)
    ),
    sort(Found, Ids).

% nodes_by_value_(+Label, +Key, -Values): the values Key takes on the nodes of Label (sorted), each value's nodes
% kept for the view as nodes_where(Label, Key, Value, Ids) finds them: read in one walk of the nodes of Label (three
% or four inferences a node), where finding the values with prop/3 and then each value's nodes took some eleven (1.4M of
% the 6.9M inferences of warm_view_sets/0 at 1M facts, for the claim and event types). The values are kept by
% lib/conflict.pl's nodes_by_value/3, which a write grows (added_values/5). The key is compared after the
% lookup by the node, as prop/3 does: bound in the call, it had SWI-Prolog build another index of the properties
% (2.8 s of CPU at 1M facts, against 0.5 s).
nodes_by_value_(Label, Key, Values) :-
    nodes_where(Label, _, _, Ids),
    findall(Value-Id, ( member(Id, Ids), g_prop(Id, K, Value), K == Key ), Found), sort(Found, Pairs),
    group_pairs_by_key(Pairs, Groups), pairs_keys(Groups, Values),
    forall(member(Value-Held, Groups), view_memo(nodes_where(Label, Key, Value), Kept, nodes_held(Label, Held, Kept))).

% nodes_held(+Label, +Ids, -Ids): Ids, read as nodes_where_/4 reads the nodes of Label
nodes_held(Label, Ids, Ids) :- read_note(label(Label)).

% view_memo(+Key, ?Value, :Goal): Value as the first answer of Goal computes it, once per graph
% view: Goal's answer (or its failure) is kept under Key (a term, its variables compared as a
% variant) until the view changes. A table would do the same, but each call of a tabled
% predicate copies its answer out of the table and walks a list argument through the trie:
% about 9 ms for a list of 40k ids in swipl-wasm. The answers are kept as records instead, a
% slot's read once a query (memo_entries/2), found by a fingerprint of Key (a list argument
% stands for its length and first element) and compared with Key in C.
% Keys are per module (two rule modules may use the same Key) and per view slot.
% Each answer is kept with what Goal read (read_note/1), the reads of the answers it found kept
% included, and what reads it is added to the reads of the answer being computed around it, if
% any: a write drops only the answers whose reads it changes (parley_add_view/11).
:- meta_predicate view_memo(?, ?, 0).
% While a write's answers are grown or dropped (growing/1), none is read or kept: a module's added_answer/4 that
% asks for one would find an answer from before the write, not yet grown (or about to be dropped).
view_memo(_, _, Goal) :- nb_current(parley_growing, true), !, once(Goal).
view_memo(Key, Value, Goal) :-
    strip_module(Goal, Module, _),
    memo_slot(Module, Key, Slot),
    (   memo_entries(Slot, Entries), memo_entry(Entries, Module:Key, r(Found, Reads))
    ->  reads_add(Reads)
    ;   reads_of(( call(Goal) -> Found = answer(Value) ; Found = failed ), Reads),
        listed_entries(Slot, Old),
        memo_store(Slot, [(Module:Key)-r(Found, Reads)|Old])
    ),
    memo_used(Slot),
    Found = answer(Value).

% The answers are kept as records (the recorded database, under the slot's name), off the global stack: held
% there, in global variables, every answer of the view sat below each query's work, and the stack grew by doubling
% to hold them all (1.1 GB of WebAssembly memory for one engine at 1M facts after an assess, never given back). A
% query reads a slot's answers from its record once (a copy) and then from a global variable linking that copy, so
% that rules reading a kept set in a loop copy it once (memo_entries/2), until a call of another module
% (memo_reader/1) or a write lets the copies go. Records, not clauses: a record is stored without being compiled
% and erased by its reference without being copied back (a clause was retracted by matching its head, which
% builds the whole answer on the global stack), so that a write replacing its grown answers costs about what
% it did with global variables (docs/operations.md, "The kept sets").
% g_kept(Slot, Ref): the reference of Slot's record, one a slot.
:- dynamic g_kept/2.
% g_kept_summary(Slot, s(Reads, Modules, Listed, Count, Parts)): what a write asks of Slot's answers without copying
% them: the sorted union of what they read (any for indexed_words/1's, which a write reads otherwise: read_unchanged/2),
% their modules, the lists of its answers a write may regrow, by their prints (listed_item/2), how many there are, and
% the references of the part records its answers kept in parts hold (answers kept in parts, below)
:- dynamic g_kept_summary/2.

% memo_entries(+Slot, -Entries): the answers kept in Slot, Module:Key-r(Found, Reads); fails when it holds none
memo_entries(Slot, Entries) :-
    (   nb_current(Slot, Held) -> Entries = Held
    ;   g_kept(Slot, Ref), instance(Ref, Record),
        ( Record = parted(Shaped) -> entries_joined(Shaped, Kept) ; Kept = Record ),
        % linked, not copied again: the record's copy is built fresh here, so no binding in it was trailed
        nb_linkval(Slot, Kept),
        % the list of slots read is copied (nb_setval/2), not linked: a copy freezes the global stack, which keeps the
        % copy linked above from being taken back when the caller backtracks (forall/2 at a write); a linked list of
        % slots read inside forall/2 came out cyclic. The copy costs a cell a slot read: some 500 slots at 1M facts
        ( nb_current(parley_memo_read, Read) -> true ; Read = [] ),
        nb_setval(parley_memo_read, [Slot|Read]),
        Entries = Kept
    ).

% kept_copy(+Slot, -Entries): the answers kept in Slot as a write reads them, once each: the query's copy if one is
% held (memo_entries/2), else a copy that no global variable links, so that the write's step that read it takes it
% back when it backtracks (forall/2) and a garbage collection when it no longer holds it. A copy linked for the
% query's later reads stays to the write's end, the global stack frozen under it: at 1M facts, the slots an
% ingest-like write read grew the global stack from 64 to 128 MB, and the next write's sweep to 256 MB. Fails when
% the slot holds none. An answer kept in parts comes as its shape (parted/1: its parts' references), not as the query's
% copy, which holds it joined: a write grows it by the parts its entries fall in.
kept_copy(Slot, Entries) :-
    (   nb_current(Slot, Held), \+ g_kept_summary(Slot, s(_, _, _, _, [_|_])) -> Entries = Held
    ;   g_kept(Slot, Ref), instance(Ref, Record), ( Record = parted(Shaped) -> Entries = Shaped ; Entries = Record )
    ).

% slot_entries(+Slot, -Entries): kept_copy/2, [] when the slot holds none: a slot the view lists (g_memo/1)
% may hold no record, its store or drop cut short by a limit (memo_store/2)
slot_entries(Slot, Entries) :- ( kept_copy(Slot, Held) -> Entries = Held ; Entries = [] ).

% listed_entries(+Slot, -Entries): slot_entries/2 of a slot about to keep an answer, which the active view lists
% (g_memo/1) once: a slot with no record may be listed already, its store cut short
listed_entries(Slot, Entries) :-
    (   kept_copy(Slot, Held) -> Entries = Held
    ;   Entries = [], active_view(View),
        ( View:g_memo(Slot) -> true ; assertz(View:g_memo(Slot)) )
    ).

% memo_store(+Slot, +Entries): Slot keeps Entries (a copy, as a record), in place of what it held. A limit (of
% inferences or time) may cut it at any step, so the summary goes first and comes back last: a slot holds either
% its answers and their summary, or no summary (the writes then read its answers: slot_unchanged/2,
% listed_to_read/6), and no copy of answers it no longer holds (memo_entries/2). An answer in parts (parted/1, from
% grown/3) has its new parts recorded first, then the slot's record, then the parts it no longer holds erased: a part
% is never erased while a record holds its reference, and a cut leaves the slot without its summary, the next store
% or drop erasing every record under the slot's name that the answers it keeps do not hold (kept_erase/3).
memo_store(Slot, Entries) :-
    memo_summary(Entries, s(Reads, Modules, Listed, Count, Parts), Parted),
    memo_unread(Slot),
    ( retract(g_kept_summary(Slot, s(_, _, _, _, Old))) -> true ; Old = unknown ),
    (   Parted == false -> Record = Entries, Parts = []
    ;   maplist(entry_recorded(Slot), Entries, Stored), Record = parted(Stored), shaped_parts(Stored, Parts)
    ),
    kept_erase(Slot, Old, Parts), recordz(Slot, Record, Ref), assertz(g_kept(Slot, Ref)),
    ( Old == unknown -> true ; Old == [] -> true ; parts_released(Old, Parts) ),
    assertz(g_kept_summary(Slot, s(Reads, Modules, Listed, Count, Parts))).

% kept_erase(+Slot, +Old, +Keep): Slot's record erased, Old the parts its summary held (unknown: no summary). A slot
% with no summary is new, or its store or drop was cut short by a limit: a record the cut left without its reference
% (between recordz/3 and the assertion of g_kept/2, or between the retraction and the erasure), and a part no answer
% holds, are found under the slot's name (a copy of each, but only after such a cut: a new slot has no record), all
% but the parts of Keep, which the record about to be stored holds
kept_erase(Slot, Old, Keep) :-
    (   Old == unknown -> retractall(g_kept(Slot, _)), forall(recorded(Slot, _, Ref), ( memberchk(Ref, Keep) -> true ; erase(Ref) ))
    ;   retract(g_kept(Slot, Ref)) -> erase(Ref)
    ;   true
    ).

% most slots hold one answer: its reads summed up in C (a step of Prolog per read was most of the summary's cost)
% memo_summary(+Entries, -Summary, -Parted): Summary but its parts (memo_store/2 records them); Parted whether an
% answer is kept in parts
memo_summary([Entry], s(Reads, [Module], Listed, 1, _), Parted) :- !,
    Entry = (Module:_)-r(Found, Read),
    ( Found = parted(_) -> Parted = true ; Parted = false ),
    ( \+ \+ Entry = (user:indexed_words(_))-_ -> Reads = any ; sort(Read, Reads) ),
    ( listed_item(Entry, Item) -> Listed = [Item] ; Listed = [] ).
memo_summary(Entries, s(Reads, Modules, Listed, Count, _), Parted) :-
    ( memberchk(_-r(parted(_), _), Entries) -> Parted = true ; Parted = false ),
    (   memberchk((user:indexed_words(_))-_, Entries) -> Reads = any
    ;   findall(R, ( member(_-r(_, Rs), Entries), member(R, Rs) ), All), sort(All, Reads)
    ),
    findall(M, member((M:_)-_, Entries), Ms), sort(Ms, Modules),
    convlist(listed_item, Entries, Listed),
    length(Entries, Count).

% memo_delete(+Slot): Slot keeps no answers
memo_delete(Slot) :-
    memo_unread(Slot),
    ( retract(g_kept_summary(Slot, s(_, _, _, _, Old))) -> true ; Old = unknown ),
    kept_erase(Slot, Old, []),
    ( Old == unknown -> true ; Old == [] -> true ; parts_released(Old, []) ).

% memo_unread(+Slot): the query's copy of Slot's answers, if any, let go (the next read copies the record)
memo_unread(Slot) :- ( nb_current(Slot, _) -> nb_delete(Slot) ; true ).

% memo_reader(+Module): the copies of kept answers that the calls of another module read let go: a framework's
% run is several calls of its module, which read the same sets (a copy each call cost fearon's run after a write
% 2.7 times its CPU at 100k facts), and the copies one run holds are the most the global stack keeps between calls
memo_reader(Module) :- ( nb_current(parley_memo_reader, Module) -> true ; memo_reads_done, nb_setval(parley_memo_reader, Module) ).

% memo_reads_done: the copies of kept answers read so far let go
memo_reads_done :-
    (   nb_current(parley_memo_read, Read)
    ->  forall(member(Slot, Read), memo_unread(Slot)), nb_setval(parley_memo_read, [])
    ;   true
    ).

% memo_used(+Slot): Slot's answers were asked for in this generation (memo_sweep/0 keeps them)
memo_used(Slot) :-
    ( nb_current(parley_memo_generation, G) -> true ; G = 0 ),
    (   g_memo_used(Slot, U) -> ( U == G -> true ; retract(g_memo_used(Slot, U)), assertz(g_memo_used(Slot, G)) )
    ;   assertz(g_memo_used(Slot, G))
    ).

% ---- what an answer read ---------------------------------------------------
% While view_memo/3 computes an answer, the global variable parley_reads holds the sorted list of
% what it has read so far that records added to the view could change, else it is none:
%   label(L), label(any)   the nodes of label L, of any label, were enumerated (or an id that was
%                          not a node looked up: an addition may make it one)
%   type(T), type(any)     edges of type T, of any type, were walked (from or to a node, or all)
%   mention(W)             the ids whose text contains W were read from the text index
%   named                  (no set notes it) new node names the index covers: indexed_words/1's
%                          answers change
%   ref                    the reference date
%   source                 the provenance sources of arguments (argument_source/2)
% A node's or an edge's own facts, read by its id, never change by an addition (parley_add_view/11
% adds new records only, and an edge's ends are nodes of the graph), so those reads are not noted.

% read_note(+Read): Read noted for the answer being computed, if any (memberchk/2 and sort/2 work
% in C: a set may have noted hundreds of words)
read_note(Read) :-
    (   nb_current(parley_reads, Reads), Reads \== none, \+ memberchk(Read, Reads)
    ->  sort([Read|Reads], More), nb_setval(parley_reads, More)
    ;   true
    ).

% reads_add(+Reads): the reads of an answer found, added to those of the answer being computed (a
% step of Prolog per read found, the rest in C: a rule finds kept answers in loops)
reads_add(Reads) :-
    (   Reads \== [], nb_current(parley_reads, Current), Current \== none
    ->  append(Reads, Current, All), sort(All, More),
        ( More == Current -> true ; nb_setval(parley_reads, More) )
    ;   true
    ).

% reads_of(:Goal, -Reads): calls Goal once, and what it read; the reads count for the answer being
% computed around it too (also when Goal throws: a rule may catch it)
reads_of(Goal, Reads) :-
    ( nb_current(parley_reads, Outer) -> true ; Outer = none ),
    nb_setval(parley_reads, []),
    catch(Goal, Error, true),
    nb_getval(parley_reads, Reads),
    nb_setval(parley_reads, Outer),
    reads_add(Reads),
    ( var(Error) -> true ; throw(Error) ).

% view_set(+Key, :Compute, -Value): Value as call(Compute, V) computes it, once per graph view, kept
% under Key (view_memo/3: read again without the copy a table makes). Compute is called with a
% fresh variable and Value unified after, so that a caller passing a bound Value (a test, "is the
% set empty?") never has its guess computed, or its failure kept, as the answer for the whole view.
:- meta_predicate view_set(?, 1, ?).
view_set(Key, Compute, Value) :- strip_module(Compute, Module, Closure), view_memo(Key, Found, Module:call(Closure, Found)), Value = Found.

memo_slot(Module, Key, Slot) :-
    Key =.. [Name|Args],
    maplist(memo_print, Args, Prints),
    Print =.. [Name|Prints],
    nb_getval(parley_view, View), % (active_view/1 inlined: the inference view_memo/3's growing check costs)
    ( ground(Print) -> term_hash(Module-Print, Hash) ; variant_sha1(Module-Print, Hash) ),
    % the view in the name itself, not only in the hash: the entries are compared by Module:Key alone, so two
    % views whose hashes met would read each other's answers
    atomic_list_concat(['$parley_memo_', View, '_', Hash], Slot).

memo_print(Arg, Print) :- ( is_list(Arg), Arg = [First|_] -> length(Arg, N), Print = list(N, First) ; Print = Arg ).

% == first: twice as fast as =@= on a ground key (a list of ids), which most keys are
memo_entry([K-F|Rest], Key, Found) :- ( ( K == Key -> true ; K =@= Key ) -> Found = F ; memo_entry(Rest, Key, Found) ).

% text_mentions(+Id, +Keywords, -Keyword): the first keyword the node's text contains.
text_mentions(Id, Keywords, Keyword) :-
    must_be(atom, Id),
    node_text(Id, Lower),
    is_list(Keywords),
    member(Keyword, Keywords),
    atom(Keyword),
    sub_atom(Lower, _, _, _, Keyword),
    !.

% node_text(+Id, -Lower): node Id's text (else label) in lower case: its g_text fact, else, where the view leaves
% those of ASCII only out (g_text_in_props), its property lowered; the other values a property takes as an atom
% (true, false, an object's JSON) are no text, and the bridge never leaves out a text that is one of them
node_text(Id, Lower) :- g_text(Id, Lower), !.
node_text(Id, Lower) :-
    g_text_in_props,
    ( g_prop(Id, text, Text) -> true ; g_prop(Id, label, Text) ),
    atom(Text), Text \== true, Text \== false, \+ sub_atom(Text, 0, 1, _, '{'),
    downcase_atom(Text, Lower).

% filter_ids(+Ids, +Condition, -Kept)
filter_ids(Ids, Condition, Kept) :-
    ( is_list(Ids) -> true ; must_be(list, Ids) ),
    ( nonvar(Condition) -> true ; must_be(nonvar, Condition) ),
    (   shared_set(Ids), ground(Condition) -> view_memo(filter_ids(Ids, Condition), Found, filter_ids_(Ids, Condition, Found)), Kept = Found
    ;   filter_ids_(Ids, Condition, Kept)
    ).

% shared_set(+Ids): a list long enough that a set predicate's answer over it is kept for the
% rest of the view (view_memo/3): the frameworks of one assess ask for the same large sets (the
% claims, the events of a type, the current ones) again and again
shared_set(Ids) :- length(Ids, N), N >= 64.

filter_ids_(Ids, Condition, Kept) :-
    (   Condition = mentions(Keywords), indexed_words(Keywords)
    ->  kept_in(Ids, Keywords, Kept)
    ;   Condition = window(From, To), number(From), number(To)
    ->  reference_days(Ref), in_window(Ids, From, To, Ref, Kept)
    ;   Condition = current(Within), number(Within)
    ->  reference_days(Ref), current_in(Ids, Within, Ref, Kept)
    ;   Condition = prop(Key, Value), atom(Key)
    ->  prop_in(Ids, Key, Value, Kept)
    ;   Condition = kind(Label), atom(Label)
    ->  kind_in(Ids, Label, Kept)
    ;   condition(Condition)
    ->  resolved(Condition, Test), include(keeps(Test), Ids, Kept)
    ;   domain_error(filter_condition, Condition)
    ).

% indexed_words(+Keywords): a list of words every one of which the text index covers (declared
% keywords, names of nodes of name_keywords labels); a mentions condition on other words scans
% the texts of the ids instead. Memoised, as a rule asks it again with the same list per actor. The
% answer decides only how a filter finds its ids, not which (the scan finds what the index holds),
% so it notes no read (a set filtered through it reads nothing of it); a write that indexes new
% names drops it (read_unchanged/2)
indexed_words(Keywords) :- is_list(Keywords), Keywords \== [], view_memo(indexed_words(Keywords), yes, indexed_words_(Keywords)).
indexed_words_(Keywords) :- forall(member(W, Keywords), indexed_word(W)).
indexed_word(W) :- atom(W), ( g_indexed(W) -> true ; g_named(W) ).

% mentioned_by(+Keywords, -Mentioned): the sorted ids whose text contains one of Keywords
% (memoised: a framework's word list is asked for again by its indicators, its findings and per
% actor), and mentioned_trie/2 the same in a trie, for a lookup per id in C
mentioned_by(Keywords, Ids) :- view_set(mentioned_by(Keywords), mentioned_by_(Keywords), Ids).
mentioned_by_(Keywords, Ids) :-
    findall(mention(W), member(W, Keywords), Reads), sort(Reads, Noted), reads_add(Noted), % at once: a rule may ask for every place name
    findall(Id, ( member(W, Keywords), g_mention(W, Id) ), Found), sort(Found, Ids).
mentioned_trie(Keywords, Trie) :- view_set(mentioned_trie(Keywords), mentioned_trie_(Keywords), Trie).
mentioned_trie_(Keywords, Trie) :- mentioned_by(Keywords, Ids), trie_new(Trie), forall(member(Id, Ids), trie_insert(Trie, Id)).

% mentioning_each(+Ids, +Words, -Pairs): Word-Hits for each of Words, in their order, Hits what
% mentioning(Ids, [Word], Hits) gives (the ids whose text contains Word, in the order of Ids). The
% words the text index covers are read from one pass over the mentions of the ids' texts, so the cost
% grows with those, not with the words (a rule may ask for every place name of the graph); the
% others are scanned for, one by one
mentioning_each(Ids, Words, Pairs) :-
    must_be(list, Ids), must_be(list, Words),
    findall(W-Id, ( member(Id, Ids), atom(Id), g_mention(W, Id) ), Found),
    keysort(Found, Sorted), group_pairs_by_key(Sorted, Groups), list_to_assoc(Groups, Index),
    maplist(word_hits(Ids, Index), Words, Pairs).

word_hits(Ids, Index, Word, Word-Hits) :-
    (   indexed_word(Word)
    ->  ( get_assoc(Word, Index, Hits) -> true ; Hits = [] )
    ;   filter_ids(Ids, mentions([Word]), Hits)
    ).

% kept_in(+Ids, +Keywords, -Kept): the elements of Ids that mention one of Keywords, in the order
% of Ids. When few ids mention them (a place name), memberchk/2 (a scan in C, some ten times
% faster per element than a step of Prolog; Ids ground, so that it only compares) finds each
% in Ids, or each id in them; else each id is looked up in the trie of the mentioned ones (two
% inferences an id, where a walk of both sorted lists takes three a step).
kept_in(Ids, Keywords, Kept) :-
    mentioned_by(Keywords, Set), length(Set, N), N =< 16, ground(Ids), !,
    (   sort(Ids, Sorted), Sorted == Ids
    ->  include(member_of(Ids), Set, Kept)
    ;   include(member_of(Set), Ids, Kept)
    ).
kept_in(Ids, Keywords, Kept) :- mentioned_trie(Keywords, Trie), in_trie(Ids, Trie, Kept).

member_of(List, X) :- memberchk(X, List).

in_trie([], _, []).
in_trie([Id|Ids], Trie, Kept) :-
    ( atom(Id), trie_lookup(Trie, Id, _) -> Kept = [Id|Rest] ; Kept = Rest ),
    in_trie(Ids, Trie, Rest).

% in_window(+Ids, +From, +To, +Ref, -Kept) and current_in(+Ids, +Within, +Ref, -Kept): the window
% and current conditions as keeps/2 tests them, in one loop (a third of the inferences of include/3
% calling keeps/2 per id: the frameworks of one assess filter some 100k ids by date at 100k facts)
in_window([], _, _, _, []).
in_window([Id|Ids], From, To, Ref, Kept) :-
    (   atom(Id), g_valid(Id, _, D), Days is Ref - D, Days >= From, Days =< To -> Kept = [Id|Rest] ; Kept = Rest ),
    in_window(Ids, From, To, Ref, Rest).

current_in([], _, _, []).
current_in([Id|Ids], Within, Ref, Kept) :-
    (   atom(Id), \+ \+ g_node(Id, _), ( g_valid(Id, _, D) -> Days is Ref - D, Days >= 0, Days =< Within ; true )
    ->  Kept = [Id|Rest]
    ;   Kept = Rest
    ),
    current_in(Ids, Within, Ref, Rest).

% prop_in(+Ids, +Key, ?Value, -Kept): the prop condition as keeps/2 tests it, in one loop
prop_in([], _, _, []).
prop_in([Id|Ids], Key, Value, Kept) :-
    (   atom(Id), ( g_prop(Id, K, V), K == Key -> true ; g_eprop(Id, K, V), K == Key -> true ), V == Value
    ->  Kept = [Id|Rest]
    ;   Kept = Rest
    ),
    prop_in(Ids, Key, Value, Rest).

% kind_in(+Ids, +Label, -Kept): the kind condition as keeps/2 tests it, in one loop (half the
% inferences of include/3 calling keeps/2 per id: the frameworks split some 45k ids of mixed
% claims and events by kind per assess at 100k facts)
kind_in([], _, []).
kind_in([Id|Ids], Label, Kept) :-
    ( atom(Id), g_node(Id, L), L == Label -> Kept = [Id|Rest] ; Kept = Rest ),
    kind_in(Ids, Label, Rest).

% moves_tally(+Ids, +Window, -t(NC, NE, NR)): how many of Ids are claims, how many events, and how
% many of those moves (a node both a claim and an event counting twice) are dated within Window days
% before the reference date, as filter_ids/3 with kind('Claim'), kind('Event') and window(0, Window)
% count them, in one walk of the ids instead of three (the fit of a framework's reading,
% reading_strength/3 of lib/conflict.pl, rests on up to every claim and event of the graph)
moves_tally(Ids, Window, t(NC, NE, NR)) :-
    reference_days(Ref),
    moves_tally(Ids, Window, Ref, 0, NC, 0, NE, 0, NR).

moves_tally([], _, _, NC, NC, NE, NE, NR, NR).
moves_tally([Id | Ids], Window, Ref, NC0, NC, NE0, NE, NR0, NR) :-
    ( atom(Id), g_node(Id, L), L == 'Claim' -> NC1 is NC0 + 1, K0 = 1 ; NC1 = NC0, K0 = 0 ),
    ( atom(Id), g_node(Id, L2), L2 == 'Event' -> NE1 is NE0 + 1, K is K0 + 1 ; NE1 = NE0, K = K0 ),
    ( K > 0, g_valid(Id, _, D), Days is Ref - D, Days >= 0, Days =< Window -> NR1 is NR0 + K ; NR1 = NR0 ),
    moves_tally(Ids, Window, Ref, NC1, NC, NE1, NE, NR1, NR).

condition(window(_, _)).
condition(current(_)).
condition(dated).
condition(mentions(Keywords)) :- is_list(Keywords).
condition(prop(_, _)).
condition(kind(_)).

% resolved(+Condition, -Test): a window condition with the reference date's days, read once per
% filter_ids call (an id's age is the reference's days less its own; only dated ids have days,
% and there are dated ids only when there is a reference date)
resolved(window(From, To), window(From, To, Ref)) :- !, reference_days(Ref).
resolved(current(Within), current(Within, Ref)) :- !, reference_days(Ref).
resolved(Condition, Condition).

reference_days(Ref) :- read_note(ref), ( g_ref(_, R) -> Ref = R ; Ref = none ).

keeps(window(From, To, Ref), Id) :- atom(Id), number(From), number(To), g_valid(Id, _, D), Days is Ref - D, Days >= From, Days =< To.
keeps(current(Within, Ref), Id) :- atom(Id), once(g_node(Id, _)), ( g_valid(Id, _, D) -> Days is Ref - D, number(Within), Days >= 0, Days =< Within ; true ).
keeps(dated, Id) :- atom(Id), g_valid(Id, _, _).
keeps(mentions(Keywords), Id) :- atom(Id), text_mentions(Id, Keywords, _).
keeps(prop(Key, Value), Id) :- atom(Id), atom(Key), once(( ( g_prop(Id, K, V) ; g_eprop(Id, K, V) ), K == Key )), V == Value.
keeps(kind(Label), Id) :- atom(Id), atom(Label), g_node(Id, L), L == Label, !.

% group_by_edge(+Ids, +Type, +Dir, ?Role, -Groups): Node-Ids pairs, by the node at the other end.
group_by_edge(Ids, Type, Dir, Role, Groups) :-
    must_be(list, Ids), must_be(atom, Type), must_be(atom, Dir),
    (   shared_set(Ids), ( var(Role) ; atom(Role) )
    ->  view_memo(group_by_edge(Ids, Type, Dir, Role), Found, group_by_edge_(Ids, Type, Dir, Role, Found)), Groups = Found
    ;   group_by_edge_(Ids, Type, Dir, Role, Groups)
    ).

group_by_edge_(Ids, Type, Dir, Role, Groups) :-
    read_note(type(Type)),
    ( Dir == in -> End = in ; End = out ),
    findall(Other-Id, ( member(Id, Ids), atom(Id), other_end(End, Type, Role, Id, Other) ), Found),
    pairs_grouped(Found, Groups).

% group_by_roles(+Ids, +Type, +Roles): group_by_edge(Ids, Type, in, Role, _) kept for the view for any role and
% for each of Roles, read in one walk of the edges of Type arriving at Ids when the grouping for any role is not kept,
% where each took a walk of its own (the perpetrators, targets and participants of each event type: 1.5M of the 6.9M
% inferences of warm_view_sets/0 at 1M facts); nothing is kept for a list too short to be kept (shared_set/1). The
% edges' type is compared after the lookup by their end: bound in the call, it took SWI-Prolog to an index that
% doubled the time (413 against 199 ms for warm_view_sets/0 at 100k facts)
group_by_roles(Ids, Type, Roles) :-
    must_be(list, Ids), must_be(atom, Type), must_be(list(atom), Roles),
    (   shared_set(Ids)
    ->  view_memo(group_by_edge(Ids, Type, in, _), Groups, grouped_by_roles(Ids, Type, Roles, Groups)),
        forall(member(Role, Roles), group_by_edge(Ids, Type, in, Role, _))
    ;   true
    ).

% grouped_by_roles(+Ids, +Type, +Roles, -Groups): the grouping of Ids by the edges of Type arriving at them, for any
% role, as group_by_edge_/5 finds it, the grouping for each of Roles kept on the way
grouped_by_roles(Ids, Type, Roles, Groups) :-
    read_note(type(Type)),
    findall(Role-(Other-Id), ( member(Id, Ids), atom(Id), g_edge(_, T, Other, Id, _, R), T == Type, edge_role(R, Role) ), Found),
    msort(Found, ByRole), group_pairs_by_key(ByRole, RoleGroups),
    forall(member(Role, Roles), ( memberchk(Role-Pairs, RoleGroups) -> kept_grouping(Ids, Type, Role, Pairs) ; kept_grouping(Ids, Type, Role, []) )),
    pairs_values(RoleGroups, Lists), append(Lists, All), pairs_grouped(All, Groups).

% edge_role(+R, -Role): the role an edge's role fact R gives it, as other_end/5 reads it
edge_role(R, Role) :- ( R == [] -> Role = participant ; Role = R ).

% kept_grouping(+Ids, +Type, +Role, +Pairs): keeps group_by_edge(Ids, Type, in, Role, _) as the Node-Id Pairs grouped
kept_grouping(Ids, Type, Role, Pairs) :-
    view_memo(group_by_edge(Ids, Type, in, Role), Kept, grouping_held(Type, Pairs, Kept)).

% grouping_held(+Type, +Pairs, -Groups): the Node-Id pairs grouped, read as group_by_edge_/5 reads the edges of Type
grouping_held(Type, Pairs, Groups) :- read_note(type(Type)), pairs_grouped(Pairs, Groups).

pairs_grouped(Pairs, Groups) :- sort(Pairs, Sorted), group_pairs_by_key(Sorted, Groups).

% other_end(+Dir, +Type, ?Role, +Id, -Other): the node at the other end of an edge of Type
% arriving at Id (in) or leaving it (out), whose role is Role when Role is an atom (an edge
% without a role fact has role participant)
other_end(in, Type, Role, Id, Other) :-
    g_edge(_, T, Other, Id, _, R), T == Type,
    ( atom(Role) -> ( R == [] -> Role == participant ; R == Role ) ; true ).
other_end(out, Type, Role, Id, Other) :-
    g_edge(_, T, Id, Other, _, R), T == Type,
    ( atom(Role) -> ( R == [] -> Role == participant ; R == Role ) ; true ).

% link_pairs(+Ids, +SideA, +SideB, -Pairs): p(A, B, Ids) for the nodes each id links.
link_pairs(Ids, SideA, SideB, Pairs) :-
    must_be(list, Ids),
    (   side(SideA), side(SideB) -> true ; instantiation_error(link_pairs(Ids, SideA, SideB)) ),
    (   shared_set(Ids), ground(SideA-SideB)
    ->  view_memo(link_pairs(Ids, SideA, SideB), Found, link_pairs_(Ids, SideA, SideB, Found)), Pairs = Found
    ;   link_pairs_(Ids, SideA, SideB, Pairs)
    ).

link_pairs_(Ids, SideA, SideB, Pairs) :-
    side_parts(SideA, DirA, TypeA, RoleA), side_parts(SideB, DirB, TypeB, RoleB),
    read_note(type(TypeA)), read_note(type(TypeB)),
    findall(A-B-Id, ( member(Id, Ids), atom(Id), other_end(DirA, TypeA, RoleA, Id, A), other_end(DirB, TypeB, RoleB, Id, B), A \== B ), Found),
    sort(Found, Sorted),
    triples_to_pairs(Sorted, Pairs).

side(Side) :- compound(Side), compound_name_arguments(Side, Dir, [Type|_]), memberchk(Dir, [in, out]), atom(Type).

% side_parts(+Side, -Dir, -Type, -Role): Role left unbound (any role) when the side names none
side_parts(Side, Dir, Type, Role) :- compound_name_arguments(Side, Dir, [Type|Rest]), ( Rest = [R|_] -> Role = R ; true ).

triples_to_pairs([], []).
triples_to_pairs([A-B-Id|Rest], [p(A, B, [Id|Ids])|Pairs]) :-
    same_pair(Rest, A, B, Ids, Others),
    triples_to_pairs(Others, Pairs).

same_pair([A1-B1-Id|Rest], A, B, [Id|Ids], Others) :- A1 == A, B1 == B, !, same_pair(Rest, A, B, Ids, Others).
same_pair(Others, _, _, [], Others).

% merge_pairs(+Pairs, +Mode, -Merged): p(A, B, Ids) merged per pair; undirected orders A @< B.
merge_pairs(Pairs, Mode, Merged) :-
    must_be(atom, Mode),
    findall((A-B)-Ids, ( member(Pair, Pairs), nonvar(Pair), Pair = p(A0, B0, Ids0), atom(A0), atom(B0),
                         ordered_pair(Mode, A0, B0, A, B), atom_ids(Ids0, Ids) ), Found),
    keysort(Found, Sorted),
    group_pairs_by_key(Sorted, Groups),
    maplist(merged_pair, Groups, Merged).

ordered_pair(undirected, A0, B0, B0, A0) :- B0 @< A0, !.
ordered_pair(_, A, B, A, B).

atom_ids(List, Ids) :- ( is_list(List) -> include(atom, List, Ids) ; Ids = [] ).

merged_pair((A-B)-Lists, p(A, B, Ids)) :- append(Lists, All), sort(All, Ids).

% union_ids(+Lists, -Union)
union_ids(Lists, Union) :-
    must_be(list, Lists),
    findall(Id, ( member(List, Lists), is_list(List), member(Id, List), atom(Id) ), All),
    sort(All, Union).

% count_ids(+List, -N) (must_be/2 only for what is not a list: it costs four inferences, and the
% frameworks count some 20k lists per assess at 100k facts)
count_ids(List, N) :- ( is_list(List) -> length(List, N) ; must_be(list, List) ).

% sum_prop(+Ids, +Key, -Sum): the sum of a numeric node property over Ids.
sum_prop(Ids, Key, Sum) :-
    must_be(list, Ids), must_be(atom, Key),
    findall(V, ( member(Id, Ids), atom(Id), once(( g_prop(Id, K, V), K == Key )), number(V) ), Values),
    sum_list(Values, Total),
    ( float(Total), Total =:= truncate(Total), abs(Total) < 1.0e15 -> Sum is truncate(Total) ; Sum = Total ).

% date_days(+Date, -Days): days since 1970-01-01 of a 'YYYY-MM-DD' date (or the date of a timestamp).
date_days(Date, Days) :-
    must_be(atom, Date),
    ( sub_atom(Date, 0, 10, _, Day) -> true ; Day = Date ),
    catch(parse_time(Day, iso_8601, Stamp), _, fail),
    Days is floor(Stamp / 86400).

% ---- used by the bridge only ------------------------------------------------

% parley_solve(+Module, +GoalText, +Names, +MaxAnswers, +InferenceLimit, +TimeLimitMs, -Result):
% the answers of GoalText in Module as the values of the variables Names, within the limits.
% Result is r(Inferences, Outcome, Reads), Outcome one of answers(List), inference_limit,
% time_limit, error(Message), syntax(Message); Reads what the call read (read_note/1), as text.
parley_solve(Module, Text, Names, Max, Limit, TimeLimitMs, Result) :-
    catch(term_string(Goal, Text, [variable_names(Bindings), module(Module)]), Error, true),
    (   nonvar(Error)
    ->  message_text(Error, Message), Result = r(0, syntax(Message), [])
    ;   maplist(template_value(Bindings), Names, Template),
        memo_reader(Module),
        get_time(Now), Deadline is Now + TimeLimitMs / 1000,
        nb_setval(parley_deadline, Deadline),
        nb_setval(parley_reads, []),
        statistics(inferences, I0),
        catch(call_with_inference_limit(findall(Template, limit(Max, Module:Goal), Answers), Limit, Status), Caught, true),
        statistics(inferences, I1),
        nb_getval(parley_reads, Reads), nb_setval(parley_reads, none),
        nb_setval(parley_deadline, 0),
        Used is I1 - I0,
        (   nonvar(Caught) -> caught_outcome(Caught, Outcome)
        ;   Status == inference_limit_exceeded -> Outcome = inference_limit
        ;   maplist(plain, Answers, Plain), Outcome = answers(Plain)
        ),
        maplist(plain, Reads, ReadTexts),
        Result = r(Used, Outcome, ReadTexts)
    ).

template_value(Bindings, Name, Value) :- ( memberchk(Name = V, Bindings) -> Value = V ; true ).

caught_outcome(parley_time_limit, time_limit) :- !.
caught_outcome(inference_limit_exceeded, inference_limit) :- !.
caught_outcome(Error, error(Message)) :- message_text(Error, Message).

message_text(Error, Message) :-
    (   catch(message_to_codes(Error, Codes), _, fail) -> atom_codes(Message, Codes)
    ;   format(atom(Message), '~q', [Error])
    ).

message_to_codes(Error, Codes) :-
    '$messages':translate_message(Error, Lines, []),
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

% plain(+Term, -Plain): atoms, numbers and lists as they are; anything else as text.
plain(Term, Plain) :- var(Term), !, Plain = null.
plain([], []) :- !.
plain([H|T], [PH|PT]) :- !, plain(H, PH), plain(T, PT).
plain(Term, Term) :- atom(Term), !.
plain(Term, Term) :- integer(Term), Term > -(2**53), Term < 2**53, !.
plain(Term, Term) :- float(Term), !.
plain(Term, Plain) :- string(Term), !, atom_string(Plain, Term).
plain(Term, Plain) :- format(atom(Plain), '~w', [Term]).

% A solve call's time limit, checked every few thousand inferences.
:- wrap_predicate(prolog:heartbeat, parley_deadline, Wrapped,
                  ( parley_past_deadline -> throw(parley_time_limit) ; Wrapped )).

parley_past_deadline :-
    nb_current(parley_deadline, Deadline), Deadline > 0,
    get_time(Now), Now > Deadline.

% parley_consult(+Module, +Origin, +Text, +Optimise, -Problems): loads Text into Module (its
% arithmetic compiled inline when Optimise is true); Problems lists problem(Line, Column,
% Message) for each error the loader reported.
parley_consult(Module, Origin, Text, Optimise, Problems) :-
    nb_setval(parley_problems, []),
    setup_call_cleanup(
        ( open_string(Text, Stream), nb_setval(parley_consulting, true), nb_setval(parley_module, Module) ),
        catch(load_files(Module:Origin, [stream(Stream), silent(true), optimise(Optimise), imports([])]), Error, note_problem(Error)),
        ( nb_setval(parley_consulting, false), nb_setval(parley_module, []), close(Stream) )),
    nb_getval(parley_problems, Reversed),
    reverse(Reversed, Problems).

% A rule module's header, `:- module(Name, Exports)`, is loaded as the header of the module the
% bridge consults it into: the same framework consulted by two registries (in tests, one thread)
% makes two modules, each with the export list the author wrote.
:- multifile user:term_expansion/2.
user:term_expansion((:- module(_, Exports)), (:- module(Module, Exports))) :-
    nb_current(parley_module, Module), Module \== [],
    nb_setval(parley_module, []).

% parley_exports(+Module, -Exports): the predicates Module's header exports, as Name/Arity; none
% when it was consulted without a header (a plain rule file).
parley_exports(Module, Exports) :-
    (   module_property(Module, file(_))
    ->  module_property(Module, exports(Found)), msort(Found, Exports)
    ;   Exports = none
    ).

:- multifile user:message_hook/3.
user:message_hook(Message, Kind, _) :-
    nb_current(parley_consulting, true),
    (   Kind == error -> note_problem(Message) ; true ),
    memberchk(Kind, [error, warning, informational, silent]).

note_problem(Message) :-
    problem_place(Message, Line, Column),
    problem_text(Message, Text),
    nb_getval(parley_problems, Problems),
    nb_setval(parley_problems, [problem(Line, Column, Text)|Problems]).

problem_text(error(syntax_error(Reason), _), Text) :- !,
    ( atom(Reason) -> atomic_list_concat(Words, '_', Reason), atomic_list_concat(Words, ' ', Said) ; format(atom(Said), '~w', [Reason]) ),
    atom_concat('syntax error: ', Said, Text).
problem_text(Message, Text) :- message_text(Message, Text).

problem_place(error(_, file(_, Line, LinePos, _)), Line, Column) :- integer(Line), !, Column is LinePos + 1.
problem_place(_, Line, 0) :- source_location(_, Line), !.
problem_place(_, 0, 0).

% parley_defined(+Module, -Indicators): the predicates Module itself defines.
parley_defined(Module, Indicators) :-
    findall(Name/Arity,
            ( current_predicate(Module:Name/Arity), functor(Head, Name, Arity),
              \+ predicate_property(Module:Head, imported_from(_)) ),
            Found),
    sort(Found, Indicators).

% A whole hand-over: parley_clear_view/1, then the records in parts (parley_add_facts/9), then
% parley_end_view/4, each naming the slot it fills, active or not: a worker hands a view over in
% parts between tasks, which run on other slots meanwhile. Each list is flat (the arguments of one fact after another: [Id, Label, Id,
% Label...]), which the engine takes from JavaScript several times faster than a list of compound
% terms; a part of some tens of thousands of elements, not the whole view in one call, because the
% lists of a call sit on the global stack while it runs, and the WebAssembly memory the stacks grow
% into is never given back (at 1M facts, one call grew them by some 300 MB, more than the facts took).

% parley_clear_view(+View): no g_* facts in slot View, none of its view_memo/3 answers; no tables when
% View is the active slot (the tables hold answers of the active slot's facts only: parley_use_view/1)
parley_clear_view(View) :-
    view_slot(View),
    shared_sets_forgotten(View),
    forall(retract(View:g_memo(Slot)), ( memo_delete(Slot), retractall(g_memo_used(Slot, _)) )),
    forall(view_fact(Head), retractall(View:Head)),
    ( nb_current(parley_view, View) -> abolish_all_tables ; true ).

% parley_add_facts(+View, +Nodes, +Props, +EdgeProps, +Edges, +Valid, +Texts, +Mentions, +Sources): a part of the
% records, into slot View
parley_add_facts(V, Nodes, Props, EdgeProps, Edges, Valid, Texts, Mentions, Sources) :-
    add_nodes(V, Nodes, Valid), add_props(V, Props), add_eprops(V, EdgeProps),
    add_edges(V, Edges), add_texts(V, Texts), add_sources(V, Sources),
    add_mentions(V, Mentions).

% parley_end_view(+View, +Ref, +Named, +InProps): the last step of a whole hand-over; InProps true when its g_text
% facts leave out the texts node_text/2 reads back from the properties
parley_end_view(V, Ref, Named, InProps) :-
    ( InProps == true -> assertz(V:g_text_in_props) ; true ),
    parley_end_view(V, Ref, Named).

% parley_end_view(+View, +Ref, +Named): the last step, in slot View; Ref is [Date, Days], or none when
% the view has no reference date; Named the node names the text index covers.
parley_end_view(V, Ref, Named) :-
    forall(member(W, Named), assertz(V:g_named(W))),
    set_reference(V, Ref).

% parley_add_view(..., -ChangeTexts): the same lists for records added to the view (the graph only grew: no
% record changed); Ref is the new reference date, or [] when it stays. The tables of the last view
% (tabled rule predicates) are dropped, and the view_memo/3 answers whose reads the additions change
% (added_changes/7, read_unchanged/2) unless they can take the additions (grown/3): the sets of nodes, and
% the answers of a module's added_answer/4. A table hides what it read from an answer that found it filled:
% while any table is held, only the graph library's own answers that cannot change, or grow, are kept
% (memo_holds/4). ChangeTexts: the changes as text (a run that read none of them concludes as before:
% engine/frameworks/run.ts), or all while a table is held.
parley_add_view(Nodes, Props, EdgeProps, Edges, Valid, Texts, Mentions, Sources, Ref, Named, ChangeTexts) :-
    active_view(V),
    shared_sets_forgotten(V),
    parley_add_facts(V, Nodes, Props, EdgeProps, Edges, Valid, Texts, Mentions, Sources),
    parley_end_view(V, Ref, Named),
    note_write_nodes(V, Nodes),
    added_keys(Nodes, 2, Labels), added_keys(Edges, 6, Types),
    memo_sweep,
    Added = added(Nodes, Props, Edges),
    (   current_table(_:_, _)
    ->  growing(forall(g_memo(Slot), forget_changed(Slot, Labels, Types, Ref, Added))), ChangeTexts = all
    ;   added_changes(Labels, Types, Mentions, Named, Sources, Ref, Changes),
        findall(Slot, g_memo(Slot), Slots),
        listed_to_read(Slots, Changes, Added, Types, Ref, Listed),
        foldl(listed_before, Listed, [], Before),
        unseen_changes(Changes, Named, Unseen),
        growing(forall(member(Slot, Slots), forget_read(Slot, Changes, Unseen, Added))),
        regrow_listed(Before, Added, Ref),
        maplist(plain, Changes, ChangeTexts)
    ),
    abolish_all_tables,
    memo_reads_done.

% note_write_nodes(+View, +Nodes) and write_nodes(-Ids): the nodes the active view's last write added (the flat list of
% parley_add_facts/9), sorted; [] past growth_node_limit/1 of them, or when the view's last write is not known. A set
% kept over a list a rule builds (lib/conflict.pl's moves tally) is found again from the one kept over the list less
% those nodes; each is looked for in the list (memberchk/2, a scan in C), so they are bounded as a growth is
note_write_nodes(View, Nodes) :-
    added_node_ids(Nodes, Ids0), sort(Ids0, Ids), length(Ids, N), growth_node_limit(Limit),
    ( N =< Limit -> nb_setval(parley_write_nodes, View-Ids) ; nb_setval(parley_write_nodes, View-[]) ).
write_nodes(Ids) :- ( nb_current(parley_write_nodes, View-Held), active_view(View) -> Ids = Held ; Ids = [] ).

% growing(:Goal): Goal, the kept answers being grown or dropped meanwhile (view_memo/3 computes each it is asked for);
% the answers write_memo/3 kept for this write dropped after it
growing(Goal) :-
    setup_call_cleanup(nb_setval(parley_growing, true), Goal, ( nb_setval(parley_growing, false), nb_delete(parley_write_memo) )).

% write_memo(+Key, -Value, :Goal): Value as the first answer of Goal finds it, once per write while its answers are
% grown (growing/1; else Goal is called): the growths of several modules that read the same node's edges (its
% opponents, some 165k inferences for a node of 2,000) share one answer. The written view does not change while they
% grow, so an answer holds for the whole write. Kept in an assoc by Key (a few touched nodes a write), never read
% after the write.
:- meta_predicate write_memo(+, -, 0).
write_memo(Key, Value, Goal) :-
    (   nb_current(parley_growing, true)
    ->  ( nb_current(parley_write_memo, Memo) -> true ; empty_assoc(Memo) ),
        (   get_assoc(Key, Memo, Found) -> Value = Found
        ;   once(Goal), put_assoc(Key, Memo, Value, Grown), nb_setval(parley_write_memo, Grown)
        )
    ;   once(Goal)
    ).

% added_ends(+Added, -Ids): the nodes a write added and the ends of the edges it added (Added: added(Nodes, Props,
% Edges), the flat lists), sorted: every node whose own edges or attributes it may have changed. Fails past
% growth_node_limit/1 nodes: the modules' growths (lib/conflict.pl) and the sets keyed by a list (regrow_listed/3)
% take the write only within it, else their answers are dropped and found again whole when next asked.
added_ends(added(Nodes, _, Edges), Ids) :-
    added_node_ids(Nodes, NodeIds), added_edge_ends(Edges, Ends),
    append(NodeIds, Ends, Ids0), sort(Ids0, Ids),
    length(Ids, Touched), growth_node_limit(Limit), Touched =< Limit.

added_node_ids([], []).
added_node_ids([Id, _ | Rest], [Id | Ids]) :- added_node_ids(Rest, Ids).

added_edge_ends([], []).
added_edge_ends([_, _, From, To, _, _ | Rest], [From, To | Ends]) :- added_edge_ends(Rest, Ends).

% growth_node_limit(-Limit): the most nodes a write may touch for the answers kept to grow with it. Each node
% touched is read again by every growth (its own edges, its opponents' edges) and each set keyed by a list walks
% the write's edges, while finding every set again costs about what the runs of a fresh view cost: at 100k facts
% the growths cost 4.9k to 11.4k inferences a node touched against 1.06M to 2.32M saved in the runs, and break
% even near 200 nodes (docs/operations.md)
growth_node_limit(200).

% grown(+Added, +Entry, -Grown): a view_memo/3 answer with the records added(Nodes, Props, Edges) (the flat lists
% of parley_add_facts/9, asserted already), what it reads the same: found from the records added, where
% dropping it would have it found again over the whole view. A set of nodes takes the nodes added that it holds
% (a node's labels and properties come with it, and only new nodes are added; some 13k inferences a set at 1M
% facts found again, each framework's sets of claims and events); a module's answer, what its
% added_answer(+Key, +Added, +Answer, -Grown) gives (lib/conflict.pl), when the module defines it itself, else
% it is dropped. A failed answer is dropped, and so is one whose puts the library cannot put into its parts (an error of
% shape_put/4: a Gone or an entry of the wrong type); a time limit, no error(_, _), still ends the write.
grown(added(Nodes, Props, _), (user:nodes_where(Label, Key, Value))-r(answer(Ids), Reads), (user:nodes_where(Label, Key, Value))-r(answer(Grown), Reads)) :- !,
    added_where(Nodes, Props, Label, Key, Value, New),
    ( New == [] -> Grown = Ids ; append(New, Ids, All), sort(All, Grown) ).
grown(Added, (Module:Key)-r(Found, Reads), (Module:Key)-r(parted(Grown), Reads)) :-
    Module \== user, \+ parley_unreported(Module), parted_key(Module, Key, Lists), !,
    ( Found = parted(Answer) -> true ; Found = answer(Answer) ),
    catch(Module:added_parts(Key, Added, Answer, Puts), _, fail),
    catch(shape_put(Lists, Answer, Puts, Grown), error(_, _), fail).
grown(Added, (Module:Key)-r(answer(Answer), Reads), (Module:Key)-r(answer(Grown), Reads)) :-
    Module \== user, \+ parley_unreported(Module), defines_added_answer(Module),
    catch(Module:added_answer(Key, Added, Answer, Grown), _, fail).

% defines_added_answer(+Module): Module defines added_answer/4 or added_parts/4 itself (the library's is for its own
% keys, not for a rule module's answer under the same key)
defines_added_answer(Module) :-
    member(Growth, [added_answer(_, _, _, _), added_parts(_, _, _, _)]), functor(Growth, Name, Arity),
    current_predicate(Module:Name/Arity), \+ predicate_property(Module:Growth, imported_from(_)), !.

% ---- answers kept in parts ------------------------------------------------------
% A module's answer of long lists sorted by a subject (its model: records, flags, a ranking table), which each write
% grows by a few subjects, is kept in parts once a write first grows it: each list a part record of some hundreds of
% entries each, so that a write reads and stores the parts its entries fall in, not the whole answer (at 1M facts an
% ingest-like write copied 7.5M cells of such answers out of their records and stored 6.9M back, for some 116k cells
% of entries that changed; docs/operations.md). The module declares it: parted_answer(Key, Lists), Lists list(KeyArg)
% for an answer that is a list, its entries sorted by their key, each key once, or the Arg-KeyArg of each list argument
% of a compound answer; KeyArg the argument that is an entry's key, or A1-A2, two arguments whose values V1-V2 are its
% key (a pair keyed by its two ends, as deutsch's are); and grows it by added_parts(Key, Added, Answer, Puts): Puts the
% entries to put in place of those of the same keys, as put_by_subject/3 and ranks_put/3 merge them, or replaced(Gone,
% Entries), the entries of the keys Gone taken out first (as ranks_replace/4 and a walk of without/3 take them out): a
% list of them, or replaced/2, for a list, Arg-Entries (or Arg-replaced(Gone, Entries)) for each list argument that
% changes; Answer the answer before the write, whose lists it reads whole, where it must, by kept_list/2, or a few keys'
% entries by kept_keyed/4 (a touched subject's old entry: the parts those keys fall in, not the whole list).
% In the slot's record (parted/1 of the entries) such an answer is r(parted(Shape), Reads): Shape the answer with each
% list as '$parley_parts'(Parts), Parts First-Ref of each part in order (First its first entry's key), a part the
% record Entries-Tail, its tail left open, so that a read joins the parts by unifying each tail with the next part
% (parts_joined/2: a copy of each, no walk of its entries). A part a write makes is First-new(Entries) until
% memo_store/2 records it, under the slot's name.

% parted_key(+Module, +Key, -Lists): Module keeps its answer under Key in parts (parted_answer/2)
parted_key(Module, Key, Lists) :-
    current_predicate(Module:parted_answer/2), \+ predicate_property(Module:parted_answer(_, _), imported_from(_)),
    Module:parted_answer(Key, Lists).

% part_entries(-N): the entries of a part as a write splits a list; a part a write grows past twice as many is split
% again. Each part read and stored is some N entries' cells, each part a record and a reference in the shape: at 1M
% facts the largest answer's lists hold 33k to 148k entries (docs/operations.md)
part_entries(256).

% shape_put(+Lists, +Answer, +Puts, -Shape): the shape of Answer (a shape, or the answer whole before its first
% growth) with the entries of Puts put in its lists (parted_answer/2's Lists)
shape_put(list(KeyArg), Answer, Puts, Shape) :- !, list_put(Answer, KeyArg, Puts, Shape).
shape_put(Lists, Answer, Puts, Shape) :-
    Answer =.. [Name | Args], foldl(arg_put(Lists, Puts), Args, Held, 1, _), Shape =.. [Name | Held].

% arg_put(+Lists, +Puts, +Old, -Held, +Arg, -Next): the argument Arg of a compound answer in its shape: a list Lists
% names with its puts put in it, any other argument as it is (built, not bound inside forall/2, which undoes bindings)
arg_put(Lists, Puts, Old, Held, Arg, Next) :-
    Next is Arg + 1,
    (   memberchk(Arg-KeyArg, Lists)
    ->  ( memberchk(Arg-New, Puts) -> true ; New = [] ), list_put(Old, KeyArg, New, Held)
    ;   Held = Old
    ).

% list_put(+Old, +KeyArg, +Puts, -Held): a list kept in parts (or whole, before its first growth) with Puts put in it
% (added_parts/4's: entries, or replaced(Gone, Entries)), in parts; the entries sorted by key first, each key's first
% entry kept, as put_by_subject/3's sort/4 keeps it. A list whole is split as it is, in its key order (parted_answer/2's
% contract, as its fresh run builds it), and the puts merged into the parts they fall in, as at any later growth (a
% sort of the whole list with its puts at the first growth, its keys paired in Prolog, cost some 342k inferences for
% deutsch's 37k pairs at 1M facts). The order is not checked here: sorts in C that found nothing to move cost some 76 ms
% of CPU a first write at 1M facts, an eighth of its hand-over (docs/operations.md); test/prolog/grown-answers.test.ts
% tests the built-in answers' order instead
list_put(Old, KeyArg, Puts, '$parley_parts'(Parts)) :-
    ( Puts = replaced(Gone0, New0) -> sort(Gone0, Gone) ; New0 = Puts, Gone = [] ),
    keyed_sort(KeyArg, New0, New),
    ( Old = '$parley_parts'(Held) -> true ; list_parts(Old, KeyArg, Held) ),
    parts_put(Held, KeyArg, New, Gone, Parts).

% parts_put(+Parts, +KeyArg, +New, +Gone, -Grown): Parts with the entries of the keys Gone taken out and the entries New
% put: each in the part whose first key is the greatest not above its own (the first part for a key before every
% part's), only the parts that take one read; a part left with no entry is dropped. A list empty at its first growth
% has no part: its puts make its first parts
parts_put(Parts, _, [], [], Parts) :- !.
parts_put([], KeyArg, New, _, Parts) :- !, list_parts(New, KeyArg, Parts).
parts_put([Part], KeyArg, New, Gone, Grown) :- !, part_merged(Part, KeyArg, New, Gone, Grown).
parts_put([First-Part, Next | Parts], KeyArg, New, Gone, Grown) :-
    Next = NextFirst-_, puts_before(New, KeyArg, NextFirst, Mine, Later), keys_before(Gone, NextFirst, MineGone, LaterGone),
    (   Mine == [], MineGone == [] -> Grown = [First-Part | More]
    ;   part_merged(First-Part, KeyArg, Mine, MineGone, Merged), append(Merged, More, Grown)
    ),
    parts_put([Next | Parts], KeyArg, Later, LaterGone, More).

% puts_before(+New, +KeyArg, +Key, -Before, -Rest): New split at its first entry whose key is not before Key
puts_before([], _, _, [], []).
puts_before([Entry | Entries], KeyArg, Key, Before, Rest) :-
    entry_key(KeyArg, Entry, Own),
    (   Own @< Key -> Before = [Entry | More], puts_before(Entries, KeyArg, Key, More, Rest)
    ;   Before = [], Rest = [Entry | Entries]
    ).

% keys_before(+Keys, +Key, -Before, -Rest): the sorted Keys split at the first not before Key
keys_before([], _, [], []).
keys_before([Own | Keys], Key, Before, Rest) :-
    (   Own @< Key -> Before = [Own | More], keys_before(Keys, Key, More, Rest)
    ;   Before = [], Rest = [Own | Keys]
    ).

% part_merged(+First-Part, +KeyArg, +New, +Gone, -Parts): the part with New put and the keys Gone taken out, as parts: a
% recorded part that comes out the same kept by its reference (puts that change nothing store nothing: a ranking
% table's candidates found again with the same scores), one grown past twice part_entries/1 split again, one left empty
% none
part_merged(Held, KeyArg, New, Gone, Parts) :-
    Held = _-Part,
    held_entries(Part, Entries),
    entries_merged(KeyArg, New, Entries, Gone, Merged),
    part_entries(N), length(Merged, Length),
    (   Merged == Entries, Part \= new(_) -> Parts = [Held]
    ;   Length > 2 * N -> list_parts(Merged, KeyArg, Parts)
    ;   Merged == [] -> Parts = []
    ;   Merged = [Entry | _], entry_key(KeyArg, Entry, First), Parts = [First-new(Merged)]
    ).

% entries_merged(+KeyArg, +New, +Entries, +Gone, -Merged): New put in Entries (both in key order, each key once) in place
% of the entries of the same keys, the entries of the keys Gone taken out; in key order, sorted in C. A pair key has no
% sort of its own that keeps a key's first entry, so the entries of New's keys are taken out first, and the merge has
% no key twice
entries_merged(A1-A2, New, Entries, Gone, Merged) :- !,
    findall(Key, ( member(Entry, New), entry_key(A1-A2, Entry, Key) ), Keys), ord_union(Gone, Keys, Out),
    entries_kept(Entries, A1-A2, Out, Kept), append(New, Kept, All), pair_sort(A1-A2, All, Merged).
entries_merged(KeyArg, New, Entries, Gone, Merged) :-
    entries_kept(Entries, KeyArg, Gone, Kept), append(New, Kept, All), sort(KeyArg, @<, All, Merged).

% entries_kept(+Entries, +KeyArg, +Gone, -Kept): the Entries (sorted by key) whose keys are not in the sorted Gone, by
% a walk that ends at the last key of Gone, the rest of the list shared, not copied (an exclude/3 of the whole list at a
% first growth walked deutsch's 37k pairs at 1M facts for a few keys)
entries_kept(Entries, _, [], Entries) :- !.
entries_kept([], _, _, []).
entries_kept([Entry | Entries], KeyArg, [Key | Keys], Kept) :-
    entry_key(KeyArg, Entry, Own), compare(Order, Own, Key),
    (   Order = (<) -> Kept = [Entry | More], entries_kept(Entries, KeyArg, [Key | Keys], More)
    ;   Order = (=) -> entries_kept(Entries, KeyArg, Keys, Kept)
    ;   entries_kept([Entry | Entries], KeyArg, Keys, Kept)
    ).

% entry_key(+KeyArg, +Entry, -Key): an entry's key: its argument KeyArg, or V1-V2 of its arguments A1-A2
entry_key(A1-A2, Entry, V1-V2) :- !, arg(A1, Entry, V1), arg(A2, Entry, V2).
entry_key(KeyArg, Entry, Key) :- arg(KeyArg, Entry, Key).

% keyed_sort(+KeyArg, +Entries, -Sorted): Entries sorted by their keys (entry_key/3), each key's first entry kept
% (sort/4 in C for a key that is an argument; for a pair key, two stable sorts in C and a walk that keeps each key's
% first, over a growth's puts only)
keyed_sort(A1-A2, Entries, Sorted) :- !, pair_sort(A1-A2, Entries, Ordered), keys_first(Ordered, A1-A2, Sorted).
keyed_sort(KeyArg, Entries, Sorted) :- sort(KeyArg, @<, Entries, Sorted).

% pair_sort(+A1-A2, +Entries, -Ordered): Entries in the order of their keys V1-V2, entries of one key in their order (a
% stable sort by A2, then by A1: the standard order of V1-V2)
pair_sort(A1-A2, Entries, Ordered) :- sort(A2, @=<, Entries, ByA2), sort(A1, @=<, ByA2, Ordered).

% keys_first(+Ordered, +KeyArg, -Firsts): the entries of Ordered (in key order) each the first of its key
keys_first([], _, []).
keys_first([Entry | Entries], KeyArg, [Entry | Firsts]) :-
    entry_key(KeyArg, Entry, Key), keys_after(Entries, KeyArg, Key, Firsts).
keys_after([], _, _, []).
keys_after([Entry | Entries], KeyArg, Key, Firsts) :-
    entry_key(KeyArg, Entry, Own),
    (   Own == Key -> keys_after(Entries, KeyArg, Key, Firsts)
    ;   Firsts = [Entry | More], keys_after(Entries, KeyArg, Own, More)
    ).

% list_parts(+List, +KeyArg, -Parts): List as parts of part_entries/1 entries, not yet recorded
list_parts([], _, []) :- !.
list_parts(List, KeyArg, [First-new(Entries) | Parts]) :-
    List = [Entry | _], entry_key(KeyArg, Entry, First),
    (   full_part(Entries, List-Rest), Rest \== [] -> list_parts(Rest, KeyArg, Parts)
    ;   Entries = List, Parts = []
    ).

% full_part(?Entries, ?Open-Tail): Entries, part_entries/1 of them, and the same entries as a list with an open tail
% (one clause whose head shares them): a list's first part split off its rest by one unification, and a part given
% the open tail its record holds, with no walk of its entries in Prolog (append/3 in both cost two inferences an entry:
% at 1M facts, with deutsch's and fisher_ury's tables in parts, write 1's hand-over took 816,840 inferences, now 353,549)
:- part_entries(N), length(Entries, N), append(Entries, Tail, Open), assertz(full_part(Entries, Open-Tail)).

% held_entries(+Part, -Entries): a part's entries, a copy of its record's (or those of a part the write made)
held_entries(Part, Entries) :- ( Part = new(Entries) -> true ; instance(Part, Entries-[]) ).

% kept_keyed(+Held, +KeyArg, +Keys, -Entries): the entries of the sorted Keys in a list of a module's answer kept in parts
% (an argument of its shape, KeyArg as parted_answer/2 names it), in key order, a key with no entry left out: each
% part a key falls in copied once and searched in C (memberchk/2 of an entry with the key), the parts' first keys
% walked once, so that a growth reads its touched subjects' old entries for some hundreds of entries each, not the
% whole list (kept_list/2 copies every part: at 1M facts 30k to 50k entries). Before the answer's first growth the
% list is whole, and searched whole in C
kept_keyed('$parley_parts'(Parts), KeyArg, Keys, Entries) :- !, parts_keyed(Parts, KeyArg, Keys, Entries).
kept_keyed(List, KeyArg, Keys, Entries) :- convlist(keyed_entry(List, KeyArg), Keys, Entries).

parts_keyed(_, _, [], []) :- !.
parts_keyed([], _, _, []).
parts_keyed([_-Part | Parts], KeyArg, Keys0, Entries) :-
    ( Parts = [Next-_ | _] -> keys_before(Keys0, Next, Mine, Keys) ; Mine = Keys0, Keys = [] ),
    (   Mine == [] -> Entries = More
    ;   held_entries(Part, Held), convlist(keyed_entry(Held, KeyArg), Mine, Found), append(Found, More, Entries)
    ),
    parts_keyed(Parts, KeyArg, Keys, More).

% keyed_entry(+Entries, +KeyArg, +Key, -Entry): the entry of Key in Entries (ground, each key once): an entry of the
% first's name and arity with Key in its key arguments, found by memberchk/2
keyed_entry([First | Entries], KeyArg, Key, Entry) :-
    functor(First, Name, Arity), functor(Entry, Name, Arity),
    ( KeyArg = A1-A2 -> Key = V1-V2, arg(A1, Entry, V1), arg(A2, Entry, V2) ; arg(KeyArg, Entry, Key) ),
    memberchk(Entry, [First | Entries]).

% kept_list(+Held, -List): a list of a module's answer kept in parts (an argument of its shape, or the shape), whole
% (each part copied out), or the list itself before the answer's first growth
kept_list(Held, List) :- ( Held = '$parley_parts'(Parts) -> parts_joined(Parts, List) ; List = Held ).

parts_joined([], []).
parts_joined([_-Ref | Parts], List) :- instance(Ref, List-Tail), parts_joined(Parts, Tail).

% entries_joined(+Entries, -Joined): a slot's entries, each answer kept in parts joined whole
entries_joined([], []).
entries_joined([Key-r(Found, Reads) | Entries], [Key-r(Whole, Reads) | Joined]) :-
    ( Found = parted(Shape) -> shape_joined(Shape, Answer), Whole = answer(Answer) ; Whole = Found ),
    entries_joined(Entries, Joined).
shape_joined(Shape, Answer) :-
    (   Shape = '$parley_parts'(_) -> kept_list(Shape, Answer)
    ;   Shape =.. [Name | Args], maplist(kept_list, Args, Lists), Answer =.. [Name | Lists]
    ).

% entry_recorded(+Slot, +Entry, -Stored): Entry with the parts a write made recorded under Slot's name
entry_recorded(Slot, Key-r(Found, Reads), Key-r(Stored, Reads)) :-
    ( Found = parted(Shape) -> shape_recorded(Slot, Shape, Recorded), Stored = parted(Recorded) ; Stored = Found ).
shape_recorded(Slot, Shape, Recorded) :-
    (   Shape = '$parley_parts'(Parts) -> maplist(part_recorded(Slot), Parts, Refs), Recorded = '$parley_parts'(Refs)
    ;   Shape =.. [Name | Args], maplist(held_recorded(Slot), Args, Held), Recorded =.. [Name | Held]
    ).
held_recorded(Slot, Arg, Held) :- ( Arg = '$parley_parts'(_) -> shape_recorded(Slot, Arg, Held) ; Held = Arg ).
part_recorded(Slot, First-Part, First-Ref) :-
    (   Part = new(Entries)
    ->  ( full_part(Entries, Open-Tail) -> true ; append(Entries, Tail, Open) ), recordz(Slot, Open-Tail, Ref)
    ;   Ref = Part
    ).

% shaped_parts(+Entries, -Refs): the references of the parts a slot's entries hold
shaped_parts(Entries, Refs) :-
    findall(Ref, ( member(_-r(parted(Shape), _), Entries), shape_list(Shape, Parts), member(_-Ref, Parts) ), Refs).
shape_list('$parley_parts'(Parts), Parts).
shape_list(Shape, Parts) :- arg(_, Shape, '$parley_parts'(Parts)).

% parts_released(+Old, +Held): the parts of Old that Held does not hold erased
parts_released(Old, Held) :- forall(( member(Ref, Old), \+ memberchk(Ref, Held) ), erase(Ref)).

% added_where(+Nodes, +Props, +Label, ?Key, ?Value, -New): the sorted ids of the nodes added (the flat lists of
% parley_add_facts/9) that nodes_where(Label, Key, Value) holds
added_where(Nodes, Props, Label, Key, Value, New) :-
    labelled(Nodes, Label, Labelled), sort(Labelled, L),
    (   atom(Key), nonvar(Value)
    ->  valued(Props, Key, Value, Valued), sort(Valued, V), ord_intersection(L, V, New)
    ;   New = L
    ).

% added_values(+Nodes, +Props, +Label, +Key, -Values): the values Key takes on the nodes added (the flat lists of
% parley_add_facts/9) of Label, sorted, as nodes_by_value_/3 reads them
added_values(Nodes, Props, Label, Key, Values) :-
    labelled(Nodes, Label, L0), sort(L0, Ids),
    findall(Value, ( prop_added(Props, Id, K, Value), K == Key, ord_memberchk(Id, Ids) ), Found), sort(Found, Values).

prop_added([Id, K, V | Rest], Id1, K1, V1) :- ( Id1 = Id, K1 = K, V1 = V ; prop_added(Rest, Id1, K1, V1) ).

% labelled(+Nodes, +Label, -Ids) and valued(+Props, +Key, +Value, -Ids): the ids of the flat lists' records
% (parley_add_facts/9) of Label, and of Key = Value (as nodes_where_/4 finds them: the value unifies)
labelled([], _, []).
labelled([Id, L | Rest], Label, Ids) :- ( L == Label -> Ids = [Id | More] ; Ids = More ), labelled(Rest, Label, More).
valued([], _, _, []).
valued([Id, K, V | Rest], Key, Value, Ids) :- ( K == Key, \+ V \= Value -> Ids = [Id | More] ; Ids = More ), valued(Rest, Key, Value, More).

% ---- sets keyed by a list, regrown at a write ------------------------------------
% A set predicate's answer over a set a rule built (filter_ids/3, group_by_edge/5, link_pairs/4 of the claims,
% of the events of a type...) is kept under that list. A write that grows the set (grown/3) has the rules ask
% again with the grown list, which the kept answer does not match: found again over the whole set (some 3.5M of
% the 22.7M inferences of the frameworks after an ingest-like write at 1M facts). So the write re-keys it: each
% answer over a list a grown set of nodes held, or a grown filter's answer over one, is grown the same way
% (regrown/10) and kept under the grown list, in place of the old one; one the write cannot grow exactly is
% dropped. Each grown answer is what the predicate finds over the grown list in the written view.

% listed_before(+Slot, +Acc, -More): Slot's sets of nodes and its answers over a list that a write may regrow,
% Slot-Entry, as they were before the write: a copy of Slot's answers (memo_entries/2), made only for the slots
% listed_to_read/6 chooses from their summaries
listed_before(Slot, Acc, More) :-
    % linked (memo_entries/2): the write holds them to its end, and forget_read/4 reads the slot again
    ( memo_entries(Slot, Held) -> Entries = Held ; Entries = [] ),
    foldl(listed_entry(Slot), Entries, Acc, More).
listed_entry(Slot, Entry, Acc, More) :- ( listed_item(Entry, _) -> More = [Slot-Entry | Acc] ; More = Acc ).

% listed_item(+Entry, -Item): a kept answer a write may regrow, as the summary holds it (g_kept_summary/2): the lists
% it is over and gives by their prints (memo_print/2), a set of nodes by its key, a grouping or pairing by the edge
% types it reads
listed_item((user:nodes_where(Label, Key, Value))-r(answer(Ids), _), set(Label, Key, Value, Print)) :- memo_print(Ids, Print).
listed_item((user:filter_ids([Id|Ids], _))-r(answer(Kept), _), filter(Over, Print)) :- memo_print([Id|Ids], Over), memo_print(Kept, Print).
listed_item((user:group_by_edge([Id|Ids], Type, _, _))-r(answer(_), _), edges(Over, [Type])) :- memo_print([Id|Ids], Over).
listed_item((user:link_pairs([Id|Ids], SideA, SideB))-r(answer(_), _), edges(Over, [TypeA, TypeB])) :-
    memo_print([Id|Ids], Over), side_parts(SideA, _, TypeA, _), side_parts(SideB, _, TypeB, _).

% listed_to_read(+Slots, +Changes, +Added, +Types, +Ref, -Read): the slots whose answers over a list a write must
% read before it (listed_before/3), from their summaries: a slot the write changes (forget_read/4 copies it anyway),
% and one with an answer whose regrowth may differ from what it holds: a set that takes nodes added, an answer over a
% list that may grow (Grows: the prints of those lists, a set's a write changes and a filter's over one), one that
% reads an edge type added or the reference date, and a set or filter whose answer the others read are over (Wanted);
% and a slot with no summary (Unknown: its store cut short, memo_store/2), whose answers only a copy tells. The rest
% are left as they are by regrow_listed/3 (the same list, no edge of their types, the same date), so a write copies
% none of them: a copy of every such slot was most of an Issue write's hand-over.
listed_to_read(Slots, Changes, added(Nodes, Props, _), Types, Ref, Read) :-
    findall(Slot-Items, ( member(Slot, Slots), g_kept_summary(Slot, s(_, _, Items, _, _)), Items \== [] ), Held),
    findall(Slot, ( member(Slot, Slots), \+ g_kept_summary(Slot, _) ), Unknown),
    findall(Item, ( member(Slot-Items, Held),
                    (   slot_unchanged(Slot, Changes) -> member(Item, Items), forced_item(Nodes, Props, Types, Ref, Item)
                    ;   member(Item, Items)
                    ) ), Forced),
    findall(Print, member(set(_, _, _, Print), Forced), Roots), sort(Roots, Grown0),
    findall(Item, ( member(_-Items, Held), member(Item, Items) ), All),
    include(filter_item, All, Filters),
    prints_closure(grows_into, Filters, Grown0, Grows),
    findall(Over, ( member(Item, All), Item \= set(_, _, _, _), arg(1, Item, Over),
                    ( memberchk(Item, Forced) ; memberchk(Over, Grows) ) ), Wants), sort(Wants, Wanted0),
    prints_closure(wanted_by, Filters, Wanted0, Wanted),
    findall(Slot, ( member(Slot-Items, Held), member(Item, Items), once(read_item(Forced, Wanted, Item)) ), Found),
    append(Unknown, Found, Chosen), sort(Chosen, ToRead),
    include(listed_in(ToRead), Slots, Read).     % in the order of Slots, as regrow_listed/3 meets them

listed_in(Slots, Slot) :- memberchk(Slot, Slots).

forced_item(_, _, _, Ref, _) :- Ref \== [], !.
forced_item(Nodes, Props, _, _, set(Label, Key, Value, _)) :- !, added_where(Nodes, Props, Label, Key, Value, Delta), Delta \== [].
forced_item(_, Types, _, _, edges(_, Read)) :- member(Type, Read), memberchk(Type, Types), !.

read_item(Forced, _, Item) :- memberchk(Item, Forced).
read_item(_, Wanted, set(_, _, _, Print)) :- memberchk(Print, Wanted).
read_item(_, Wanted, filter(Over, _)) :- memberchk(Over, Wanted).
read_item(_, Wanted, edges(Over, _)) :- memberchk(Over, Wanted).

% prints_closure(:Step, +Items, +Prints, -Closed): Prints with each print Step gives from an item and the prints so far
prints_closure(Step, Items, Prints, Closed) :-
    findall(Print, ( member(Item, Items), call(Step, Item, Prints, Print) ), Found), sort(Found, New),
    ord_union(Prints, New, More),
    ( More == Prints -> Closed = Prints ; prints_closure(Step, Items, More, Closed) ).

filter_item(filter(_, _)).

grows_into(filter(Over, Print), Grows, Print) :- memberchk(Over, Grows).
wanted_by(filter(Over, Print), Wanted, Over) :- memberchk(Print, Wanted).

% regrow_listed(+Before, +Added, +Ref): the answers over a list of Before re-keyed to the grown list, in
% rounds: first those over a set of nodes, then those over the answer of a filter grown in the round before
regrow_listed(Before, Added, Ref) :-
    Added = added(Nodes, Props, Edges),
    exclude(set_of_nodes, Before, Listed),
    (   added_ends(Added, _)
    ->  foldl(grown_set(Nodes, Props), Before, [], Map),
        regrow_rounds(Listed, Map, Edges, Ref)
    ;   forall(member(Slot-((user:Key)-_), Listed), forget_entry(Slot, user:Key))
    ).

set_of_nodes(_-((user:nodes_where(_, _, _))-_)).

% grown_set(+Nodes, +Props, +SlotEntry, +Map, -More): a set of nodes as it was (Old), as it is now (New, kept or
% grown by grown/3), the ids it took (Delta) and their label, m(Old, New, Delta, Label), for the answers over Old
grown_set(Nodes, Props, Slot-((user:nodes_where(Label, Key, Value))-r(answer(Old), _)), Map, More) :- !,
    (   kept_copy(Slot, Entries), memo_entry(Entries, user:nodes_where(Label, Key, Value), r(answer(New), _))
    ->  added_where(Nodes, Props, Label, Key, Value, Delta), More = [m(Old, New, Delta, Label) | Map]
    ;   More = Map
    ).
grown_set(_, _, _, Map, Map).

regrow_rounds(Listed, Map, Edges, Ref) :-
    partition(over_mapped(Map), Listed, Ready, Rest),
    (   Ready == [] -> true
    ;   foldl(regrow(Map, Edges, Ref), Ready, [], Grown),
        append(Grown, Map, Next),
        regrow_rounds(Rest, Next, Edges, Ref)
    ).

over_mapped(Map, _-((_:Key)-_)) :- arg(1, Key, Old), memberchk(m(Old, _, _, _), Map).

% regrow(+Map, +Edges, +Ref, +SlotEntry, +Acc, -More): the answer kept grown under the list its list grew to (the
% first in Map: a list two sets held alike is found again for the other), and taken out from under its old list
% (kept if the list is the same); More adds the grown filters' answers to Map
regrow(Map, Edges, Ref, Slot-((user:Key)-r(answer(Answer), Reads)), Acc, More) :-
    arg(1, Key, Old), memberchk(m(Old, New, Delta, Label), Map),
    (   regrown(Key, Answer, New, Delta, Label, Edges, Ref, NewKey, Grown, Took)
    ->  ( g_memo_used(Slot, Used) -> true ; Used = 0 ),
        keep_entry((user:NewKey)-r(answer(Grown), Reads), Used),
        ( NewKey == Key -> true ; forget_entry(Slot, user:Key) ),
        ( Took == none -> More = Acc ; More = [m(Answer, Grown, Took, Label) | Acc] )
    ;   forget_entry(Slot, user:Key), More = Acc
    ).

% regrown(+Key, +Answer, +New, +Delta, +Label, +Edges, +Ref, -NewKey, -Grown, -Took): Answer over the old list of
% Key (nodes of Label), grown to its answer over New, the old list and the ids Delta; Took the ids a filter took,
% else none. A filter keeps the ids it kept (their facts are as they were, the mentions of a word over them too:
% see memo_holds/4) unless it reads the reference date and that moved; a grouping or a pairing by edges takes
% what the ids added, and the ids held at an end of an edge added of its types, link: found for those alone and
% merged into the groups or pairs held
regrown(filter_ids(_, Condition), Kept, New, Delta, _, _, Ref, filter_ids(New, Condition), Grown, Took) :-
    memo_holds([], [], Ref, (user:filter_ids(_, Condition))-_),
    ( Delta == [] -> Took = [] ; filter_ids_(Delta, Condition, Took) ),
    ( Took == [] -> Grown = Kept ; append(Took, Kept, All), sort(All, Grown) ).
regrown(group_by_edge(Old, Type, Dir, Role), Groups, New, Delta, Label, Edges, _, group_by_edge(New, Type, Dir, Role), Grown, none) :-
    touched(Old, Delta, Label, [Type], Edges, Touched),
    (   Touched == [] -> Grown = Groups
    ;   group_by_edge_(Touched, Type, Dir, Role, Found),
        maplist(merged_group(Groups), Found, Merged),
        append(Merged, Groups, All), sort(1, @<, All, Grown)     % the first of each node: the merged one
    ).
regrown(link_pairs(Old, SideA, SideB), Pairs, New, Delta, Label, Edges, _, link_pairs(New, SideA, SideB), Grown, none) :-
    side_parts(SideA, _, TypeA, _), side_parts(SideB, _, TypeB, _),
    touched(Old, Delta, Label, [TypeA, TypeB], Edges, Touched),
    (   Touched == [] -> Grown = Pairs
    ;   link_pairs_(Touched, SideA, SideB, Found),
        foldl(merged_pair(Pairs), Found, Merged-Stale, []-[]),
        sort(Stale, StaleSorted), without(StaleSorted, Pairs, Rest),
        append(Merged, Rest, All), sort(All, Grown)
    ).

% touched(+Old, +Delta, +Label, +Types, +Edges, -Touched): the ids added and the ids of Old (nodes of Label) at an
% end of an edge added of one of Types, sorted (memberchk/2, a scan in C, only for an end of that label)
touched(Old, Delta, Label, Types, Edges, Touched) :-
    findall(End, ( edge_end(Edges, Types, End), atom(End), once(( g_node(End, L), L == Label )), memberchk(End, Old) ), Held),
    append(Delta, Held, All), sort(All, Touched).

% edge_end(+Edges, +Types, -End): an end of an edge of the flat list (parley_add_facts/9) of one of Types
edge_end([_, Type, From, To, _, _ | Rest], Types, End) :-
    (   memberchk(Type, Types), ( End = From ; End = To )
    ;   edge_end(Rest, Types, End)
    ).

merged_group(Groups, Node-Ids, Node-Merged) :-
    ( memberchk(Node-Held, Groups) -> ord_union(Held, Ids, Merged) ; Merged = Ids ).

% merged_pair(+Pairs, +Found, +Merged0-Stale0, -Merged-Stale): a pair found, with the ids of the same pair held
% merged in; the held one (a difference list of them) to be taken out
merged_pair(Pairs, p(A, B, Ids), [p(A, B, Merged) | M]-S0, M-S) :-
    (   memberchk(p(A, B, Held), Pairs) -> ord_union(Held, Ids, Merged), S0 = [p(A, B, Held) | S]
    ;   Merged = Ids, S0 = S
    ).

% without(+Stale, +List, -Rest): List less the elements of Stale, both in standard order; the walk ends at the
% last of Stale and the tail after it is shared
without([], List, List) :- !.
without([S | Ss], [X | Xs], Rest) :- ( X == S -> without(Ss, Xs, Rest) ; Rest = [X | More], without([S | Ss], Xs, More) ).

% forget_entry(+Slot, +ModuleKey): Slot no longer holds the answer under ModuleKey (a write dropped it already,
% or it is re-keyed)
forget_entry(Slot, ModuleKey) :-
    (   kept_copy(Slot, Entries)
    ->  exclude(keyed(ModuleKey), Entries, Kept), kept_entries(Slot, Entries, Kept)
    ;   true
    ).

keyed(Key, K-_) :- K == Key.

% keep_entry(+Entry, +Used): Entry kept as view_memo/3 keeps an answer (in place of one under its key; not copied
% again when it is the same), last asked for in generation Used (memo_sweep/0): an answer regrown at every write,
% and never asked for, is swept
keep_entry((Module:Key)-Found, Used) :-
    memo_slot(Module, Key, Slot),
    listed_entries(Slot, Old),
    (   memo_entry(Old, Module:Key, Held), Held == Found -> true
    ;   exclude(keyed(Module:Key), Old, Others), memo_store(Slot, [(Module:Key)-Found | Others])
    ),
    (   g_memo_used(Slot, U) -> ( U >= Used -> true ; retract(g_memo_used(Slot, U)), assertz(g_memo_used(Slot, Used)) )
    ;   assertz(g_memo_used(Slot, Used))
    ).

% added_changes(+Labels, +Types, +Mentions, +Named, +Sources, +Ref, -Changes): the reads (read_note/1)
% records added change: the labels of the nodes (and label(any), read by whoever enumerated every
% label), the types of the edges (and type(any)), the words of the mentions (new texts, or a new name
% found in texts held), the names indexed, the sources, the reference date
added_changes(Labels, Types, Mentions, Named, Sources, Ref, Changes) :-
    mention_words(Mentions, Words),
    findall(Change,
            (   member(L, Labels), Change = label(L)
            ;   Labels \== [], Change = label(any)
            ;   member(T, Types), Change = type(T)
            ;   Types \== [], Change = type(any)
            ;   member(W, Words), Change = mention(W)
            ;   Named \== [], Change = named
            ;   Sources \== [], Change = source
            ;   Ref \== [], Change = ref
            ),
            Changes).

mention_words(Mentions, Words) :- mention_words_(Mentions, Found), sort(Found, Words).
mention_words_([], []).
mention_words_([Word, _|Rest], [Word|Words]) :- mention_words_(Rest, Words).

% memo_sweep: drops the answers keyed by a list (a set predicate's answer over a set a rule built,
% filter_ids/3 or group_by_edge/5 of the claims of a type...) that no call computed or found in the
% last two generations, a generation being the calls between two writes (writes with no call in
% between make none). A write keeps the answers it cannot change, but one over a set the write
% changed is asked again with the new set, and the old one, kept too, would never be asked again:
% at 100k facts, each ingest-like write left some 40 to 70 of them, 1.4 to 3 MB, on the global
% stack every garbage collection walks, without bound. Two generations, not one: after a write,
% the framework runs that read nothing it changed are given again without a call
% (engine/frameworks/run.ts), and the answers they read are still those of the graph. The
% generation is the engine's, not a view's: writes to other views held on the engine age a
% view's answers too, which costs them being computed again, never a stale one.
memo_sweep :-
    ( nb_current(parley_memo_generation, G) -> true ; G = 0 ),
    (   g_memo_used(_, G)
    ->  Old is G - 1,
        forall(( g_memo(Slot), \+ ( g_memo_used(Slot, U), U >= Old ) ), forget_listed(Slot)),
        Next is G + 1, nb_setval(parley_memo_generation, Next)
    ;   true
    ).

forget_listed(Slot) :-
    slot_entries(Slot, Entries),
    exclude(keyed_by_list, Entries, Kept),
    kept_entries(Slot, Entries, Kept).

% (nonvar/1 first: a key's unbound argument, any key or any role, is no list, and unifying it with one swept its answer)
keyed_by_list((_:Key)-_) :- compound(Key), arg(_, Key, Arg), nonvar(Arg), Arg = [_|_], !.

% forget_read(+Slot, +Changes, +Unseen, +Added): drops the answers of Slot that read what Changes lists, but for
% those that take the records Added (grown/3); an answer that read one of Unseen is dropped all the same
forget_read(Slot, Changes, Unseen, Added) :-
    (   slot_unchanged(Slot, Changes) -> true
    ;   dropped_whole(Slot) -> forget_slot(Slot)
    ;   slot_entries(Slot, Entries),
        convlist(kept_read(Changes, Unseen, Added), Entries, Kept),
        kept_entries(Slot, Entries, Kept)
    ).

% dropped_whole(+Slot): Slot holds one answer, which kept_read/5 drops once slot_unchanged/2 has failed (it read what
% the write changed, or its module is unreported, and grown/3 cannot take the records added): known from the summary,
% so the answer is not copied to be dropped (fearon's context, 36k cells at 100k facts, at an Issue write)
dropped_whole(Slot) :-
    g_kept_summary(Slot, s(Reads, [Module], Listed, 1, _)), Reads \== any,
    \+ memberchk(set(_, _, _, _), Listed),
    \+ ( Module \== user, \+ parley_unreported(Module), defines_added_answer(Module) ).

% slot_unchanged(+Slot, +Changes): every answer of Slot is one read_unchanged/2 keeps, known from its summary
% (a write reads no copy of a slot it cannot change)
slot_unchanged(Slot, Changes) :-
    g_kept_summary(Slot, s(Reads, Modules, _, _, _)), Reads \== any,
    \+ ( member(M, Modules), parley_unreported(M) ),
    \+ ( member(Read, Reads), memberchk(Read, Changes) ).

kept_read(Changes, Unseen, Added, Entry, Kept) :-
    (   read_unchanged(Changes, Entry) -> Kept = Entry
    ;   read_unchanged(Unseen, Entry), grown(Added, Entry, Kept)
    ).

% unseen_changes(+Changes, +Named, -Unseen): the changes of a write that its records added(Nodes, Props, Edges)
% do not show a growth (grown/3): the reference date moved, names indexed (Named, the new ones) and their
% mentions in the texts held, sources. An answer that read one of them is found again, never grown: a set over
% a window of dates would otherwise be offered the records added alone, the date moved under it unseen. The
% other mentions change only with the texts of nodes added, which the growth sees.
unseen_changes(Changes, Named, Unseen) :- include(unseen_change(Named), Changes, Unseen).
unseen_change(_, ref).
unseen_change(_, named).
unseen_change(_, source).
unseen_change(Named, mention(W)) :- memberchk(W, Named).

read_unchanged(Changes, (user:indexed_words(_))-_) :- !, \+ memberchk(named, Changes).
read_unchanged(Changes, (Module:_)-r(_, Reads)) :- \+ parley_unreported(Module), \+ ( member(Read, Reads), memberchk(Read, Changes) ).

% parley_remove_view(+Nodes, +Edges, +Labels, +Types, +Gone, +Named, +Ref): takes the facts of the
% nodes and edges of the ids Nodes and Edges out of the view (the view cut at an earlier valid time, or
% cut where it was not: the rest stays in the order it was asserted in), with the mentions of the node names Gone, no longer
% indexed; Named are the node names the index covers now, Labels and Types the labels of the nodes and
% the types of the edges taken out, Ref the new reference date or [] when it stays. The view_memo/3
% answers those records may change are dropped (memo_holds/4 keeps the others), and the tables.
parley_remove_view(Nodes, Edges, Labels, Types, Gone, Named, Ref) :-
    active_view(V),
    shared_sets_forgotten(V),
    forall(member(Id, Nodes), remove_node(V, Id)),
    forall(member(Id, Edges), ( retractall(V:g_edge(Id, _, _, _, _, _)), retractall(V:g_eprop(Id, _, _)) )),
    forall(member(W, Gone), retractall(V:g_mention(W, _))),
    retractall(V:g_named(_)), forall(member(W, Named), assertz(V:g_named(W))),
    set_reference(V, Ref),
    forall(g_memo(Slot), forget_changed(Slot, Labels, Types, Ref, none)),
    abolish_all_tables,
    memo_reads_done.

remove_node(V, Id) :-
    retractall(V:g_node(Id, _, _)), retractall(V:g_prop(Id, _, _)),
    retractall(V:g_text(Id, _)), retractall(V:g_mention(_, Id)), retractall(V:g_source(Id, _)).

% forget_changed(+Slot, +Labels, +Types, +Ref, +Added): drops the answers of Slot the additions (or removals) may
% change, but for the sets of nodes, which take the records added (grown/3); Added is none for a removal
forget_changed(Slot, Labels, Types, Ref, Added) :-
    slot_entries(Slot, Entries),
    convlist(held_or_grown(Labels, Types, Ref, Added), Entries, Kept),
    kept_entries(Slot, Entries, Kept).

held_or_grown(Labels, Types, Ref, Added, Entry, Kept) :-
    (   memo_holds(Labels, Types, Ref, Entry) -> Kept = Entry
    ;   Added \== none, Entry = (user:nodes_where(_, _, _))-_, grown(Added, Entry, Kept)
    ).

% kept_entries(+Slot, +Entries, +Kept): Slot holds Kept of its Entries (some of them grown: grown/3); a slot left
% with none is forgotten, one a store cut short left empty (slot_entries/2) included
kept_entries(Slot, Entries, Kept) :-
    length(Entries, N), length(Kept, K),
    (   K =:= 0 -> forget_slot(Slot)
    ;   K =:= N, Kept == Entries -> true
    ;   memo_store(Slot, Kept)
    ).

% forget_slot(+Slot): the active view's Slot keeps no answers
forget_slot(Slot) :- memo_delete(Slot), active_view(V), retract(V:g_memo(Slot)), retractall(g_memo_used(Slot, _)).

% memo_holds(+Labels, +Types, +Ref, +Entry): an answer of the graph predicates that records added
% (or taken out) cannot change: Labels are the labels of the nodes added, Types the types of the
% edges added, Ref [] when the reference date stays. The sets hold only ids of records the view had
% (an edge's ends are nodes of the graph), whose facts an addition leaves as they were: a set of
% nodes changes only with a node of its label, a grouping or a pairing by edges only with an edge of
% its type, and a filter only when it reads the reference date. Mentions of a new name do change in
% the texts held, but a filter on it scanned those texts before, finding what the index now holds.
% The same holds of records taken out, for the sets a rule can ask for again: those of ids still in
% the view (a name no longer indexed is scanned for, finding what the index held).
% Every other answer (the rule modules' own, the mention sets) is dropped.
memo_holds(Labels, _, _, (user:nodes_where(Label, _, _))-_) :- \+ memberchk(Label, Labels).
memo_holds(_, Types, _, (user:group_by_edge(_, Type, _, _))-_) :- \+ memberchk(Type, Types).
memo_holds(_, Types, _, (user:link_pairs(_, SideA, SideB))-_) :-
    side_parts(SideA, _, TypeA, _), side_parts(SideB, _, TypeB, _),
    \+ memberchk(TypeA, Types), \+ memberchk(TypeB, Types).
memo_holds(_, _, Ref, (user:filter_ids(_, Condition))-_) :-
    ( Ref == [] -> true ; \+ memberchk(Condition, [window(_, _), current(_)]) ).

% added_keys(+Flat, +Width, -Keys): the sorted second elements of the records of a flat list
% (parley_add_facts/9) Width elements long: the labels of the nodes, the types of the edges
added_keys(Flat, Width, Keys) :- added_keys_(Flat, Width, Found), sort(Found, Keys).
added_keys_([], _, []).
added_keys_([_, Key|Rest], Width, [Key|Keys]) :- Skip is Width - 2, length(Skipped, Skip), append(Skipped, Tail, Rest), added_keys_(Tail, Width, Keys).

% set_reference(+View, +Ref): in slot View, [Date, Days] the new reference date, none no reference date, [] the same one
set_reference(V, Ref) :-
    (   Ref = [Date, Days] -> retractall(V:g_ref(_, _)), assertz(V:g_ref(Date, Days))
    ;   Ref == none -> retractall(V:g_ref(_, _))
    ;   true
    ).

% parley_warm: has SWI-Prolog build, now, the just-in-time clause index of each g_* predicate on
% each argument the frameworks look its facts up by (the first call with that argument bound
% builds it: some 0.3 s at 100k facts, which the first framework run of a view would pay). Not
% g_edge by id (edge/5 with the id bound): no built-in framework asks for an edge by its id, and
% that index, over every edge's distinct id, is the dearest of them (some 23 of 170 ms at 100k
% facts); a rule that does ask builds it on its first call. Nor g_text by id: the built-in frameworks
% read the texts only to scan for a word the text index does not cover (text_mentions/3), which none
% of them did in an assess at 10k facts, and that index takes some 7 (generated conflict graphs) to
% 12 (bench/store's graph) bytes per fact of every engine holding the view. parley_warm(View, N, More): the N-th
% (from 0) of those indexes, of slot View's facts (a hand-over in parts builds one per part); More is
% true while there are more.
parley_warm(View, N, More) :-
    findall(Fact, warm_lookup('$parley_warm', Fact), Facts),
    nth0(N, Facts, Fact), \+ call(View:Fact),
    length(Facts, Count), ( N + 1 < Count -> More = true ; More = false ).

warm_lookup(W, g_node(W, _, _)).        warm_lookup(W, g_node(_, W, _)).
warm_lookup(W, g_prop(W, _, _)).        warm_lookup(W, g_prop(_, _, W)).
warm_lookup(W, g_eprop(W, _, _)).
warm_lookup(W, g_edge(_, W, _, _, _, _)).
warm_lookup(W, g_edge(_, _, W, _, _, _)).  warm_lookup(W, g_edge(_, _, _, W, _, _)).
warm_lookup(W, g_mention(W, _)).

% A view image (engine/prolog/bridge.ts viewImage): a slot's g_* facts (not its kept answers, g_memo) as
% SWI-Prolog quick-load code, which an engine loads some 4.5x faster than a hand-over reads, converts and
% asserts them at 300k and 1M facts (the whole hand-over, clause indexes too: 2.6x; bench:handover). parley_write_image(+View, +Stub) writes Stub (a file of the engine's own file system: one
% term per view fact predicate, and their dynamic declarations) and compiles it into Stub's .qlf; each term
% expands to the clauses of slot View (term_expansion/2 below), so that no clause is written or read as
% text (compiling the facts' text took twice as long). Compiling records a copy of the clauses in module
% parley_image, unloaded at the end. The image also lists the predicates it holds ('$parley_image_of'/1), which
% parley_load_image/2 checks. The view's shared sets, when they are kept for its facts (g_shared_sets/3), come after
% them ('$parley_image_sets', below).
parley_write_image(View, Stub) :-
    image_predicates(Predicates),
    setup_call_cleanup(open(Stub, write, Out),
                       ( forall(member(P, ['$parley_image_of'/1, '$parley_sets_of'/1, '$parley_sets'/2|Predicates]), format(Out, ':- dynamic(~q).~n', [P])),
                         format(Out, '~q.~n', ['$parley_image_of'(Predicates)]),
                         forall(member(P, Predicates), format(Out, '~q.~n', ['$parley_image_part'(P)])),
                         format(Out, '~q.~n', ['$parley_image_sets']) ),
                       close(Out)),
    % the .qlf records its source's modification time: a fixed one, so that an image's bytes are its view's alone
    set_time_file(Stub, _, [modified(0)]),
    setup_call_cleanup(nb_setval(parley_image_of, View),
                       qcompile(parley_image:Stub),
                       ( nb_setval(parley_image_of, []), unload_file(Stub) )).

:- multifile user:term_expansion/2.
user:term_expansion('$parley_image_part'(Name/Arity), Clauses) :-
    nb_current(parley_image_of, View), View \== [],
    functor(Head, Name, Arity),
    findall(Head, View:Head, Clauses).
% the shared sets: '$parley_sets_of'(Module), the module warm_view_sets/0 kept them under, and a '$parley_sets'(Suffix,
% Entries) clause a slot of answers, Suffix the slot's name past its view's (memo_slot/3: the engine loading them names
% the view anew); none when they are not kept for the view's facts. A slot holds only the answers of the keys the sets
% asked for (g_shared_sets/3), in the order they were first asked for: a slot may also hold a framework's answers, kept
% by a run before the sets were (the server's first assess), and its answers are in the order they were kept, so that
% the image would otherwise depend on which came first (78 against 48.8 MB at 1M facts, docs/operations.md)
user:term_expansion('$parley_image_sets', Clauses) :-
    nb_current(parley_image_of, View), View \== [],
    (   g_shared_sets(View, Module, Slots)
    ->  atomic_list_concat(['$parley_memo_', View, '_'], Prefix),
        findall('$parley_sets'(Suffix, Entries),
                ( member(Slot-Keys, Slots), atom_concat(Prefix, Suffix, Slot), kept_copy(Slot, Kept), entries_joined(Kept, Joined),
                  convlist(kept_entry(Joined), Keys, Entries), Entries \== [], \+ holds_handle(Entries) ), Sets),
        Clauses = ['$parley_sets_of'(Module)|Sets]
    ;   Clauses = []
    ).

% kept_entry(+Entries, +Key, -Entry): Key's entry among a slot's Entries (Module:Key-r(Found, Reads)); fails when the
% slot no longer holds it (its store cut short by a limit)
kept_entry(Entries, Key, Key-Found) :- memo_entry(Entries, Key, Found).

% holds_handle(+Term): Term holds a handle into this engine (a trie: mentioned_trie/2's sets), which a compiled file
% cannot carry: it loads as an atom ('<saved-trie-ref>'). Such a set is left out of the image, and computed where read.
holds_handle(Term) :- sub_term(Sub, Term), blob(Sub, Type), Type \== text, Type \== reserved_symbol, !.

% parley_load_image(+View, +File): slot View holds the facts of the image File (parley_write_image/2's .qlf)
% and none other. File is loaded as the source of View's facts: each slot loads its images from a folder of its
% own, as SWI-Prolog takes a file loaded again for the same source and replaces the clauses it loaded before.
% Fails, View left empty, when File does not load (torn, or of another SWI-Prolog version) or does not hold
% each of the predicates an image holds now (one made before a view fact was added).
parley_load_image(View, File) :-
    parley_clear_view(View),
    (   catch(load_files(View:File, [silent(true)]), _, fail),
        image_predicates(Predicates),
        catch(View:'$parley_image_of'(Held), _, fail),
        forall(member(P, Predicates), memberchk(P, Held))
    ->  retractall(View:'$parley_image_of'(_))
    ;   retractall(View:'$parley_image_of'(_)), parley_clear_view(View), fail
    ).

% The shared sets in a view image. warm_view_sets/0 (lib/conflict.pl) keeps the sets several frameworks read, some
% 2.5 s of a core at 1M facts that every engine paid after each whole hand-over, image or not. They depend on the
% view's facts alone (its reference date among them: g_ref) and on the library's code, as the image's facts do on the
% graph and the hand-over code (the image's signature names both), so an image carries them as compiled clauses
% (parley_write_image/2) and an engine that loaded it keeps them at its first parley_warm_sets/1, some 0.4 s at 1M
% (the same sets written in SWI-Prolog's fast term format took 1.6 s to read back: each atom looked up by its text).
% g_shared_sets(View, Module, Slots): slot View's shared sets are kept for the facts it holds now, by Module (the
% helper library's module, named per engine), under these slots of kept answers, Slot-Keys, Keys the Module:Key of
% the answers the sets asked for in Slot (a slot may hold others too: a run's), slots and keys in the order the sets
% first asked for them; a write to the view, or its facts cleared, retracts it (a write drops or grows some of the
% sets, and warm_view_sets/0 computes the dropped ones again)
:- dynamic g_shared_sets/3.

% parley_warm_sets(:Warm): the active view's shared sets (Warm: warm_view_sets/0), unless they are kept for its facts
% already (computed since its last write, or loaded with its image when kept under Warm's module; when under another,
% an engine whose modules were named in another order, they are dropped and computed), every set they ask for
% recorded for the view's image (parley_warm_sets/2's `whole`)
:- meta_predicate parley_warm_sets(0), parley_warm_sets(0, +).
parley_warm_sets(Warm) :-
    parley_warm_sets(Warm, whole).

% parley_warm_sets(:Warm, +Mode): as parley_warm_sets/1, Mode `whole` (a view that may be imaged: held whole) or
% `kept` (a view no image is made of: records added or taken out since its whole hand-over): the sets are computed and
% kept, which ones were asked for not recorded. Recording them calls each set kept already once more, to learn which
% sets it was computed from: after a write that cost as much as the first warm-up (572k inferences against 11k at 100k
% facts, about 2.4 s of a core at 1M, in every worker holding the view), and the wrapper that records them some 40k
% more. A view warmed `kept` (g_shared_sets_partial/1) is recorded whole if an image is to be made of it after all
parley_warm_sets(Warm, Mode) :-
    active_view(View), strip_module(Warm, Module, _),
    (   g_shared_sets(View, _, _), ( Mode == kept ; \+ g_shared_sets_partial(View) ) -> true
    ;   View:'$parley_sets_of'(Module) -> shared_sets_loaded(View, Module)
    ;   Mode == kept -> shared_sets_forgotten(View), call(Warm), assertz(g_shared_sets(View, Module, [])), assertz(g_shared_sets_partial(View))
    ;   shared_sets_forgotten(View), shared_sets_asked(Warm, Slots),
        assertz(g_shared_sets(View, Module, Slots))
    ).

% g_shared_sets_partial(View): View's shared sets are kept, which ones its g_shared_sets/3 does not say (Mode `kept`)
:- dynamic g_shared_sets_partial/1.

% shared_sets_asked(:Warm, -Slots): Warm called, Slots the slots and keys of the kept answers it asked for, found kept
% or computed (g_shared_sets/3), found by a wrapper of view_memo/3 for the call alone: the slots of kept answers after
% the call also hold what the runs before it kept, and in the order they kept them. A set a run kept does not ask again
% for the sets it was computed from (opponent_index/1 for hostile_partners/1, which warm_view_sets/0 does not ask for
% itself), so its goal is called once more, its answer left as kept: after the runs the call then costs what it costs
% before them (the sets computed), and asks for the same keys in the same order
shared_sets_asked(Warm, Slots) :-
    retractall(g_shared_asked(_, _, _)), flag(parley_shared_asked, _, 0),
    setup_call_cleanup(wrap_predicate(user:view_memo(Key, _, Goal), parley_shared_sets, Wrapped, ( shared_set_asked(Goal, Key), Wrapped )),
                       call(Warm),
                       unwrap_predicate(user:view_memo/3, parley_shared_sets)),
    findall(N-(Slot-Asked), g_shared_asked(_, N, Slot-Asked), Numbered), retractall(g_shared_asked(_, _, _)),
    keysort(Numbered, Sorted), pairs_values(Sorted, Pairs),
    findall(Slot, member(Slot-_, Pairs), Seen), list_to_set(Seen, InOrder),
    findall(Slot-Keys, ( member(Slot, InOrder), findall(K, member(Slot-K, Pairs), Keys) ), Slots).

% g_shared_asked(Hash, N, Slot-Module:Key): the Nth key shared_sets_asked/2 saw asked for, a copy, by its variant hash
:- dynamic g_shared_asked/3.
shared_set_asked(Goal, Key) :-
    strip_module(Goal, Module, _), variant_sha1(Module:Key, Hash),
    (   g_shared_asked(Hash, _, _) -> true
    ;   memo_slot(Module, Key, Slot), flag(parley_shared_asked, N, N + 1), assertz(g_shared_asked(Hash, N, Slot-(Module:Key))),
        ( memo_entries(Slot, Entries), memo_entry(Entries, Module:Key, _) -> \+ \+ ignore(Goal) ; true )
    ).

% shared_sets_loaded(+View, +Module): slot View keeps the shared sets its image held, each slot of answers as
% view_memo/3 keeps one it computed (memo_store/2), asked for in this generation (memo_used/1)
shared_sets_loaded(View, Module) :-
    findall(Slot-Keys, ( retract(View:'$parley_sets'(Suffix, Entries)),
                         atomic_list_concat(['$parley_memo_', View, '_', Suffix], Slot),
                         % (a slot a run kept answers in since the hand-over holds these already, computed)
                         ( g_kept(Slot, _) -> true ; memo_store(Slot, Entries) ),
                         ( View:g_memo(Slot) -> true ; assertz(View:g_memo(Slot)) ), memo_used(Slot),
                         pairs_keys(Entries, Keys) ),
            Slots),
    retractall(View:'$parley_sets_of'(_)),
    assertz(g_shared_sets(View, Module, Slots)).

% shared_sets_forgotten(+View): slot View's shared sets no longer kept for its facts, and its image's let go
shared_sets_forgotten(View) :-
    retractall(g_shared_sets(View, _, _)), retractall(g_shared_sets_partial(View)), retractall(View:'$parley_sets_of'(_)), retractall(View:'$parley_sets'(_, _)).

% image_predicates(-Predicates): the view fact predicates an image holds, Name/Arity (the kept answers, g_memo, not).
image_predicates(Predicates) :-
    findall(Name/Arity, ( view_fact(Head), Head \= g_memo(_), functor(Head, Name, Arity) ), Predicates).

% parley_keywords(+Module, -Words): the words of the keywords/2 facts Module defines itself.
parley_keywords(Module, Words) :-
    (   current_predicate(Module:keywords/2), \+ predicate_property(Module:keywords(_, _), imported_from(_))
    ->  findall(W, ( clause(Module:keywords(_, List), true), is_list(List), member(W, List), atom(W) ), Words)
    ;   Words = []
    ).

% parley_name_labels(+Module, -Labels): the labels of the name_keywords/1 facts Module defines itself.
parley_name_labels(Module, Labels) :-
    (   current_predicate(Module:name_keywords/1), \+ predicate_property(Module:name_keywords(_), imported_from(_))
    ->  findall(L, ( clause(Module:name_keywords(L), true), atom(L) ), Labels)
    ;   Labels = []
    ).

% ---- the property keys rules read -----------------------------------------
% The view holds the properties (g_prop, g_eprop) of the keys some rule reads, not every key: at 1M facts of
% the bench graphs a fifth of them are timestamps and dates no rule reads as properties (valid_time/2 reads
% g_valid). parley_read_keys/2 finds the keys a consulted module reads in its clauses, the bridge keeps their
% union (engine/prolog/bridge.ts viewKeys) and parley_goal_keys/3 those of a goal solved directly. A key that
% a rule computes, or one a caller passes in from outside (a predicate WHERE may call), cannot be read off
% the text: then every key is kept (all).
%
% key_reader(Module, Name, Arity, Position): a goal Name/Arity reads the key at argument Position. prop/2 is the
% condition filter_ids/3 and the growth of kept sets take; a term of these names with fewer arguments is a
% closure (maplist(prop(Id), Keys, Values)), its key read from where it is called unless it holds it.
% parley_key_reader(Module, Name, Arity, Position): the predicates of a consulted module that pass a key from their
% head to one of these. parley_goal_passer(Module, Name, Arity, Position): those that call the term at argument
% Position of their head (pass it to a meta-argument: call/N, maplist/N), so a reader's name a query gives there
% reads keys. A module sees its own and those of the modules it imports (the helper library it adopts).
:- dynamic parley_key_reader/4, parley_goal_passer/4.
key_reader(_, Name, Arity, Position) :- base_key_reader(Name, Arity, Position).
key_reader(Module, Name, Arity, Position) :- module_key_reader(Module, Name, Arity, Position).
module_key_reader(Module, Name, Arity, Position) :- seen_module(Module, M), parley_key_reader(M, Name, Arity, Position).
module_goal_passer(Module, Name, Arity, Position) :- seen_module(Module, M), parley_goal_passer(M, Name, Arity, Position).
seen_module(Module, Module).
seen_module(Module, Imported) :- import_module(Module, Imported).
base_key_reader(prop, 3, 2).      base_key_reader(prop, 2, 1).
base_key_reader(g_prop, 3, 2).    base_key_reader(g_eprop, 3, 2).
base_key_reader(sum_prop, 3, 2).  base_key_reader(nodes_where, 4, 2).

% parley_read_keys(+Module, -Keys): the sorted keys Module's clauses read, or all: also when a predicate WHERE may
% call (one its header exports, or any when it has none: engine/prolog/registry.ts) passes a key from its head to a
% reader, as the key then comes from a query.
parley_read_keys(Module, Keys) :-
    findall(Head-Body, module_clause(Module, Head, Body), Clauses),
    module_reads(Module, Clauses, Reads),
    parley_exports(Module, Exports),
    (   member(Head-_, Clauses), functor(Head, Name, Arity), parley_key_reader(Module, Name, Arity, _),
        ( Exports == none -> true ; memberchk(Name/Arity, Exports) )
    ->  Keys = all
    ;   reads_keys(Reads, Keys)
    ).

% parley_goal_keys(+Module, +GoalText, -Keys): the keys a goal given as text reads (all: any key; a goal that
% does not parse reads none)
parley_goal_keys(Module, Text, Keys) :-
    (   catch(term_string(Goal, Text, [module(Module)]), _, fail)
    ->  parley_reader_names(Module, Names),
        findall(Read, clause_read(Module, Names, goal, Goal, Read), Reads), reads_keys(Reads, Keys)
    ;   Keys = []
    ).

% parley_call_keys(+Module, +GoalText, -Keys): the keys a call from a query (WHERE: its arguments atoms and numbers)
% reads beyond those of the predicate's clauses: all when it passes a reader's name to an argument the predicate
% calls, else none (an argument that is a key makes the predicate's module all already: parley_read_keys/2)
parley_call_keys(Module, Text, Keys) :-
    (   catch(term_string(Goal, Text, [module(Module)]), _, fail), compound(Goal),
        parley_reader_names(Module, Names), arg(At, Goal, Arg), atom(Arg), memberchk(Arg, Names), calls_argument(Module, Goal, At)
    ->  Keys = all
    ;   Keys = []
    ).

% parley_reader_names(+Module, -Names): the names of the key readers Module sees, the base ones included
parley_reader_names(Module, Names) :- findall(Name, key_reader(Module, Name, _, _), Found), sort(Found, Names).

module_clause(Module, Head, Body) :-
    current_predicate(Module:Name/Arity), functor(Head, Name, Arity),
    \+ predicate_property(Module:Head, imported_from(_)), \+ predicate_property(Module:Head, foreign),
    catch(clause(Module:Head, Body), _, fail).

% module_reads(+Module, +Clauses, -Reads): what the clauses read (clause_read/5), once every predicate of theirs that passes
% a key from its head to a key reader is one (a reader found makes the clauses read again: its callers read keys)
module_reads(Module, Clauses, Reads) :-
    parley_reader_names(Module, Names),
    findall(Head-Read, ( member(Head-Body, Clauses), clause_read(Module, Names, Head, Body, Read) ), Found),
    (   member(Head-var(Position), Found), functor(Head, Name, Arity), \+ parley_key_reader(Module, Name, Arity, Position)
    ->  forall(( member(H-var(P), Found), functor(H, N, A), \+ parley_key_reader(Module, N, A, P) ), assertz(parley_key_reader(Module, N, A, P))),
        module_reads(Module, Clauses, Reads)
    ;   member(Head-called(Position), Found), functor(Head, Name, Arity), \+ parley_goal_passer(Module, Name, Arity, Position)
    ->  forall(( member(H-called(P), Found), functor(H, N, A), \+ parley_goal_passer(Module, N, A, P) ), assertz(parley_goal_passer(Module, N, A, P))),
        module_reads(Module, Clauses, Reads)
    ;   findall(Read, ( member(_-Read, Found), Read \= called(_) ), Reads)
    ).

reads_keys(Reads, Keys) :-
    (   memberchk(all, Reads) -> Keys = all
    ;   findall(Key, member(key(Key), Reads), Found), sort(Found, Keys)
    ).

% clause_read(+Module, +ReaderNames, +Head, +Body, -Read): what a key read in the clause (in its body, or in a term its head
% holds, a filter condition in a fact) is: key(Key), an atom; var(Position), the head's argument at Position; all
% (a key computed, or a reader's name as an atom: call(prop, ...), maplist(Reader, Keys, Values)). A key left
% unbound in nodes_where/4, its only occurrence, reads no property (the nodes of the label). called(Position):
% the clause calls the head's argument at Position.
clause_read(Module, Names, Head, Body, Read) :-
    ( compound(Head) -> compound_name_arguments(Head, _, Args) ; Args = [] ),
    (   reader_subterm(Names, Args, [], none, Found)
    ;   reader_subterm(Names, Body, [], none, Found)
    ),
    term_read(Found, Module, Head-Body, Head, Read).

% reader_subterm(+ReaderNames, +Term, +Listed, +Place, -Found): found(Sub, Listed, Place) for each subterm Sub of Term
% named as a key reader (parley_reader_names/2), or a variable written in an argument (which may call it), not
% looking into predicate indicators (g_prop/3 names the predicate, calls it not). Listed: the member(Pattern, List)
% goals run before Sub, conjuncts left of it in a conjunction it is in (their List binds a key of Pattern,
% whatever is read after). Place: at(Parent, Argument), where Sub is written.
reader_subterm(_, Term, Listed, Place, found(Term, Listed, Place)) :- var(Term), !, Place = at(_, _).
reader_subterm(Names, Term, Listed, Place, found(Term, Listed, Place)) :- atom(Term), !, memberchk(Term, Names).
reader_subterm(Names, (Left, Right), Listed, _, Found) :- !,
    (   reader_subterm(Names, Left, Listed, none, Found)
    ;   conjuncts(Left, Goals), include(listing_member, Goals, Members), append(Members, Listed, Before),
        reader_subterm(Names, Right, Before, none, Found)
    ).
reader_subterm(Names, Term, Listed, Place, Found) :-
    compound(Term), \+ ( Term = Name/Arity, atom(Name), integer(Arity) ),
    (   compound_name_arity(Term, Name, _), memberchk(Name, Names), Found = found(Term, Listed, Place)
    ;   arg(At, Term, Arg), reader_subterm(Names, Arg, Listed, at(Term, At), Found)
    ).

conjuncts((Left, Right), Goals) :- !, conjuncts(Left, Ls), conjuncts(Right, Rs), append(Ls, Rs, Goals).
conjuncts(Goal, [Goal]).

listing_member(Goal) :- compound(Goal), Goal = member(_, List), ground(List), is_list(List).


% term_read(+Found, +Module, +Clause, +Head, -Read)
term_read(found(Term, _, Place), Module, _, Head, called(At)) :-
    var(Term), !, compound(Head), arg(At, Head, HeadArg), HeadArg == Term, Place = at(Parent, Position),
    calls_argument(Module, Parent, Position), !.
term_read(found(Term, _, _), _, _, _, all) :- atom(Term), !.
term_read(found(Term, Listed, Place), Module, Clause, Head, Read) :-
    compound_name_arity(Term, prop, 2), !,
    % prop(Key, Value), a condition, or prop(Id, Key), prop/3's closure: a condition where filter_ids/3 takes it, a
    % closure where a meta-argument adds one argument (call(prop(Id, Key), V)); else either, both arguments read as
    % keys (a term bound to a variable may be called later or filter later)
    (   closure_place(Module, Place, 1) -> key_read(Term, 2, Listed, Clause, Head, Read)
    ;   condition_place(Module, Place) -> key_read(Term, 1, Listed, Clause, Head, Read)
    ;   ( Position = 1 ; Position = 2 ), key_read(Term, Position, Listed, Clause, Head, Read)
    ).
term_read(found(Term, Listed, _), Module, Clause, Head, Read) :-
    compound_name_arity(Term, Name, Arity),
    (   key_reader(Module, Name, Arity, Position) -> true
    ;   key_reader(Module, Name, Full, Position), Arity < Full
    ),
    (   Arity < Position -> Read = all
    ;   key_read(Term, Position, Listed, Clause, Head, Read)
    ).

% key_read(+Term, +Position, +Listed, +Clause, +Head, -Read): what the key at Term's argument Position is
key_read(Term, Position, Listed, Clause, Head, Read) :-
    arg(Position, Term, Key),
    (   atom(Key) -> Read = key(Key)
    ;   var(Key), compound(Head), arg(At, Head, HeadArg), HeadArg == Key -> Read = var(At)
    ;   var(Key), functor(Term, nodes_where, 4), occurrences_of_var(Key, Clause, 1) -> fail
    ;   var(Key), listed_keys(Key, Listed, Keys) -> member(One, Keys), Read = key(One)
    ;   Read = all
    ).

% closure_place(+Module, +Place, +Added): Place is a meta-argument that calls its term with Added more arguments
closure_place(Module, at(Parent, At), Added) :-
    nonvar(Parent), catch(predicate_property(Module:Parent, meta_predicate(Spec)), _, fail), arg(At, Spec, Added),
    ( integer(Added) ; Added == (^) ).

% calls_argument(+Module, +Goal, +Position): Goal calls its argument at Position (with or without more arguments)
calls_argument(Module, Goal, Position) :-
    (   closure_place(Module, at(Goal, Position), _) -> true
    ;   functor(Goal, Name, Arity), module_goal_passer(Module, Name, Arity, Position) -> true
    ).

% condition_place(+Module, +Place): Place is the condition of the library's filter_ids/3 (not one Module defines)
condition_place(Module, at(Parent, 2)) :-
    nonvar(Parent), Parent = filter_ids(_, _, _),
    \+ ( current_predicate(Module:filter_ids/3), \+ predicate_property(Module:filter_ids(_, _, _), imported_from(_)) ).

% listed_keys(+Key, +Listed, -Keys): the atoms Key takes from a list a member/2 goal run before binds it to
% (member(T-K, [role-mediator, actor_type-court]), nodes_where('Actor', T, K, As))
listed_keys(Key, Listed, Keys) :-
    member(member(Pattern, List), Listed), occurrences_of_var(Key, Pattern, 1), !,
    findall(K, ( member(Element, List), copy_term(Key-Pattern, K-Element) ), Keys),
    maplist(atom, Keys).

% parley_index_words(+Words): the words the text index now covers.
parley_index_words(Words) :- forall(( member(W, Words), \+ g_indexed(W) ), assertz(g_indexed(W))).

% one adder per kind of fact, each asserting its own functor: building each fact with =../2 made
% the assertions some 60% dearer (the hand-over asserts some 160k facts at 100k facts)
% add_nodes(+View, +Nodes, +Valid): the flat lists of parley_add_facts/9, both in the order of the nodes (a node's
% labels one after another), each node's valid time in the fact of its first label (g_node/3); a valid time of a
% node with no label (validate.ts refuses one) has no fact to be held in, and is an error, not a valid time lost
add_nodes(_, [], Valid) :- ( Valid = [Id | _] -> domain_error(labelled_node, Id) ; true ).
add_nodes(V, [Id, Label | T], Valid) :-
    (   Valid = [Id, Date, Days | More] -> assertz(V:g_node(Id, Label, v(Date, Days)))
    ;   assertz(V:g_node(Id, Label, [])), More = Valid
    ),
    add_nodes(V, T, More).
add_props(_, []).
add_props(V, [Id, Key, Value | T]) :- assertz(V:g_prop(Id, Key, Value)), add_props(V, T).
add_eprops(_, []).
add_eprops(V, [Id, Key, Value | T]) :- assertz(V:g_eprop(Id, Key, Value)), add_eprops(V, T).
add_texts(_, []).
add_texts(V, [Id, Lower | T]) :- assertz(V:g_text(Id, Lower)), add_texts(V, T).
add_mentions(_, []).
add_mentions(V, [Word, Id | T]) :- assertz(V:g_mention(Word, Id)), add_mentions(V, T).
add_edges(_, []).
add_edges(V, [Id, Type, From, To, Confidence, Role | T]) :- assertz(V:g_edge(Id, Type, From, To, Confidence, Role)), add_edges(V, T).
% (an addition may link a node the view held, whose sources an earlier edge handed over)
add_sources(_, []).
add_sources(V, [Id, Source | T]) :- ( V:g_source(Id, Source) -> true ; assertz(V:g_source(Id, Source)) ), add_sources(V, T).
