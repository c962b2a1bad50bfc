% Deutsch's theory of cooperation and competition (1949, 1973): whether the parties' moves
% promote each other's goals (cooperative process) or obstruct them (competitive process),
% and which way the process is moving.
%   cooperative moves   AGREE, COOPERATE, AID events; Offer and Concession claims
%   competitive moves   THREATEN, COERCE, ASSAULT events; Threat and Accusation claims
%   per pair            events link the actors who take part (perpetrator and target, perpetrator
%                       and participant, or two participants; mediators are not a side); claims
%                       link speaker and target (TARGETS)
%   mode                cooperative when cooperative moves are at least twice the competitive
%                       ones, competitive when competitive moves are at least twice the
%                       cooperative ones, mixed otherwise
%   trend               the cooperative share of the recent window (180 days before the reference
%                       date) against the window before: a change of 0.2 or more; when one window
%                       has no moves, which kind of move rises
% Moves are counted type by type (a count is one step: count_ids/2) and whole sets are never
% concatenated: evidence lists the most recent moves of each type (up to 10). Helpers of this
% module are prefixed dt_.

:- module(deutsch, [indicator/3, strength/3, present/2, missing/1, finding/5, rank/3, ranks/1]).

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: cooperation and competition are relations between parties') :-
    \+ nodes_where('Actor', _, _, [_, _ | _]).
missing('no cooperative or competitive moves: no AGREE, COOPERATE, AID, THREATEN, COERCE or ASSAULT events and no Offer, Concession, Threat or Accusation claims') :-
    \+ dt_any_move.

% ---- indicators -------------------------------------------------------------

indicator(cooperative_events, 1, 'cooperative deeds: AGREE, COOPERATE and AID events').
indicator(cooperative_claims, 1, 'cooperative words: Offer and Concession claims').
indicator(competitive_events, 1, 'competitive deeds: THREATEN, COERCE and ASSAULT events').
indicator(competitive_claims, 1, 'competitive words: Threat and Accusation claims').
indicator(paired_moves, 0.5, 'moves between two actors: events with two sides taking part, claims aimed (TARGETS) at an actor').
indicator(shift, 0.5, 'a shift in the process: the cooperative share of moves changes between the window before and the recent window').

present(Name, Ids) :- dt_present(Name, Ids), nonempty(Ids).

dt_present(cooperative_events, Ids) :- dt_sample(coop, event, Ids).
dt_present(cooperative_claims, Ids) :- dt_sample(coop, claim, Ids).
dt_present(competitive_events, Ids) :- dt_sample(comp, event, Ids).
dt_present(competitive_claims, Ids) :- dt_sample(comp, claim, Ids).
dt_present(paired_moves, Ids) :- once(( dt_type(_, Node, T), dt_ids(Node, T, All), All \== [], dt_link(Node, All, _, _, L), take(10, L, Ids) )).
dt_present(shift, Ids) :- dt_trend(T, Ids, _, _), T \== stable.

% ---- moves ---------------------------------------------------------------------

% dt_type(?Kind, ?Node, ?Type)
dt_type(coop, event, 'AGREE'). dt_type(coop, event, 'COOPERATE'). dt_type(coop, event, 'AID').
dt_type(coop, claim, 'Offer'). dt_type(coop, claim, 'Concession').
dt_type(comp, event, 'THREATEN'). dt_type(comp, event, 'COERCE'). dt_type(comp, event, 'ASSAULT').
dt_type(comp, claim, 'Threat'). dt_type(comp, claim, 'Accusation').

dt_ids(event, T, Ids) :- events_of_type(T, Ids).
dt_ids(claim, T, Ids) :- claims_of_type(T, Ids).

dt_any_move :- dt_type(_, Node, T), dt_ids(Node, T, [_|_]), !.

% dt_few(+Ids, -Few): up to 10 ids, the recent ones first
dt_few(Ids, Few) :- recent_ids(Ids, R), ( R == [] -> take(10, Ids, Few) ; take(10, R, Few) ).

% dt_totals(-NCoop, -NComp): how many moves of each kind
dt_totals(C, K) :-
    findall(N, (dt_type(coop, Node, T), dt_ids(Node, T, Ids), count_ids(Ids, N)), Cs), sum_list(Cs, C),
    findall(N, (dt_type(comp, Node, T), dt_ids(Node, T, Ids), count_ids(Ids, N)), Ks), sum_list(Ks, K).

% dt_sample(+Kind, +Node, -Ids): the evidence for the moves of one kind and node: up to 10 per type
dt_sample(Kind, Node, Ids) :- findall(F, (dt_type(Kind, Node, T), dt_ids(Node, T, All), dt_few(All, F)), L), append(L, I0), sort(I0, Ids).
dt_sample_all(Ids) :- findall(F, (dt_type(_, Node, T), dt_ids(Node, T, All), dt_few(All, F)), L), append(L, I0), sort(I0, Ids).

% ---- pairs ----------------------------------------------------------------------

% dt_link(+Node, +Ids, -X, -Y, -Linked): the moves of Ids linking X and Y (X @< Y), one answer per
% linked ordered pair and side combination
dt_link(event, Ids, X, Y, L) :-
    link_pairs(Ids, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', target), Ps), member(p(P, Q, L), Ps), order_pair(P, Q, X, Y).
dt_link(event, Ids, X, Y, L) :-
    link_pairs(Ids, in('PARTICIPATES_IN', perpetrator), in('PARTICIPATES_IN', participant), Ps), member(p(P, Q, L), Ps), order_pair(P, Q, X, Y).
dt_link(event, Ids, P, Q, L) :-
    link_pairs(Ids, in('PARTICIPATES_IN', participant), in('PARTICIPATES_IN', participant), Ps), member(p(P, Q, L), Ps), P @< Q.
dt_link(claim, Ids, X, Y, L) :-
    link_pairs(Ids, in('ASSERTS'), out('TARGETS'), Ps), member(p(P, Q, L), Ps), order_pair(P, Q, X, Y).

% dt_pair_moves(-Pairs): pm(A, B, NCoop, NComp, Evidence) for each pair of actors with moves between
% them (A @< B); Evidence holds up to 5 moves per type and side combination
% (computed once per graph view, and kept with view_set/3: read without the copy a table makes)
dt_pair_moves(Pairs) :- view_set(dt_pair_moves, dt_pair_moves0, Pairs).

% ranks(-Table): the candidates of rank/3 as a ranking table (lib/conflict.pl rank_table/2), kept with view_set/3
% apart from the pairs (their readers need not copy it) and grown with them, so that the ranking after a write no
% longer scores every pair again (150k inferences at 1M facts after an ingest-like write)
ranks(Table) :- view_set(dt_ranks, dt_ranks_, Table).
dt_ranks_(Table) :- dt_pair_moves(Pairs), dt_scored(Pairs, Scored), rank_entries(Scored, Table).

% dt_scored(+Pairs, -Scored): the Key-Subject-Score candidates of the pairs (rank/3's)
dt_scored(Pairs, Scored) :- findall(pair_interaction-(A-B)-N, ( member(P, Pairs), dt_rank(P, A, B, N) ), Scored).
dt_rank(pm(A, B, C, K, _), A, B, N) :- N is C + K.
dt_pair_moves0(Pairs) :-
    findall(X-Y-m(Kind, N, Few), ( dt_type(Kind, Node, T), dt_ids(Node, T, Ids), Ids \== [],
                                   dt_link(Node, Ids, X, Y, L), count_ids(L, N), take(5, L, Few) ), Ms),
    msort(Ms, Sorted), dt_fold(Sorted, Pairs).

dt_fold([], []).
dt_fold([X-Y-M | Rest], [pm(X, Y, C, K, Ev) | Pairs]) :-
    dt_add(M, 0, 0, [], C0, K0, E0), dt_fold_same(X, Y, Rest, C0, K0, E0, C, K, E1, Rest1), sort(E1, Ev), dt_fold(Rest1, Pairs).
dt_fold_same(X, Y, [X-Y-M | Rest], C0, K0, E0, C, K, E, Out) :- !, dt_add(M, C0, K0, E0, C1, K1, E1), dt_fold_same(X, Y, Rest, C1, K1, E1, C, K, E, Out).
dt_fold_same(_, _, Rest, C, K, E, C, K, E, Rest).
dt_add(m(coop, N, F), C0, K, E0, C, K, E) :- C is C0 + N, append(F, E0, E).
dt_add(m(comp, N, F), C, K0, E0, C, K, E) :- K is K0 + N, append(F, E0, E).

% added_parts(dt_pair_moves, +Added, +Pairs, -Puts): the pairs a move at an end of an edge added links (a move added,
% or a move held given a side: added_ends/2) found again from the moves the two sides share, and put in place of the old
% (replaced/2: a changed pair the growth no longer finds is taken out); the other pairs have the moves they had. Found
% again whole after every write of a claim or an event before (640k inferences at 1M facts); a pair's moves are read from
% its sides' own edges, not from every move of each side (some 300k inferences for the two actors of the graph the
% bench's write touches). Kept in parts by the pair's two ends (parted_answer/2, lib/graph.pl), as the ranking is by its
% Key-Subject, so that a write stores the parts of its pairs, not the 450k cells of every pair's moves at 1M facts.
parted_answer(dt_pair_moves, list(1-2)).
added_parts(dt_pair_moves, Added, _, replaced(Changed, New)) :- dt_grown_pairs(Added, Changed, New).
% the ranking takes the candidates of those pairs in place of theirs, and drops those of the changed pairs the growth no
% longer finds (none under the growth contract: a pair a write changes has the move that changed it, and as many moves or
% more; test/prolog/grown-answers.test.ts checks it, and replaced/2 keeps the table right were it to happen)
parted_answer(dt_ranks, list(4)).
added_parts(dt_ranks, Added, _, replaced(Gone, Table)) :-
    dt_grown_pairs(Added, Changed, New), dt_scored(New, Scored), rank_entries(Scored, Table),
    findall(A-B, member(pm(A, B, _, _, _), New), Found), ord_subtract(Changed, Found, Lost),
    findall(pair_interaction-P, member(P, Lost), Gone).

% dt_grown_pairs(+Added, -Changed, -New): the pairs (X-Y) a move at an end of an edge added links, and their records
% found again, once a write for both growths (write_memo/3)
dt_grown_pairs(Added, Changed, New) :- write_memo(dt_grown_pairs, Changed-New, dt_grown_pairs_(Added, Changed, New)).
dt_grown_pairs_(Added, Changed, New) :-
    added_ends(Added, Touched),
    findall(X-Y, ( dt_touched_moves(Touched, Events, Claims), dt_type(_, Node, T), dt_own_ids(Node, T, Events, Claims, Ids), Ids \== [],
                   dt_link(Node, Ids, X, Y, _) ), Found),
    sort(Found, Changed),
    findall(X-Y-M, ( member(X-Y, Changed), dt_pair_move(X, Y, M) ), Ms),
    msort(Ms, Sorted), dt_fold(Sorted, New).

dt_touched_moves(Touched, Events, Claims) :- filter_ids(Touched, kind('Event'), Events), filter_ids(Touched, kind('Claim'), Claims).

% dt_pair_move(+X, +Y, -Move): the moves of each type between X and Y (X @< Y), as dt_pair_moves0/1 finds them, from
% the events both take part in and the claims one asserts and aims at the other
dt_pair_move(X, Y, m(Kind, N, Few)) :-
    dt_own_moves(X, EX, AX, TX), dt_own_moves(Y, EY, AY, TY),
    ord_intersection(EX, EY, Events), ord_intersection(AX, TY, C1), ord_intersection(AY, TX, C2), ord_union(C1, C2, Claims),
    dt_type(Kind, Node, T), dt_own_ids(Node, T, Events, Claims, Ids), Ids \== [],
    dt_link(Node, Ids, X1, Y1, L), X1 == X, Y1 == Y,
    count_ids(L, N), take(5, L, Few).

% dt_own_moves(+Z, -Events, -Asserted, -Aimed): Z's events (any role), the claims it asserts and those aimed at it,
% each sorted, read once per write (write_memo/3)
dt_own_moves(Z, Events, Asserted, Aimed) :- write_memo(dt_own_moves(Z), Events-Asserted-Aimed, dt_own_moves_(Z, Events, Asserted, Aimed)).
dt_own_moves_(Z, Events, Asserted, Aimed) :-
    own_ends(Z, 'PARTICIPATES_IN', _, 'Event', Events), own_ends(Z, 'ASSERTS', _, 'Claim', Asserted),
    findall(C, ( edge(_, 'TARGETS', C, Z, _), node(C, 'Claim') ), Aimed0), sort(Aimed0, Aimed).

dt_own_ids(event, T, Events, _, Ids) :- filter_ids(Events, prop(event_type, T), Ids).
dt_own_ids(claim, T, _, Claims, Ids) :- filter_ids(Claims, prop(type, T), Ids).

% dt_mode(+NCoop, +NComp, -Mode)
dt_mode(C, K, cooperative) :- C > 0, C >= 2 * K, !.
dt_mode(C, K, competitive) :- K > 0, K >= 2 * C, !.
dt_mode(_, _, mixed).

dt_mode_text(cooperative, 'cooperative').
dt_mode_text(competitive, 'competitive').
dt_mode_text(mixed, 'mixed: cooperative and competitive moves in comparable measure').

dt_adverb(cooperative, 'cooperatively').
dt_adverb(competitive, 'competitively').
dt_adverb(mixed, 'in a mixed way').

% ---- trend ----------------------------------------------------------------------

% dt_window_counts(+From, +To, -NCoop, -NComp, -Few): moves of each kind dated From..To days before the
% reference date, and up to 10 of them per type
dt_window_counts(From, To, C, K, Few) :-
    findall(Kind-N-F, ( dt_type(Kind, Node, T), dt_ids(Node, T, All), filter_ids(All, window(From, To), Ids),
                        count_ids(Ids, N), take(10, Ids, F) ), L),
    findall(N, member(coop-N-_, L), Cs), sum_list(Cs, C),
    findall(N, member(comp-N-_, L), Ks), sum_list(Ks, K),
    findall(F, member(_-_-F, L), Fs), append(Fs, Few).

% dt_trend(-Trend, -Evidence, -Rule, -Sentence): which way the process moves
dt_trend(Trend, Evidence, Rule, Sentence) :- findall(t(T, E, R, S), dt_trend0(T, E, R, S), [t(Trend, Evidence, Rule, Sentence)]).
dt_trend0(Trend, Evidence, Rule, Sentence) :-
    recent_window(W), W1 is W + 1, W2 is 2 * W,
    dt_window_counts(0, W, NCR, NKR, FR), dt_window_counts(W1, W2, NCE, NKE, FE),
    append(FR, FE, E0), sort(E0, Evidence), nonempty(Evidence),
    NR is NCR + NKR, NE is NCE + NKE,
    (   NR > 0, NE > 0
    ->  ShareR is NCR / NR, ShareE is NCE / NE, Diff is ShareR - ShareE,
        ( Diff >= 0.2 -> Trend = towards_cooperation ; Diff =< -0.2 -> Trend = towards_competition ; Trend = stable ),
        PR is round(ShareR * 100), PE is round(ShareE * 100),
        atomic_list_concat(['the trend compares the cooperative share of moves in the recent window (', PR, '%) with the window before (', PE,
            '%); a change of 20 points or more counts'], Rule),
        dt_trend_text(Trend, Lead),
        recent_window(Days), join([Lead, ' cooperative moves are ', PR, '% of the ', NR, ' moves in the last ', Days, ' days, against ', PE, '% of the ', NE, ' in the ', Days, ' days before.'], Sentence)
    ;   trend_of(NCR, NCE, TC), trend_of(NKR, NKE, TK),
        (   TC == rising, TK \== rising -> Trend = towards_cooperation
        ;   TK == rising, TC \== rising -> Trend = towards_competition
        ;   Trend = stable
        ),
        atomic_list_concat(['with moves in only one of the two windows, the trend is which kind of move rises: cooperative ', TC, ', competitive ', TK], Rule),
        dt_trend_text(Trend, Lead),
        recent_window(Days), join([Lead, ' ', NCR, ' cooperative and ', NKR, ' competitive moves in the last ', Days, ' days, against ', NCE, ' and ', NKE, ' in the ', Days, ' days before.'], Sentence)
    ).

dt_trend_text(towards_cooperation, 'The process is moving towards cooperation:').
dt_trend_text(towards_competition, 'The process is moving towards competition:').
dt_trend_text(stable, 'The process is stable:').

% ---- findings -------------------------------------------------------------------

finding(interaction, Mode, Sentence, Evidence, [Rule | Inds]) :-
    dt_totals(C, K), dt_mode(C, K, Mode), dt_sample_all(Evidence),
    atomic_list_concat(['the interaction is cooperative when cooperative moves are at least twice the competitive ones, competitive when competitive moves are at least twice the cooperative ones; here ',
        C, ' against ', K], Rule),
    findall(I, (member(I-Kind-Node, [cooperative_events-coop-event, cooperative_claims-coop-claim, competitive_events-comp-event, competitive_claims-comp-claim]),
                dt_type(Kind, Node, T), dt_ids(Node, T, [_|_])), I0), sort(I0, Inds0), dt_keep_order(Inds0, Inds),
    dt_mode_text(Mode, Text),
    join(['The interaction between the parties is ', Text, ' (', C, ' cooperative moves against ', K, ' competitive ones).'], Sentence).
% per pair, ranked by the moves between the two: a run keeps its findings limit of them (kept/2)
rank(pair_interaction, A-B, N) :- dt_pair_moves(Pairs), member(P, Pairs), dt_rank(P, A, B, N).

finding(pair_interaction, [A, B, Mode], Sentence, Evidence, [Rule, paired_moves]) :-
    dt_pair_moves(Pairs), kept_member(pair_interaction, A-B, pm(A, B, C, K, Evidence), Pairs), dt_mode(C, K, Mode),
    atomic_list_concat(['a pair''s mode follows the same two-to-one rule over the moves between the two actors: ', C, ' cooperative, ', K, ' competitive'], Rule),
    dt_adverb(Mode, Adverb),
    join([[A, B], ' interact ', Adverb, ': ', C, ' cooperative and ', K, ' competitive moves between them.'], Sentence).
finding(trend, Trend, Sentence, Evidence, [Rule | Inds]) :-
    dt_trend(Trend, Evidence, Rule, Sentence),
    ( Trend == stable -> Inds = [] ; Inds = [shift] ).

dt_keep_order(Found, Inds) :-
    findall(I, (member(I, [cooperative_events, cooperative_claims, competitive_events, competitive_claims]), member(I, Found)), Inds).

% ---- strength: the fit (frameworks/README.md, "Fit"; the weights are in README.md, "Score") ----

% a cooperative relationship, or a turn towards cooperation, is Deutsch's reading; competition
% the escalation frameworks read as well
strength(interaction-M, Score, Ids) :- finding(interaction, M, _, Ids, _), dt_mode_weight(M, W), reading_strength(W, Ids, Score).
strength(trend-T, Score, Ids) :- finding(trend, T, _, Ids, _), dt_trend_weight(T, W), reading_strength(W, Ids, Score).

dt_mode_weight(cooperative, 0.8).
dt_mode_weight(competitive, 0.5).
dt_mode_weight(mixed, 0.4).
dt_trend_weight(towards_cooperation, 0.85).
dt_trend_weight(towards_competition, 0.6).
dt_trend_weight(stable, 0.3).
