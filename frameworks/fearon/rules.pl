% Fearon's bargaining theory of war (1995): war is costly, so rational parties should prefer a
% bargain; they fight when one of three mechanisms keeps them from finding or keeping one.
%   commitment problem   a party cannot be trusted to keep a deal: a dated Commitment claim of an
%                        actor followed (dated later) by an ASSAULT or COERCE event it perpetrates,
%                        or by a Denial claim of its own
%   information problem  the parties hold, and have reasons to misrepresent, different beliefs
%                        about strength and resolve: CONTRADICTS edges between claims about
%                        casualties, strength, troops, fighters... that the evidence leaves
%                        disputed (lib/argumentation.pl: neither side outweighs the other); or
%                        one side's Denial about such figures, not rejected, against the other
%                        side's claims about them
% Findings do not rest on accounts the weighed evidence rejects: a rejected commitment, attack or
% denial breaks no pledge, a rejected denial is no rival account.
%   indivisibility       the stake cannot be split: RedLine claims of both sides of an opposing
%                        pair about the same Issue (ABOUT), or naming the same place or
%                        indivisible stake (sovereignty, independence, capital, holy site...)
% Helpers of this module are prefixed fe_.

:- module(fearon, [indicator/3, strength/3, present/2, missing/1, finding/5, keywords/2]).

% its keyword lists stand beside the rules that read them
:- discontiguous keywords/2.

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: bargaining failure is between parties') :-
    \+ nodes_where('Actor', _, _, [_, _ | _]).
missing('no opposing parties: no OPPOSES edge, hostile event or hostile claim shows who bargains against whom') :-
    hostile_actor_pairs([]).
missing('no claims: commitments, red lines and rival accounts are read from what the parties say') :-
    nodes_where('Claim', _, _, []).

% ---- indicators -------------------------------------------------------------

indicator(commitments, 0.5, 'commitments made: Commitment claims (pledges of ceasefire, withdrawal, elections...)').
indicator(broken_commitments, 1, 'commitments broken: a Commitment followed by an ASSAULT or COERCE its maker perpetrates, or by a Denial of its own').
indicator(contradicting_accounts, 1, 'contradicting accounts of strength or casualties: CONTRADICTS edges between claims about casualties, losses, troops, fighters or strength that the evidence leaves disputed').
indicator(rival_accounts, 0.5, 'rival accounts: a side''s Denial about casualties or strength, not rejected, against the other side''s claims about them').
indicator(red_lines, 0.5, 'red lines on both sides: RedLine claims by both sides of an opposing pair').
indicator(indivisible_stake, 1, 'an indivisible stake: RedLines of both sides about the same Issue (ABOUT) or the same place or stake').

% what the mechanisms rest on is computed once per call (fe_ctx), and every indicator read from it
present(Name, Ids) :- fe_ctx(Ctx), fe_present(Name, Ctx, Ids), nonempty(Ids).

fe_present(commitments, _, Ids) :- claims_of_type('Commitment', Ids).
fe_present(broken_commitments, c(_, Bs, _, _, _, _), Ids) :- fe_break_ids(Bs, Ids).
fe_present(contradicting_accounts, c(_, _, Ids, _, _, _), Ids).
fe_present(rival_accounts, c(_, _, _, Rs, _, _), Ids) :- findall(E, member(ra(_, E), Rs), L), append(L, I0), sort(I0, Ids).
fe_present(red_lines, c(_, _, _, _, Ps, _), Ids) :- findall(E, (member(rl(_, _, RA, RB), Ps), append(RA, RB, E)), L), append(L, I0), sort(I0, Ids).
fe_present(indivisible_stake, c(_, _, _, _, _, Is), Ids) :- findall(E, member(ind(_, _, _, E), Is), L), append(L, I0), sort(I0, Ids).

% fe_ctx(-c(Pairs, Breaks, Contradictions, RivalAccounts, RedLinePairs, Indivisible)): what the indicators and findings
% read, its mechanisms each kept for the view apart (view_set/3), with what it reads, and put together at each call (a
% context kept whole too would hold every part twice): the commitments and the accounts read the argumentation
% statuses (an attack, or a Document that is an argument's source, added anywhere can change them) and the dates, and
% grow only at a write that moves neither; the stakes read neither, and grow (added_answer/4 below)
fe_ctx(c(Pairs, Breaks, Contra, Rivals, RLPairs, Indiv)) :-
    hostile_actor_pairs(Pairs), view_set(fe_breaks, fe_breaks, Breaks), view_set(fe_accounts, fe_accounts, Contra-Rivals),
    fe_stakes(st(RLPairs, Keyed)), pairs_values(Keyed, Indiv).

fe_accounts(Contra-Rivals) :- fe_contradictions(Contra), fe_rival_accounts(Rivals).

% fe_stakes(-st(RedLinePairs, Indivisible)): the red line pairs and the indivisible stakes, each stake keyed in their
% order (fe_indivisible/2), kept for the view
fe_stakes(Stakes) :- view_set(fe_stakes, fe_stakes_, Stakes).
fe_stakes_(st(RLPairs, Keyed)) :- fe_red_line_pairs(RLPairs), fe_indivisible(RLPairs, Keyed).

% ---- commitment problems --------------------------------------------------------

% fe_breaks(-Breaks): br(Actor-Commitment, Later) for each commitment followed by the maker's violence (ASSAULT,
% COERCE it perpetrates) or Denial claims, sorted by Actor-Commitment (a growth puts a commitment's break in place of
% its old one by that key: added_answer/4 below)
fe_breaks(Breaks) :-
    claims_by_actor('Commitment', Makers), Makers \== [], !,
    events_of_type('ASSAULT', A), perpetrators(A, ByA), events_of_type('COERCE', C), perpetrators(C, ByC),
    claims_of_type('Denial', Ds0), keywords(fe_pledge_words, PW), mentioning(Ds0, PW, Ds1), fe_contradicting_commitments(Ds2),
    append(Ds1, Ds2, Ds3), sort(Ds3, Ds), speakers(Ds, ByDenial),
    % one pass over the four Actor-Ids lists (sorted by actor): each maker's commitments and later acts
    findall(K-t(T, Ids), ( member(T-G, [c-Makers, a-ByA, b-ByC, d-ByDenial]), member(K-Ids, G) ), L), msort(L, Sorted),
    collect_tagged(Sorted, r([], []), fe_fill, Recs),
    fe_record_breaks(Recs, Breaks).
fe_breaks([]).

% fe_record_breaks(+Records, -Breaks): the breaks of each Maker-r(Commitments, Acts) of Records (sorted by maker)
fe_record_breaks(Recs, Breaks) :-
    findall(br(M-Cm, Later),
            ( member(M-r(Cs0, Acts0), Recs), Cs0 \== [], Acts0 \== [], not_rejected(Cs0, Cs), Cs \== [], not_rejected(Acts0, Acts), Acts \== [], id_days(Acts, Dated),
              member(Cm, Cs), days_before_reference(Cm, D), D >= 1,
              findall(X, ( member(X-DX, Dated), DX >= 0, DX < D ), Later), nonempty(Later) ),
            Breaks).

fe_fill(c, Ids, r(_, A), r(Ids, A)) :- !.
fe_fill(_, Ids, r(C, A0), r(C, A)) :- append(Ids, A0, A).

% the Denials that bear on a pledge: they speak of ceasefires, agreements, pledges, withdrawal...
keywords(fe_pledge_words, [ceasefire, 'cease-fire', truce, agreement, accord, ' deal', commit, pledge, promise, ' bind', 'bound', withdraw, elections, disarm]).

% Denials that a CONTRADICTS edge links to a Commitment (either way)
fe_contradicting_commitments(Ds) :-
    findall(D, ( edge(_, 'CONTRADICTS', X, Y, _), ( D = X, C = Y ; D = Y, C = X ), claim(D, 'Denial'), claim(C, 'Commitment') ), L), sort(L, Ds).

fe_break_ids(Bs, Ids) :- findall([C | L], member(br(_-C, L), Bs), L0), append(L0, I0), sort(I0, Ids).

% added_answer(fe_breaks, ...): the breaks grown with a write, where a write of a claim or an event had them found again
% whole (530k inferences at 1M facts). A maker's commitments and acts change only at its own edges (an ASSERTS or a
% PARTICIPATES_IN edge added ends at it: added_ends/2), each read from them, its breaks found again and put in place of
% its old ones by Actor-Commitment; the others are kept. A break is never lost while the statuses stand (a write only
% adds acts, and a commitment or act is rejected only by the weighed evidence): a write that may move the statuses
% anywhere (lib/argumentation.pl statuses_may_move/1: a CONTRADICTS or SUPPORTS edge added, or a Document that is an
% argument's source, whose reliability and host weigh it) has them found again whole, as does one that moves the
% reference date (lib/graph.pl unseen_changes/3)
added_answer(fe_breaks, Added, Breaks0, Breaks) :-
    \+ statuses_may_move(Added),
    added_ends(Added, Ends), keywords(fe_pledge_words, PW),
    findall(Rec, ( member(M, Ends), fe_own_record(M, PW, Rec) ), Recs),
    fe_record_breaks(Recs, New),
    ( New == [] -> Breaks = Breaks0 ; put_by_subject(Breaks0, New, Breaks) ).

% fe_own_record(+Maker, +PledgeWords, -Record): Maker-r(Commitments, Acts) as fe_breaks/1 collects it, read from the
% maker's own edges (own_claims/3, own_ends/5)
fe_own_record(M, PW, Rec) :-
    own_claims(M, 'Commitment', Cs), Cs \== [],
    own_ends(M, 'PARTICIPATES_IN', perpetrator, 'Event', Ps), filter_ids(Ps, prop(event_type, 'ASSAULT'), A), filter_ids(Ps, prop(event_type, 'COERCE'), C),
    own_claims(M, 'Denial', Ds0), own_mentioning(Ds0, PW, Ds1), include(fe_denies_commitment, Ds0, Ds2), append(Ds1, Ds2, Ds3), sort(Ds3, Ds),
    collect_tagged([M-t(a, A), M-t(b, C), M-t(c, Cs), M-t(d, Ds)], r([], []), fe_fill, [Rec]).

fe_denies_commitment(D) :- ( edge(_, 'CONTRADICTS', D, C, _) ; edge(_, 'CONTRADICTS', C, D, _) ), claim(C, 'Commitment'), !.

% ---- information problems -------------------------------------------------------

keywords(fe_strength_words, [casualt, killed, ' dead', deaths, 'death toll', wounded, losses, ' lost ', strength, troops, fighters, soldiers,
    brigades, battalions, weapons, missiles, capabilit, 'under control', 'in control', 'we control', 'we hold', 'still hold', resolve]).

% CONTRADICTS edges with a claim about strength or casualties at either end (the edges and the claims)
fe_contradictions(Ids) :-
    fe_strength_claims(Hits), findall(H-t, member(H, Hits), HL), list_to_assoc(HL, IsHit),
    findall([E, C1, C2], ( edge(E, 'CONTRADICTS', C1, C2, _), once(( get_assoc(C1, IsHit, _) ; get_assoc(C2, IsHit, _) )), once(( disputed(C1) ; disputed(C2) )) ), L),
    append(L, I0), sort(I0, Ids).

% the claims about strength or casualties
fe_strength_claims(Hits) :- keywords(fe_strength_words, W), nodes_mentioning('Claim', W, Hits).

% fe_rival_accounts(-Rs): ra(A-B, Ids) for opposing pairs where both speak of strength or casualties and one of them
% denies (a Denial claim among them), sorted by A-B (a growth puts a pair's in place of its old one by that key)
fe_rival_accounts(Rs) :-
    fe_strength_claims(Hits), Hits \== [], !,
    speakers(Hits, Groups), hostile_pairs_among(Groups, Both),
    fe_pair_accounts(Both, Rs).
fe_rival_accounts([]).

% fe_pair_accounts(+Pairs, -Rs): the rival accounts of the p(A, B, ClaimsOfA, ClaimsOfB) of Pairs (sorted by A-B)
fe_pair_accounts(Pairs, Rs) :-
    findall(ra(A-B, Ids),
            ( member(p(A, B, SA, SB), Pairs), append(SA, SB, I0), sort(I0, Ids), filter_ids(Ids, prop(type, 'Denial'), Denials), not_rejected(Denials, [_|_]) ),
            Rs).

% added_answer(fe_accounts, ...): the accounts grown with a write, where a write of a claim or an edge had them found
% again whole (260k inferences at 1M facts). The contradictions change only with a CONTRADICTS edge (a claim added has
% none but one the write adds) or the statuses, and so are kept; a pair's rival accounts change only with either
% side's claims about strength (an ASSERTS edge added from the side to such a claim) or when the write makes it a
% pair: the pairs of each speaker of such a claim asserted anew (its opponents read from its own edges, own_opponents/2,
% the other side's claims about strength from its own: a speaker may have hundreds of opponents, read only then) and
% the hostile pairs the write added are found again from each side's own claims, put in place of their old ones, the
% others kept (while the statuses stand, a write only adds: a pair's account, once found, stays). A write that may
% move the statuses (statuses_may_move/1) has them found again whole, as for the breaks
added_answer(fe_accounts, Added, Contra-Rivals0, Contra-Rivals) :-
    Added = added(_, _, Edges), \+ statuses_may_move(Added),
    added_ends(Added, _),   % within growth_node_limit/1 (lib/graph.pl), else found again whole
    keywords(fe_strength_words, W),
    edges_added(Edges, Es), findall(X, ( member(e('ASSERTS', X, C), Es), node(C, 'Claim'), own_mentioning([C], W, [_]) ), S0), sort(S0, Speakers),
    added_hostile_pairs(Added, AddedPairs),
    findall(A-B, ( member(X, Speakers), own_opponents(X, Ys), member(Y, Ys), order_pair(X, Y, A, B) ; member(A-B, AddedPairs) ), T0), sort(T0, Touched),
    findall(p(A, B, SA, SB), ( member(A-B, Touched), fe_own_strength_claims(A, W, SA), SA \== [], fe_own_strength_claims(B, W, SB), SB \== [] ), Pairs),
    fe_pair_accounts(Pairs, New),
    ( New == [] -> Rivals = Rivals0 ; put_by_subject(Rivals0, New, Rivals) ).

% fe_own_strength_claims(+X, +Words, -Claims): the claims about strength or casualties X asserts, read from its own edges
fe_own_strength_claims(X, W, Claims) :- own_ends(X, 'ASSERTS', _, 'Claim', Cs), own_mentioning(Cs, W, Claims).

% ---- indivisibility ---------------------------------------------------------------

keywords(fe_stake_words, [sovereign, independence, 'self-determination', capital, holy, sacred, shrine, temple, homeland, territor, autonomy, constitution]).
name_keywords('Location'). name_keywords('Issue').  % the places and issues fe_place_words/1 looks for, indexed by the bridge

% fe_red_line_pairs(-Ps): rl(A, B, RedLinesOfA, RedLinesOfB) for opposing pairs with red lines on both sides
fe_red_line_pairs(Ps) :-
    claims_by_actor('RedLine', Groups), Groups \== [], !,
    hostile_pairs_among(Groups, Both), findall(rl(A, B, RA, RB), member(p(A, B, RA, RB), Both), Ps).
fe_red_line_pairs([]).

% fe_indivisible(+RedLinePairs, -Is): Key-ind(A, B, Stake, Ids): both sides' red lines about the same Issue (Stake =
% the issue id) or naming the same place or stake (Stake = the word), in the order of Key: k(0, Issue, A, B) for an
% issue, then k(1, WordKey, A, B) for the first word (in the order of fe_stake_words/1) of a pair with no issue.
% WordKey names the word, not its position among the words: a place or issue added moves every later position, and
% would have every stake found again, where a key that names the word lets a write add the stakes on its new names
fe_indivisible(Ps, Is) :-
    Ps \== [], !,
    claims_of_type('RedLine', R), group_by_edge(R, 'ABOUT', out, _, ByIssue),
    findall(k(0, I, A, B)-ind(A, B, I, Ids),
            ( member(I-[C1, C2 | Cs], ByIssue), speakers([C1, C2 | Cs], Sp), fe_pair_in(Sp, A, B, Ids0), Ids = [I | Ids0] ),
            ByAbout),
    findall((A-B)-true, member(k(_, _, A, B)-_, ByAbout), AboutPairs0), sort(AboutPairs0, AboutPairs), list_to_assoc(AboutPairs, About),
    fe_stake_words(Words), fe_word_names(Words, Names), mentioning_each(R, Names, Hits), fe_word_hits(Words, Hits, WordHits),
    findall(k(1, Key, A, B)-ind(A, B, Stake, Ids),
            ( member(h(Key, Word, Stake, [H1, H2 | Hs]), WordHits), speakers([H1, H2 | Hs], Sp),
              fe_pair_in(Sp, A, B, Ids0), \+ get_assoc(A-B, About, _), fe_stake_ids(Word, Stake, Ids0, Ids) ),
            ByWord0),
    fe_first_per_pair(ByWord0, ByWord),
    append(ByAbout, ByWord, Is).
fe_indivisible(_, []).

% fe_stake_words(-Words): w(Key, Word, Stake) for the names of places and issues (fe_place_words/1, Key place(Word,
% Node)), then the stake words (Key word(Position, Word), their order fixed by the keyword list): the keys sort in the
% order of the list, and none moves when a place or issue is added
fe_stake_words(Words) :-
    fe_place_words(PlaceWords), keywords(fe_stake_words, Stakes), findall(w(word(N, W), W, W), nth1(N, Stakes, W), StakeWords),
    append(PlaceWords, StakeWords, Words).

fe_word_names([], []).
fe_word_names([w(_, W, _) | Words], [W | Names]) :- fe_word_names(Words, Names).

fe_stake_ids(Word, Stake, Ids0, Ids) :- ( Stake == Word -> Ids = Ids0 ; Ids = [Stake | Ids0] ).

% added_answer(+Key, +Added, +Answer, -Grown): the stakes grown with a write (lib/graph.pl grown/3), where a write of a
% claim or an edge had them found again whole. A pair's red lines and stakes change only with the red lines of either
% side (a RedLine added, or one held given an ASSERTS or ABOUT edge: the write's ends, added_ends/2) or when the write
% makes it a pair: the pairs of each speaker of such a red line (its opponents read from its own edges,
% own_opponents/2) and the hostile pairs the write added are found again, from each side's own red lines, the others
% kept. A place or issue added is a new word (its name), which only the pairs whose both sides' red lines name it may
% take (the first word of a pair whose stake was on a later word): those pairs are found again too; the other stakes
% keep their keys, which name their words (fe_indivisible/2). A growth is offered new nodes only (lib/graph.pl grown/3):
% a place written again with another name has the stakes found again whole. A write that touches a red line while a pair kept has sides that share one has
% the stakes found again whole: its stake on that red line's issue or word needs a second red line there from anyone
% (fe_indivisible/2), which a third party's gives without touching the pair; a write that touches no red line adds none.
added_answer(fe_stakes, Added, st(Pairs0, Keyed0), st(Pairs, Keyed)) :-
    Added = added(Nodes, _, _),
    added_ends(Added, Ends), findall(C, ( member(C, Ends), claim(C, 'RedLine') ), RedLines),
    findall(S, ( member(C, RedLines), edge(_, 'ASSERTS', S, C, _) ), S0), sort(S0, Changed),
    added_hostile_pairs(Added, AddedPairs), fe_place_pairs(Nodes, PlacePairs),
    findall(A-B, ( member(X, Changed), own_opponents(X, Ys), member(Y, Ys), order_pair(X, Y, A, B) ; member(A-B, AddedPairs) ; member(A-B, PlacePairs) ), T0),
    sort(T0, Touched),
    exclude(fe_touched_pair(Touched), Pairs0, KeptPairs),
    ( RedLines == [] -> true ; \+ ( member(rl(_, _, SA, SB), KeptPairs), \+ ord_disjoint(SA, SB) ) ),
    exclude(fe_touched_pair(Touched), Keyed0, KeptKeyed),
    findall(rl(A, B, RA, RB), ( member(A-B, Touched), own_claims(A, 'RedLine', RA), RA \== [], own_claims(B, 'RedLine', RB), RB \== [] ), New),
    fe_sides_stakes(New, Sides), foldl(fe_pair_stakes(Sides), New, NewKeyed, []),
    append(KeptPairs, New, P1), sort(P1, Pairs),
    append(KeptKeyed, NewKeyed, K1), sort(K1, Keyed).

% fe_place_pairs(+Nodes, -Pairs): the pairs whose stake the places and issues among the nodes added (the flat list of
% added/3) may change: those whose both sides' red lines name one (two red lines naming it, as fe_indivisible/2 asks),
% the claims that name one read from the text index (nodes_mentioning/3, a few), not from the mentions of every red
% line (some 130k inferences at 1M facts)
fe_place_pairs(Nodes, Pairs) :-
    findall(W, ( fe_node_written(Nodes, Id, Label), memberchk(Label, ['Location', 'Issue']), fe_place_word(Id, W) ), W0), sort(W0, Names),
    (   Names == [] -> Pairs = []
    ;   nodes_mentioning('Claim', Names, Named), filter_ids(Named, prop(type, 'RedLine'), R), mentioning_each(R, Names, Hits),
        findall(A-B, ( member(_-[H1, H2 | Hs], Hits), speakers([H1, H2 | Hs], Sp), fe_pair_in(Sp, A, B, _) ), Pairs)
    ).

fe_node_written([Id, Label | _], Id, Label).
fe_node_written([_, _ | Rest], Id, Label) :- fe_node_written(Rest, Id, Label).

fe_touched_pair(Touched, rl(A, B, _, _)) :- memberchk(A-B, Touched).
fe_touched_pair(Touched, k(_, _, A, B)-_) :- memberchk(A-B, Touched).

% fe_sides_stakes(+RedLinePairs, -Sides): each side's issues and words, read once for all its pairs (a speaker of
% hundreds of red lines has as many pairs): Side-s(IssueGroups, WordHits) by side, and the words. Without pairs it is
% none, read by no fe_pair_stakes/4, so a write that touches no pair does not walk the names of every place for words
fe_sides_stakes([], none) :- !.
fe_sides_stakes(Pairs, sides(Index, Words)) :-
    fe_stake_words(Words), fe_word_names(Words, Names),
    findall(X-RX, ( member(rl(A, B, RA, RB), Pairs), ( X-RX = A-RA ; X-RX = B-RB ) ), L0), sort(L0, L),
    findall(X-s(G, H), ( member(X-RX, L), group_by_edge(RX, 'ABOUT', out, _, G), mentioning_each(RX, Names, H) ), Stakes),
    list_to_assoc(Stakes, Index).

% fe_pair_stakes(+Sides, +RedLinePair, -Keyed, ?Tail): the stakes of one pair as fe_indivisible/2 keys them (a
% difference list): its issues, else its first word. A stake resting on one red line both sides assert may count
% other speakers' red lines (fe_indivisible/2 asks for two red lines among all): the growth then fails, the stakes
% found again whole
fe_pair_stakes(sides(Index, Words), rl(A, B, _, _), Keyed, Tail) :-
    get_assoc(A, Index, s(GA, HA)), get_assoc(B, Index, s(GB, HB)),
    findall(k(0, I, A, B)-ind(A, B, I, [I | Ids0]), ( member(I-CA, GA), memberchk(I-CB, GB), append(CA, CB, Ids0) ), About),
    (   About = [_|_] -> forall(member(_-ind(_, _, _, [_ | Ids0]), About), fe_two(Ids0)), append(About, Tail, Keyed)
    ;   fe_first_word(Words, HA, HB, w(Key, Word, Stake), CA, CB)
    ->  append(CA, CB, Ids0), fe_two(Ids0), fe_stake_ids(Word, Stake, Ids0, Ids), Keyed = [k(1, Key, A, B)-ind(A, B, Stake, Ids) | Tail]
    ;   Keyed = Tail
    ).

fe_two(Ids) :- sort(Ids, [_, _ | _]).

fe_first_word([W | Words], [_-CA0 | HA], [_-CB0 | HB], Word, CA, CB) :-
    (   CA0 = [_|_], CB0 = [_|_] -> Word = W, CA = CA0, CB = CB0
    ;   fe_first_word(Words, HA, HB, Word, CA, CB)
    ).

% fe_word_hits(+Words, +Hits, -WordHits): h(Key, Word, Stake, RedLinesNamingIt) for each w(Key, Word, Stake), read
% beside its hits
fe_word_hits([], [], []).
fe_word_hits([w(Key, Word, Stake) | Words], [Word-Ids | Hits], [h(Key, Word, Stake, Ids) | WordHits]) :- fe_word_hits(Words, Hits, WordHits).

% fe_pair_in(+Speakers, -A, -B, -Ids): an opposing pair with red lines (of fe_red_line_pairs/1) whose both
% sides are among the speakers (Actor-Claims, sorted) of a set of red lines; Ids are their claims in the set.
% Every speaker of a red line has red lines, so these are the hostile pairs among the speakers: read from
% each speaker's opponents (a few), in the pairs' order (A @< B, by A then B), not by a walk of every pair
% with red lines for each issue and word
fe_pair_in(Sp, A, B, Ids) :-
    member(A-CA, Sp), opponents(A, Bs), member(B, Bs), A @< B, memberchk(B-CB, Sp), append(CA, CB, Ids).

% one stake word per pair is enough: the first one, in order
fe_first_per_pair(Is, Kept) :- empty_assoc(Seen), fe_first_per_pair(Is, Seen, Kept).
fe_first_per_pair([], _, []).
fe_first_per_pair([K-ind(A, B, W, Ids) | Rest], Seen, Kept) :-
    (   get_assoc(A-B, Seen, _)
    ->  fe_first_per_pair(Rest, Seen, Kept)
    ;   put_assoc(A-B, Seen, true, Seen1), Kept = [K-ind(A, B, W, Ids) | Kept1], fe_first_per_pair(Rest, Seen1, Kept1)
    ).

% names of places (cities, regions, sites: not countries) and issues, lower case, each with its node, as
% w(place(Word, Node), Word, Node) (fe_stake_words/1): a stake both sides may claim
fe_place_words(Words) :-
    nodes_where('Location', _, _, Ls), nodes_where('Issue', _, _, Is), append(Ls, Is, Nodes),
    findall(w(place(W, Id), W, Id), ( member(Id, Nodes), fe_place_word(Id, W) ), W0),
    sort(W0, Words).

fe_place_word(Id, W) :- \+ prop(Id, location_type, country), label(Id, Lab), atom(Lab), downcase_atom(Lab, W), atom_length(W, N), N >= 3.

fe_stake_text(Stake, Text) :- node(Stake, 'Issue'), !, label(Stake, L), atomic_list_concat(['the issue "', L, '"'], Text).
fe_stake_text(Stake, Text) :- node(Stake, 'Location'), !, label(Stake, Text).
fe_stake_text(Stake, Text) :- atomic_list_concat(['"', Stake, '"'], Text).

% ---- findings -------------------------------------------------------------------

% every finding is read from the context computed once per call
finding(Key, Value, Sentence, Evidence, Because) :- fe_ctx(Ctx), fe_finding(Key, Ctx, Value, Sentence, Evidence, Because).

fe_finding(commitment_problem, Ctx, Answer, Sentence, Evidence, Because) :- fe_commitment(Ctx, Answer, Sentence, Evidence, Because).
fe_finding(information_problem, Ctx, Answer, Sentence, Evidence, Because) :- fe_information(Ctx, Answer, Sentence, Evidence, Because).
fe_finding(indivisibility, Ctx, Answer, Sentence, Evidence, Because) :- fe_indivisibility(Ctx, Answer, Sentence, Evidence, Because).
fe_finding(rational_explanation, Ctx, Mechanisms, Sentence, Evidence, [Rule | Mechanisms]) :-
    findall(M-E, ( member(M, [commitment_problem, information_problem, indivisibility]), fe_mechanism(M, Ctx, yes, _, E, _) ), Found),
    findall(M, member(M-_, Found), Mechanisms),
    findall(E, member(_-E, Found), L), append(L, E0), sort(E0, Evidence0),
    ( Evidence0 == [] -> fe_pair_evidence(Ctx, Evidence) ; Evidence = Evidence0 ),
    length(Mechanisms, N),
    atomic_list_concat(['Fearon''s rationalist explanations of war are private information with incentives to misrepresent, commitment problems and issue indivisibility; ',
        N, ' of the three show in the graph'], Rule),
    fe_mechanisms_text(Mechanisms, Sentence).

fe_mechanism(commitment_problem, Ctx, A, S, E, B) :- fe_commitment(Ctx, A, S, E, B).
fe_mechanism(information_problem, Ctx, A, S, E, B) :- fe_information(Ctx, A, S, E, B).
fe_mechanism(indivisibility, Ctx, A, S, E, B) :- fe_indivisibility(Ctx, A, S, E, B).

fe_mechanism_text(commitment_problem, 'a commitment problem (pledges are not credible)').
fe_mechanism_text(information_problem, 'an information problem (rival beliefs about strength and resolve)').
fe_mechanism_text(indivisibility, 'an indivisible stake').

fe_mechanisms_text([], S) :- !,
    join(['None of Fearon''s three mechanisms shows in the graph: no broken commitment, no contradicting accounts of strength, no indivisible stake. The failure to bargain is not explained by the evidence at hand.'], S).
fe_mechanisms_text(Ms, S) :-
    findall(T, (member(M, Ms), fe_mechanism_text(M, T)), Ts), list_text(Ts, Text),
    join(['Fearon''s bargaining theory explains the failure to settle by ', Text, '.'], S).

fe_pair_evidence(c(Pairs, _, _, _, _, _), Ids) :- findall(E, (member(A-B, Pairs), pair_evidence(A, B, E)), L), append(L, I0), sort(I0, Ids).

fe_commitment(c(_, Bs, _, _, _, _), yes, Sentence, Evidence, ['a commitment problem shows when a party''s Commitment is followed by its own violence or denial', broken_commitments, commitments]) :-
    Bs \== [], !,
    fe_break_ids(Bs, Evidence),
    findall(A, member(br(A-_, _), Bs), As0), sort(As0, As),
    join(['Commitment problem: ', As, ' made commitments and then acted against them (violence they carried out, or denials, dated after the pledge), so no pledge is credible.'], Sentence).
fe_commitment(Ctx, no, Sentence, Evidence, ['a commitment problem needs a Commitment followed by its maker''s violence or denial' | Inds]) :-
    claims_of_type('Commitment', Cs),
    (   Cs \== []
    ->  Evidence = Cs, Inds = [commitments],
        join(['No commitment problem shows: the commitments made (', Cs, ') are not followed by violence or denials of their makers.'], Sentence)
    ;   fe_pair_evidence(Ctx, Evidence), Inds = [],
        join(['No commitment problem shows: no party has made a commitment that could be broken.'], Sentence)
    ).

fe_information(c(_, _, C, Rs, _, _), yes, Sentence, Evidence, ['an information problem shows in contradicting accounts of strength or casualties' | Inds]) :-
    findall(E, member(ra(_, E), Rs), L), append([C | L], E0), sort(E0, Evidence),
    Evidence \== [], !,
    findall(I, (member(I-X, [contradicting_accounts-C, rival_accounts-Rs]), X \== []), Inds),
    findall(X, (member(ra(A-B, _), Rs), member(X, [A, B])), P0), fe_speakers_of_contradictions(C, P1), append(P0, P1, P2), sort(P2, Parties),
    ( Parties == [] -> Who = 'The parties' ; join([Parties], Who) ),
    join(['Information problem: ', Who, ' give contradicting accounts of casualties or strength; each has reason to misrepresent, so they cannot agree on who would win.'], Sentence).
fe_information(Ctx, no, Sentence, Evidence, ['an information problem needs contradicting accounts of strength or casualties (CONTRADICTS edges, or a Denial against the other side''s figures)']) :-
    fe_pair_evidence(Ctx, Evidence),
    join(['No information problem shows: no contradicting accounts of casualties or strength between the parties.'], Sentence).

fe_speakers_of_contradictions(Ids, Actors) :- filter_ids(Ids, kind('Claim'), Cs), speakers(Cs, G), findall(A, member(A-_, G), Actors).

fe_indivisibility(c(_, _, _, _, _, Is), yes, Sentence, Evidence, ['indivisibility shows when red lines of opposing parties meet on the same issue or place', indivisible_stake, red_lines]) :-
    Is \== [], !,
    findall(E, member(ind(_, _, _, E), Is), L), append(L, E0), sort(E0, Evidence),
    Is = [ind(A, B, Stake, _) | _], fe_stake_text(Stake, StakeText),
    join(['Indivisibility: ', [A, B], ' both draw red lines on ', StakeText, ', a stake neither will split.'], Sentence).
fe_indivisibility(Ctx, no, Sentence, Evidence, ['indivisibility needs RedLines of both sides of an opposing pair about the same Issue or place' | Inds]) :-
    Ctx = c(_, _, _, _, Ps, _),
    (   Ps \== []
    ->  findall(E, (member(rl(_, _, RA, RB), Ps), append(RA, RB, E)), L), append(L, E0), sort(E0, Evidence), Inds = [red_lines],
        join(['No indivisible stake shows: both sides draw red lines, but on different issues.'], Sentence)
    ;   claims_of_type('RedLine', R), ( R \== [] -> Evidence = R ; fe_pair_evidence(Ctx, Evidence) ), Inds = [],
        join(['No indivisible stake shows: red lines are not drawn by both sides of an opposing pair.'], Sentence)
    ).


% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% the more of the three mechanisms of bargaining failure hold, the stronger the reading
strength(rational_explanation-Ms, Score, Ids) :-
    finding(rational_explanation, Ms, _, Ids, _), length(Ms, N), W is 0.15 + 0.25 * N, reading_strength(W, Ids, Score).
