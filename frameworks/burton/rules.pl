% Burton, human needs theory (1990): protracted conflicts are driven by frustrated
% basic human needs (identity, security, recognition, participation), which, unlike
% interests, no party will trade away. Where such needs are at stake, bargaining fails
% and the needs must be met (analytical problem-solving, "provention").
%   threatened need: a Grievance or RedLine claim whose text names the need (keyword
%                    lists below), by the actor who asserts it; an Interest of
%                    interest_type identity, security or recognition an actor holds
%   bargainable:     no when a need is at stake; yes when grievances, red lines and
%                    interests name none
% Needs are read from whole sets: mentioning/3 over the Grievance and RedLine claims,
% speakers/2 for who asserts them, group_by_edge/5 for who holds which interests.

% ---- applies --------------------------------------------------------------

missing('no grievances, red lines or interests: needs are read from what parties complain of (Grievance), refuse to give up (RedLine) or hold (HOLDS_INTEREST)') :-
    bn_sources([]), nodes_where('Interest', _, _, []).

% ---- indicators -------------------------------------------------------------

indicator(identity_need, 1, 'identity named in Grievance or RedLine claims (identity, culture, language, religion, ethnicity, heritage), or identity interests held').
indicator(security_need, 1, 'security named in Grievance or RedLine claims (security, safety, survival, attacks, protection, killings), or security interests held').
indicator(recognition_need, 1, 'recognition named in Grievance or RedLine claims (recognition, respect, dignity, status), or recognition interests held').
indicator(participation_need, 1, 'participation named in Grievance or RedLine claims (participation, representation, exclusion, vote, voice, elections)').
indicator(grievances, 0.5, 'grievances voiced (Grievance claims)').
indicator(red_lines, 0.5, 'conditions declared non-negotiable (RedLine claims)').

present(Indicator, Ids) :-
    bn_indicator(Indicator, Need), bn_need_ids(Need, Ids), nonempty(Ids).
present(grievances, Ids) :- claims_of_type('Grievance', Ids), nonempty(Ids).
present(red_lines, Ids) :- claims_of_type('RedLine', Ids), nonempty(Ids).

bn_indicator(identity_need, identity).
bn_indicator(security_need, security).
bn_indicator(recognition_need, recognition).
bn_indicator(participation_need, participation).

% the needs, in the order findings list them
bn_need(identity). bn_need(security). bn_need(recognition). bn_need(participation).

bn_words(identity, ['identity', 'culture', 'cultural', 'language', 'mother tongue', 'religion', 'religious', 'faith', 'ethnic', 'heritage', 'traditions']).
bn_words(security, ['security', 'safety', 'survival', 'attack', 'protect', 'killed', 'killing', 'massacre', 'fear for our lives']).
bn_words(recognition, ['recognition', 'recognise', 'recognize', 'respect', 'dignity', 'status', 'acknowledge', 'humiliat']).
bn_words(participation, ['participation', 'participate', 'represent', 'exclude', 'exclusion', ' vote', 'voting', 'voice', 'inclusion', 'election']).

% ---- the sets it reads ----------------------------------------------------------------

% bn_sources(-Ids): Grievance and RedLine claims.
bn_sources(Ids) :- claims_of_type('Grievance', G), claims_of_type('RedLine', R), append(G, R, L), sort(L, Ids).

% bn_claims(+Need, -Hits): the Grievance and RedLine claims that name Need.
bn_claims(Need, Hits) :- bn_sources(Cs), bn_words(Need, Words), mentioning(Cs, Words, Hits).

% bn_interests(+Need, -Interests): the Interest nodes whose interest_type is Need.
bn_interests(participation, []) :- !.
bn_interests(Need, Is) :- nodes_where('Interest', interest_type, Need, Is).

% bn_need_ids(+Need, -Ids): claims naming Need and interests of that type that someone holds.
bn_need_ids(Need, Ids) :-
    bn_claims(Need, Cs), bn_interests(Need, Is0), group_by_edge(Is0, 'HOLDS_INTEREST', in, _, G),
    findall(I, (member(_-AIs, G), member(I, AIs)), Is), append(Cs, Is, L), sort(L, Ids).

% bn_threatened(-Groups): (Actor-Need)-[c(Claim) or i(Interest, Edge)...], sorted.
bn_threatened(Groups) :-
    findall((A-N)-c(C), (bn_need(N), bn_claims(N, Cs), speakers(Cs, G), member(A-ACs, G), member(C, ACs)), L1),
    findall((A-N)-i(I, E), (bn_need(N), bn_interests(N, Is), group_by_edge(Is, 'HOLDS_INTEREST', in, _, G), member(A-AIs, G), member(I, AIs), bn_holding_edge(A, I, E)), L2),
    append(L1, L2, L0), sort(L0, Sorted), bn_group(Sorted, Groups).

bn_holding_edge(A, I, E) :- edge(E, 'HOLDS_INTEREST', A, I, _), !.

% bn_group(+SortedPairs, -Groups): K-V pairs sorted by key, as K-[V...] groups.
bn_group([], []).
bn_group([K-V|T], [K-[V|Vs]|Gs]) :- bn_take(K, T, Vs, Rest), bn_group(Rest, Gs).
bn_take(K, [K1-V|T], [V|Vs], Rest) :- K1 == K, !, bn_take(K, T, Vs, Rest).
bn_take(_, Rest, [], Rest).

% bn_at_stake(-Needs, -Ids): the needs named or held anywhere (attributed or not), and the ids.
bn_at_stake(Needs, Ids) :-
    findall(N-NIds, (bn_need(N), bn_need_ids(N, NIds), NIds \== []), Pairs),
    findall(N, member(N-_, Pairs), Needs),
    findall(Id, (member(_-NIds, Pairs), member(Id, NIds)), L), sort(L, Ids).

% ---- query-callable ------------------------------------------------------------------

% threatened_need(?A, ?Need): A names Need as threatened, or holds it as an interest.
threatened_need(A, Need) :- bn_threatened(Groups), member((A-Need)-_, Groups).

% ---- findings ------------------------------------------------------------------------

finding(threatened_need, [A, Need], Sentence, Evidence, [Indicator, Rule]) :-
    bn_threatened(Groups), member((A-Need)-Items, Groups), bn_indicator(Indicator, Need),
    findall(C, member(c(C), Items), Cs), findall(X, (member(i(I, E), Items), (X = I ; X = E)), Is),
    append([[A], Cs, Is], E0), sort(E0, Evidence),
    length(Cs, NC), findall(I, member(i(I, _), Items), Interests),
    (   Interests == []
    ->  Rule = 'a need is threatened when a Grievance or RedLine claim of the actor names it',
        join([[A], '''s need for ', Need, ' is threatened: its grievances or red lines name it (claims: ', NC, ').'], Sentence)
    ;   NC =:= 0
    ->  Rule = 'an interest of type identity, security or recognition an actor holds is one of its basic needs',
        join([[A], '''s need for ', Need, ' is at stake: it holds it as an interest (', Interests, ').'], Sentence)
    ;   Rule = 'a need is threatened when a Grievance or RedLine claim of the actor names it, or it holds it as an interest',
        join([[A], '''s need for ', Need, ' is threatened: its grievances or red lines name it (claims: ', NC, '), and it holds it as an interest (', Interests, ').'], Sentence)
    ).

finding(bargainable, Value, Sentence, Evidence, Because) :-
    bn_at_stake(Needs, Ids),
    (   Needs \== []
    ->  Value = no, Evidence = Ids, atomic_list_concat(Needs, ', ', NeedText),
        findall(I, (member(N, Needs), bn_indicator(I, N)), Indicators),
        append(Indicators, ['such needs are non-negotiable, so bargaining over them fails'], Because),
        join(['Basic needs are at stake (', NeedText, '): such needs are non-negotiable, so bargaining over them fails. ',
              'Burton calls for analytical problem-solving that finds ways to meet every party''s needs rather than trading them.'], Sentence)
    ;   Value = yes, bn_sources(Cs), nodes_where('Interest', _, _, Is), append(Cs, Is, E0), sort(E0, Evidence),
        findall(I, (member(I, [grievances, red_lines]), present(I, _)), Indicators),
        append(Indicators, ['no grievance, red line or interest names identity, security, recognition or participation, so what is at stake can be bargained over'], Because),
        join(['The grievances, red lines and interests name no basic need (identity, security, recognition, participation): ',
              'what divides the parties are interests, which can be bargained over.'], Sentence)
    ).
