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
% Each base's moves are gathered per actor from whole sets (claims_by_actor, perpetrators,
% speakers of the claims that mention the keywords) into one sorted list grouped by actor.
% An actor's dominant base is the one with the most moves; ties go in the order of the
% literature: reward, coercive, legitimate, referent, expert, informational.

% ---- applies --------------------------------------------------------------

missing('no claims or events: power bases are read from what actors say and do') :-
    kind_count('Claim', 0), kind_count('Event', 0).
missing('no actor shows a power base: no threats, coercion or attacks, offers or aid, mandates or state standing, cited evidence or expertise, or community support') :-
    fr_items([]).

% ---- indicators -------------------------------------------------------------

indicator(coercive, 1, 'coercive power: Threat claims, COERCE and ASSAULT events an actor perpetrates').
indicator(reward, 1, 'reward power: Offer claims, AID events an actor perpetrates').
indicator(legitimate, 1, 'legitimate power: states, governments and international organisations; claims citing a mandate, the law, the constitution, an election or a resolution').
indicator(expert, 1, 'expert power: claims citing experts, specialists, studies or technical assessments').
indicator(informational, 1, 'informational power: claims citing reports, data, evidence, investigations or figures').
indicator(referent, 1, 'referent power: alliances (ALLIED_WITH) with community or civil-society actors; communities themselves').

present(Base, Ids) :-
    fr_base(Base), fr_base_items(Base, Items),
    findall(Id, member(_-b(_, Id), Items), L0), sort(L0, Ids), nonempty(Ids).

% the bases, in tie-break order
fr_base(reward). fr_base(coercive). fr_base(legitimate). fr_base(referent). fr_base(expert). fr_base(informational).

fr_words(legitimate, ['mandate', ' law', 'lawful', 'legal', 'constitution', 'elected', 'election', 'resolution', 'sovereign', 'legitimate']).
fr_words(expert, ['expert', 'specialist', 'scientist', 'engineers', 'study', 'studies', 'technical assessment', 'professional']).
fr_words(informational, ['report', 'data', 'evidence', 'investigation', 'according to', 'figures', 'statistics', 'documents', 'footage', 'satellite', 'records', 'census', 'survey']).

% ---- moves per base ------------------------------------------------------------------

% fr_base_items(+Base, -Items): A-b(Base, Id) for each move of that base, whoever made it.
fr_base_items(coercive, Items) :-
    claims_by_actor('Threat', GT), events_of_type('COERCE', Co), events_of_type('ASSAULT', As), append(Co, As, Es), perpetrators(Es, GE),
    fr_flatten(coercive, [GT, GE], Items).
fr_base_items(reward, Items) :-
    claims_by_actor('Offer', GO), events_of_type('AID', Aid), perpetrators(Aid, GA),
    fr_flatten(reward, [GO, GA], Items).
fr_base_items(legitimate, Items) :-
    findall(A-[A], (member(T, [state, government, international_org]), nodes_where('Actor', actor_type, T, As), member(A, As)), GS),
    fr_citing(legitimate, GC),
    fr_flatten(legitimate, [GS, GC], Items).
fr_base_items(expert, Items) :- fr_citing(expert, G), fr_flatten(expert, [G], Items).
fr_base_items(informational, Items) :- fr_citing(informational, G), fr_flatten(informational, [G], Items).
fr_base_items(referent, Items) :-
    findall(A-[E], (member(T, [community, civil_society]), nodes_where('Actor', actor_type, T, Cs), member(C, Cs), allied(C, A, E), A \== C), GA),
    findall(A-[A], (nodes_where('Actor', actor_type, community, As), member(A, As)), GC),
    fr_flatten(referent, [GA, GC], Items).

% fr_citing(+Base, -Groups): speakers of the claims whose text cites the base's keywords.
fr_citing(Base, Groups) :- fr_words(Base, Words), nodes_where('Claim', _, _, Cs), mentioning(Cs, Words, Hits), speakers(Hits, Groups).

fr_flatten(Base, GroupLists, Items) :-
    findall(A-b(Base, Id), (member(G, GroupLists), member(A-Ids, G), member(Id, Ids)), Items).

% fr_items(-Groups): Actor-[b(Base, Id)...], sorted, every move of every actor.
fr_items(Groups) :-
    findall(Items, (fr_base(B), fr_base_items(B, Items)), Ls), append(Ls, L0), sort(L0, Sorted), fr_group(Sorted, Groups).

% fr_group(+SortedPairs, -Groups): K-V pairs sorted by key, as K-[V...] groups.
fr_group([], []).
fr_group([K-V|T], [K-[V|Vs]|Gs]) :- fr_take(K, T, Vs, Rest), fr_group(Rest, Gs).
fr_take(K, [K1-V|T], [V|Vs], Rest) :- K1 == K, !, fr_take(K, T, Vs, Rest).
fr_take(_, Rest, [], Rest).

% fr_profile(-Profiles): p(Actor, [Base-Ids...]) for each actor with a base, bases in tie-break order.
fr_profile(Profiles) :-
    fr_items(Groups),
    findall(p(A, Bases), (member(A-Items, Groups),
                          findall(B-Ids, (fr_base(B), findall(Id, member(b(B, Id), Items), Ids), Ids \== []), Bases)), Profiles).

% fr_dominant(+Bases, -Base, -Ids): the base with the most moves, the first in order on a tie.
fr_dominant(Bases, Base, Ids) :-
    findall(N, (member(_-L, Bases), length(L, N)), Ns), max_list(Ns, Max),
    member(Base-Ids, Bases), length(Ids, Max), !.

fr_base_text(coercive, 'coercive power (threats, coercion, attacks)').
fr_base_text(reward, 'reward power (offers, aid)').
fr_base_text(legitimate, 'legitimate power (its standing as a state, government or international body, or the mandates, laws and elections it cites)').
fr_base_text(expert, 'expert power (the expertise it cites)').
fr_base_text(informational, 'informational power (the reports, data and evidence it cites)').
fr_base_text(referent, 'referent power (the communities that identify with it or stand with it)').

fr_profile_text(Bases, Text) :-
    findall(Part, (member(B-L, Bases), length(L, N), atomic_list_concat([B, ' ', N], Part)), Parts),
    atomic_list_concat(Parts, ', ', Text).

% ---- query-callable ------------------------------------------------------------------

% power_base(?A, ?Base): A uses Base.
power_base(A, Base) :- fr_profile(Ps), member(p(A, Bases), Ps), member(Base-_, Bases).

% ---- findings ------------------------------------------------------------------------

finding(power_base, [A, Base], Sentence, [A | Ids], [Base, 'an actor uses a base of power when the graph shows one of its moves of that base']) :-
    fr_profile(Ps), member(p(A, Bases), Ps), member(Base-Ids, Bases),
    length(Ids, N), fr_base_text(Base, Text),
    join([[A], ' uses ', Text, ': ', N, ' of its moves or attributes show it.'], Sentence).

finding(dominant_base, [A, Base], Sentence, [A | Ids], [Base, 'the dominant base is the one with the most moves; ties go in the order reward, coercive, legitimate, referent, expert, informational']) :-
    fr_profile(Ps), member(p(A, Bases), Ps), fr_dominant(Bases, Base, Ids),
    fr_base_text(Base, Text), fr_profile_text(Bases, Profile),
    join([[A], ' relies most on ', Text, ' (bases: ', Profile, ').'], Sentence).
