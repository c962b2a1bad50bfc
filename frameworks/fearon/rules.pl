% Fearon's bargaining theory of war (1995): war is costly, so rational parties should prefer a
% bargain; they fight when one of three mechanisms keeps them from finding or keeping one.
%   commitment problem   a party cannot be trusted to keep a deal: a dated Commitment claim of an
%                        actor followed (dated later) by an ASSAULT or COERCE event it perpetrates,
%                        or by a Denial claim of its own
%   information problem  the parties hold, and have reasons to misrepresent, different beliefs
%                        about strength and resolve: CONTRADICTS edges between claims about
%                        casualties, strength, troops, fighters...; or one side's Denial about
%                        such figures against the other side's claims about them
%   indivisibility       the stake cannot be split: RedLine claims of both sides of an opposing
%                        pair about the same Issue (ABOUT), or naming the same place or
%                        indivisible stake (sovereignty, independence, capital, holy site...)
% Helpers of this module are prefixed fe_.

% ---- applies --------------------------------------------------------------

missing('fewer than two actors: bargaining failure is between parties') :-
    kind_count('Actor', N), N < 2.
missing('no opposing parties: no OPPOSES edge, hostile event or hostile claim shows who bargains against whom') :-
    \+ opposing_pair(_, _, _).
missing('no claims: commitments, red lines and rival accounts are read from what the parties say') :-
    kind_count('Claim', 0).

% ---- indicators -------------------------------------------------------------

indicator(commitments, 0.5, 'commitments made: Commitment claims (pledges of ceasefire, withdrawal, elections...)').
indicator(broken_commitments, 1, 'commitments broken: a Commitment followed by an ASSAULT or COERCE its maker perpetrates, or by a Denial of its own').
indicator(contradicting_accounts, 1, 'contradicting accounts of strength or casualties: CONTRADICTS edges between claims about casualties, losses, troops, fighters or strength').
indicator(rival_accounts, 0.5, 'rival accounts: a side''s Denial about casualties or strength against the other side''s claims about them').
indicator(red_lines, 0.5, 'red lines on both sides: RedLine claims by both sides of an opposing pair').
indicator(indivisible_stake, 1, 'an indivisible stake: RedLines of both sides about the same Issue (ABOUT) or the same place or stake').

present(commitments, Ids) :- claims_of_type('Commitment', Ids), nonempty(Ids).
present(broken_commitments, Ids) :- fe_breaks(Bs), fe_break_ids(Bs, Ids), nonempty(Ids).
present(contradicting_accounts, Ids) :- fe_contradictions(Ids), nonempty(Ids).
present(rival_accounts, Ids) :- fe_rival_accounts(Rs), findall(E, member(ra(_, _, E), Rs), L), append(L, I0), sort(I0, Ids), nonempty(Ids).
present(red_lines, Ids) :- fe_red_line_pairs(Ps), findall(E, (member(rl(_, _, RA, RB), Ps), append(RA, RB, E)), L), append(L, I0), sort(I0, Ids), nonempty(Ids).
present(indivisible_stake, Ids) :- fe_indivisible(Is), findall(E, member(ind(_, _, _, E), Is), L), append(L, I0), sort(I0, Ids), nonempty(Ids).

% ---- commitment problems --------------------------------------------------------

% fe_breaks(-Breaks): br(Actor, Commitment, Later) for each commitment followed by the maker's
% violence (ASSAULT, COERCE it perpetrates) or Denial claims
fe_breaks(Breaks) :-
    claims_by_actor('Commitment', Makers), Makers \== [], !,
    events_of_type('ASSAULT', A), events_of_type('COERCE', C), append(A, C, V), perpetrators(V, ByPerp),
    claims_of_type('Denial', Ds0), fe_pledge_words(PW), mentioning(Ds0, PW, Ds1), fe_contradicting_commitments(Ds2),
    append(Ds1, Ds2, Ds3), sort(Ds3, Ds), speakers(Ds, ByDenial),
    findall(br(M, Cm, Later),
            ( member(M-Cs, Makers), group_ids(M, ByPerp, VM), group_ids(M, ByDenial, DM), append(VM, DM, Acts), Acts \== [],
              member(Cm, Cs), days_before_reference(Cm, D), D >= 1, To is D - 1,
              filter_ids(Acts, window(0, To), Later), nonempty(Later) ),
            Breaks).
fe_breaks([]).

% the Denials that bear on a pledge: they speak of ceasefires, agreements, pledges, withdrawal...
fe_pledge_words([ceasefire, 'cease-fire', truce, agreement, accord, ' deal', commit, pledge, promise, ' bind', 'bound', withdraw, elections, disarm]).

% Denials that a CONTRADICTS edge links to a Commitment (either way)
fe_contradicting_commitments(Ds) :-
    findall(D, ( edge(_, 'CONTRADICTS', X, Y, _), ( D = X, C = Y ; D = Y, C = X ), claim(D, 'Denial'), claim(C, 'Commitment') ), L), sort(L, Ds).

fe_break_ids(Bs, Ids) :- findall([C | L], member(br(_, C, L), Bs), L0), append(L0, I0), sort(I0, Ids).

% ---- information problems -------------------------------------------------------

fe_strength_words([casualt, killed, ' dead', deaths, 'death toll', wounded, losses, ' lost ', strength, troops, fighters, soldiers,
    brigades, battalions, weapons, missiles, capabilit, 'under control', 'in control', 'we control', 'we hold', 'still hold', resolve]).

% CONTRADICTS edges with a claim about strength or casualties at either end (the edges and the claims)
fe_contradictions(Ids) :-
    findall(E-C1-C2, edge(E, 'CONTRADICTS', C1, C2, _), Es), Es \== [], !,
    findall(C, (member(_-C1-C2, Es), ( C = C1 ; C = C2 )), Cs0), sort(Cs0, Cs),
    fe_strength_words(W), mentioning(Cs, W, Hits),
    findall([E, C1, C2], (member(E-C1-C2, Es), ( member(C1, Hits) ; member(C2, Hits) )), L), append(L, I0), sort(I0, Ids).
fe_contradictions([]).

% fe_rival_accounts(-Rs): ra(A, B, Ids) for opposing pairs where both speak of strength or casualties
% and one of them denies (a Denial claim among them)
fe_rival_accounts(Rs) :-
    nodes_where('Claim', _, _, Cs), fe_strength_words(W), mentioning(Cs, W, Hits), Hits \== [], !,
    speakers(Hits, BySpeaker), claims_of_type('Denial', Denials),
    findall(ra(A, B, Ids),
            ( opposing_pair(A, B, _), group_ids(A, BySpeaker, SA), SA \== [], group_ids(B, BySpeaker, SB), SB \== [],
              append(SA, SB, I0), sort(I0, Ids), once((member(D, Ids), member(D, Denials))) ),
            Rs).
fe_rival_accounts([]).

% ---- indivisibility ---------------------------------------------------------------

fe_stake_words([sovereign, independence, 'self-determination', capital, holy, sacred, shrine, temple, homeland, territor, autonomy, constitution]).

% fe_red_line_pairs(-Ps): rl(A, B, RedLinesOfA, RedLinesOfB) for opposing pairs with red lines on both sides
fe_red_line_pairs(Ps) :-
    claims_by_actor('RedLine', BySpeaker), BySpeaker \== [], !,
    findall(rl(A, B, RA, RB),
            ( opposing_pair(A, B, _), group_ids(A, BySpeaker, RA), RA \== [], group_ids(B, BySpeaker, RB), RB \== [] ),
            Ps).
fe_red_line_pairs([]).

% fe_indivisible(-Is): ind(A, B, Stake, Ids): both sides' red lines about the same Issue (Stake = the
% issue id) or naming the same place or stake (Stake = the word)
fe_indivisible(Is) :-
    fe_red_line_pairs(Ps), Ps \== [], !,
    claims_of_type('RedLine', R), group_by_edge(R, 'ABOUT', out, _, ByIssue),
    findall(ind(A, B, I, Ids),
            ( member(rl(A, B, RA, RB), Ps), member(I-Cs, ByIssue),
              fe_common(Cs, RA, CA), CA \== [], fe_common(Cs, RB, CB), CB \== [], append([[I], CA, CB], Ids) ),
            ByAbout),
    fe_place_words(Places), fe_stake_words(Stakes), findall(W-W, member(W, Stakes), StakePairs), append(Places, StakePairs, Words),
    findall(ind(A, B, Stake, Ids),
            ( member(rl(A, B, RA, RB), Ps), \+ member(ind(A, B, _, _), ByAbout),
              member(Word-Stake, Words), mentioning(RA, [Word], HA), HA \== [], mentioning(RB, [Word], HB), HB \== [],
              ( Stake == Word -> append(HA, HB, Ids) ; append([[Stake], HA, HB], Ids) ) ),
            ByWord0),
    fe_first_per_pair(ByWord0, ByWord),
    append(ByAbout, ByWord, Is).
fe_indivisible([]).

fe_common(Xs, Ys, Zs) :- findall(X, (member(X, Xs), once(member(X, Ys))), Zs).

% one stake word per pair is enough
fe_first_per_pair([], []).
fe_first_per_pair([ind(A, B, W, Ids) | Rest], [ind(A, B, W, Ids) | Kept]) :-
    exclude(fe_same_pair(A, B), Rest, Others), fe_first_per_pair(Others, Kept).
fe_same_pair(A, B, ind(A, B, _, _)).

% names of places (cities, regions, sites: not countries) and issues, lower case, each with its node:
% a stake both sides may claim
fe_place_words(Words) :-
    nodes_where('Location', _, _, Ls), nodes_where('Issue', _, _, Is), append(Ls, Is, Nodes),
    findall(W-Id, ( member(Id, Nodes), \+ prop(Id, location_type, country), label(Id, Lab), atom(Lab), downcase_atom(Lab, W), atom_length(W, N), N >= 3 ), W0),
    sort(W0, Words).

fe_stake_text(Stake, Text) :- node(Stake, 'Issue'), !, label(Stake, L), atomic_list_concat(['the issue "', L, '"'], Text).
fe_stake_text(Stake, Text) :- node(Stake, 'Location'), !, label(Stake, Text).
fe_stake_text(Stake, Text) :- atomic_list_concat(['"', Stake, '"'], Text).

% ---- findings -------------------------------------------------------------------

finding(commitment_problem, Answer, Sentence, Evidence, Because) :- fe_commitment(Answer, Sentence, Evidence, Because).
finding(information_problem, Answer, Sentence, Evidence, Because) :- fe_information(Answer, Sentence, Evidence, Because).
finding(indivisibility, Answer, Sentence, Evidence, Because) :- fe_indivisibility(Answer, Sentence, Evidence, Because).
finding(rational_explanation, Mechanisms, Sentence, Evidence, [Rule | Mechanisms]) :-
    findall(M-E, ( member(M, [commitment_problem, information_problem, indivisibility]), fe_mechanism(M, yes, _, E, _) ), Found),
    findall(M, member(M-_, Found), Mechanisms),
    findall(E, member(_-E, Found), L), append(L, E0), sort(E0, Evidence0),
    ( Evidence0 == [] -> fe_pair_evidence(Evidence) ; Evidence = Evidence0 ),
    length(Mechanisms, N),
    atomic_list_concat(['Fearon''s rationalist explanations of war are private information with incentives to misrepresent, commitment problems and issue indivisibility; ',
        N, ' of the three show in the graph'], Rule),
    fe_mechanisms_text(Mechanisms, Sentence).

fe_mechanism(commitment_problem, A, S, E, B) :- fe_commitment(A, S, E, B).
fe_mechanism(information_problem, A, S, E, B) :- fe_information(A, S, E, B).
fe_mechanism(indivisibility, A, S, E, B) :- fe_indivisibility(A, S, E, B).

fe_mechanism_text(commitment_problem, 'a commitment problem (pledges are not credible)').
fe_mechanism_text(information_problem, 'an information problem (rival beliefs about strength and resolve)').
fe_mechanism_text(indivisibility, 'an indivisible stake').

fe_mechanisms_text([], S) :- !,
    join(['None of Fearon''s three mechanisms shows in the graph: no broken commitment, no contradicting accounts of strength, no indivisible stake. The failure to bargain is not explained by the evidence at hand.'], S).
fe_mechanisms_text(Ms, S) :-
    findall(T, (member(M, Ms), fe_mechanism_text(M, T)), Ts), fe_and(Ts, Text),
    join(['Fearon''s bargaining theory explains the failure to settle by ', Text, '.'], S).

fe_and([X], X) :- !.
fe_and([X, Y], T) :- !, atomic_list_concat([X, ' and ', Y], T).
fe_and([X | Xs], T) :- fe_and(Xs, R), atomic_list_concat([X, ', ', R], T).

fe_pair_evidence(Ids) :- findall(E, opposing_pair(_, _, E), L), append(L, I0), sort(I0, Ids).

fe_commitment(yes, Sentence, Evidence, ['a commitment problem shows when a party''s Commitment is followed by its own violence or denial', broken_commitments, commitments]) :-
    fe_breaks(Bs), Bs \== [], !,
    fe_break_ids(Bs, Evidence),
    findall(A, member(br(A, _, _), Bs), As0), sort(As0, As),
    join(['Commitment problem: ', As, ' made commitments and then acted against them (violence they carried out, or denials, dated after the pledge), so no pledge is credible.'], Sentence).
fe_commitment(no, Sentence, Evidence, ['a commitment problem needs a Commitment followed by its maker''s violence or denial' | Inds]) :-
    claims_of_type('Commitment', Cs),
    (   Cs \== []
    ->  Evidence = Cs, Inds = [commitments],
        join(['No commitment problem shows: the commitments made (', Cs, ') are not followed by violence or denials of their makers.'], Sentence)
    ;   fe_pair_evidence(Evidence), Inds = [],
        join(['No commitment problem shows: no party has made a commitment that could be broken.'], Sentence)
    ).

fe_information(yes, Sentence, Evidence, ['an information problem shows in contradicting accounts of strength or casualties' | Inds]) :-
    fe_contradictions(C), fe_rival_accounts(Rs), findall(E, member(ra(_, _, E), Rs), L), append([C | L], E0), sort(E0, Evidence),
    Evidence \== [], !,
    findall(I, (member(I-X, [contradicting_accounts-C, rival_accounts-Rs]), X \== []), Inds),
    findall(X, (member(ra(A, B, _), Rs), member(X, [A, B])), P0), fe_speakers_of_contradictions(C, P1), append(P0, P1, P2), sort(P2, Parties),
    ( Parties == [] -> Who = 'The parties' ; join([Parties], Who) ),
    join(['Information problem: ', Who, ' give contradicting accounts of casualties or strength; each has reason to misrepresent, so they cannot agree on who would win.'], Sentence).
fe_information(no, Sentence, Evidence, ['an information problem needs contradicting accounts of strength or casualties (CONTRADICTS edges, or a Denial against the other side''s figures)']) :-
    fe_pair_evidence(Evidence),
    join(['No information problem shows: no contradicting accounts of casualties or strength between the parties.'], Sentence).

fe_speakers_of_contradictions(Ids, Actors) :- filter_ids(Ids, kind('Claim'), Cs), speakers(Cs, G), findall(A, member(A-_, G), Actors).

fe_indivisibility(yes, Sentence, Evidence, ['indivisibility shows when red lines of opposing parties meet on the same issue or place', indivisible_stake, red_lines]) :-
    fe_indivisible(Is), Is \== [], !,
    findall(E, member(ind(_, _, _, E), Is), L), append(L, E0), sort(E0, Evidence),
    Is = [ind(A, B, Stake, _) | _], fe_stake_text(Stake, StakeText),
    join(['Indivisibility: ', [A, B], ' both draw red lines on ', StakeText, ', a stake neither will split.'], Sentence).
fe_indivisibility(no, Sentence, Evidence, ['indivisibility needs RedLines of both sides of an opposing pair about the same Issue or place' | Inds]) :-
    fe_red_line_pairs(Ps),
    (   Ps \== []
    ->  findall(E, (member(rl(_, _, RA, RB), Ps), append(RA, RB, E)), L), append(L, E0), sort(E0, Evidence), Inds = [red_lines],
        join(['No indivisible stake shows: both sides draw red lines, but on different issues.'], Sentence)
    ;   claims_of_type('RedLine', R), ( R \== [] -> Evidence = R ; fe_pair_evidence(Evidence) ), Inds = [],
        join(['No indivisible stake shows: red lines are not drawn by both sides of an opposing pair.'], Sentence)
    ).
