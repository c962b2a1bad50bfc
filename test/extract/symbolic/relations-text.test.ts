import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/** The OPPOSES and ALLIED_WITH relations of one sentence, as [type, from, to] in the text's words. */
function stated(text: string): [string, string, string][] {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2024-06-10' });
  const quote = (span: { start: number; end: number }) => text.slice(span.start, span.end);
  return findings.relations.filter((relation) => relation.type !== 'MEMBER_OF').map((relation) => [relation.type, quote(relation.from), quote(relation.to)]);
}

type Case = [sentence: string, relations: [string, string, string][]];

const CONFLICT_WORDING: Case[] = [
  ['The Rapid Support Forces shelled positions of the Sudanese Armed Forces in Omdurman.', [['OPPOSES', 'Rapid Support Forces', 'Sudanese Armed Forces']]],
  ['The M23 clashed with the FARDC near Sake on Monday.', [['OPPOSES', 'M23', 'FARDC']]],
  ['Houthi fighters battled the Yemeni army outside Marib.', [['OPPOSES', 'Houthi', 'Yemeni army']]],
  ['The Arakan Army launched an offensive against the Tatmadaw in Rakhine State.', [['OPPOSES', 'Arakan Army', 'Tatmadaw']]],
  ['Israel has been at war with Hamas since October.', [['OPPOSES', 'Israel', 'Hamas']]],
  ['Al-Shabaab fighters ambushed African Union troops near Mogadishu.', [['OPPOSES', 'Al-Shabaab', 'African Union']]],
  ['Ukraine\'s army fought Russian forces in Kursk.', [['OPPOSES', 'Ukraine\'s army', 'Russian forces']]],
  ['Fighting between the SAF and the RSF spread to Gezira.', [['OPPOSES', 'SAF', 'RSF']]],
  ['Pakistan opposes the Taliban government.', [['OPPOSES', 'Pakistan', 'Taliban government']]],
  ['The European Union sanctioned Wagner Group commanders.', [['OPPOSES', 'European Union', 'Wagner Group']]],
];

const ALLIANCE_WORDING: Case[] = [
  ['Iran backed the Houthis throughout the war.', [['ALLIED_WITH', 'Iran', 'Houthis']]],
  ['Russia has supported the Syrian government since 2015.', [['ALLIED_WITH', 'Russia', 'Syrian government']]],
  ['The UAE supplied the RSF with drones.', [['ALLIED_WITH', 'UAE', 'RSF']]],
  ['Wagner Group fighters fought alongside Malian troops near Kidal.', [['ALLIED_WITH', 'Wagner Group', 'Malian troops']]],
  ['The SLA sided with the Sudanese Armed Forces in April.', [['ALLIED_WITH', 'SLA', 'Sudanese Armed Forces']]],
  ['The Wazalendo, allied with the FARDC, held the hills above Sake.', [['ALLIED_WITH', 'Wazalendo', 'FARDC']]],
  ['Hezbollah and Hamas joined forces in southern Lebanon.', [['ALLIED_WITH', 'Hezbollah', 'Hamas']]],
  ['The JEM fought beside the army in El Fasher.', [['ALLIED_WITH', 'JEM', 'the army']]],
  ['The RSF operated in coordination with the Misseriya militia.', [['ALLIED_WITH', 'RSF', 'Misseriya']]],
  ['The Houthis are backed by Iran.', [['ALLIED_WITH', 'Houthis', 'Iran']]],
  ['Turkey sent weapons to the Syrian National Army.', [['ALLIED_WITH', 'Turkey', 'Syrian National Army']]],
];

const COORDINATION: Case[] = [
  ['Rwandan troops and M23 fighters attacked FARDC positions near Sake.', [
    ['OPPOSES', 'Rwandan troops', 'FARDC'], ['OPPOSES', 'M23', 'FARDC'], ['ALLIED_WITH', 'Rwandan troops', 'M23'],
  ]],
  ['The FARDC and the Wazalendo attacked M23 positions in Masisi.', [
    ['OPPOSES', 'FARDC', 'M23'], ['OPPOSES', 'Wazalendo', 'M23'], ['ALLIED_WITH', 'FARDC', 'Wazalendo'],
  ]],
  ['The United States and Britain struck Houthi radar sites near Hodeidah.', [
    ['OPPOSES', 'United States', 'Houthi'], ['OPPOSES', 'Britain', 'Houthi'], ['ALLIED_WITH', 'United States', 'Britain'],
  ]],
  ['The M23 attacked the FARDC and the Wazalendo near Goma.', [['OPPOSES', 'M23', 'FARDC'], ['OPPOSES', 'M23', 'Wazalendo']]],
  ['The SAF and the RSF clashed in El Obeid.', [['OPPOSES', 'SAF', 'RSF']]],
  // Parties coordinated before their joint action are allies, their men named ("Wagner fighters on a joint patrol"); a single party before one is not.
  ['A convoy of Malian soldiers and Wagner fighters on a joint patrol was ambushed near Kidal.', [['ALLIED_WITH', 'Malian soldiers', 'Wagner']]],
  ['Ethiopia and Eritrea were at war for two years.', [['OPPOSES', 'Ethiopia', 'Eritrea']]],
];

const ROLES_FROM_THE_CLAUSE: Case[] = [
  ['The M23, backed by Rwanda, attacked the FARDC in Sake.', [['ALLIED_WITH', 'M23', 'Rwanda'], ['OPPOSES', 'M23', 'FARDC']]],
  ['The RSF, which the UAE arms, attacked the SAF.', [['OPPOSES', 'RSF', 'SAF']]],
  ['The RSF, which the UAE arms, looted the market and attacked the SAF.', [['OPPOSES', 'RSF', 'SAF']]],
  ['The RSF, which the UAE arms, regrouped near Bara, and the SAF attacked the Joint Forces.', [['OPPOSES', 'SAF', 'Joint Forces']]],
  ['The SAF was attacked by the RSF near Omdurman.', [['OPPOSES', 'RSF', 'SAF']]],
  // The passive's subject stands before its apposition: the name inside the apposition is not what was attacked, whatever the attack event's nearest name.
  ['The Wazalendo, the largest militia in North Kivu besides the FDLR, were attacked by the M23 near Sake.', [['OPPOSES', 'M23', 'Wazalendo']]],
  ['The M23 attacked the Wazalendo, the largest militia in North Kivu besides the FDLR, near Sake.', [['OPPOSES', 'M23', 'Wazalendo']]],
  ['The SAF attacked the RSF and the UN condemned the strike.', [['OPPOSES', 'SAF', 'RSF']]],
  // A verb coordinated with an earlier one has its subject, not the name ending the earlier verb's object.
  ['The SAF attacked the RSF and shelled the Joint Forces near Bara.', [['OPPOSES', 'SAF', 'RSF'], ['OPPOSES', 'SAF', 'Joint Forces']]],
  ['The RSF said its fighters had cleared the camp of fighters of the SAF and had clashed with the Joint Forces near Zamzam.', [
    ['OPPOSES', 'RSF', 'SAF'], ['OPPOSES', 'RSF', 'Joint Forces'],
  ]],
  ['The RSF regrouped and attacked the SAF near Bara.', [['OPPOSES', 'RSF', 'SAF']]],
  ['The Rwanda Defence Force are fighting alongside the M23.', [['ALLIED_WITH', 'Rwanda Defence Force', 'M23']]],
  ['Wazalendo militias fighting beside the army repelled the M23.', [['ALLIED_WITH', 'Wazalendo militias', 'the army'], ['OPPOSES', 'Wazalendo militias', 'M23']]],
];

const NEGATION_AND_ALLEGATION: Case[] = [
  ['Rwanda denies backing the M23.', []],
  ['Rwanda has never supported the M23.', []],
  ['The RSF did not attack the SAF in El Fasher.', []],
  ['Eritrea denied that its troops had fought alongside the ENDF.', []],
  ['Hamas never fought alongside Hezbollah.', []],
  ['The SAF accused the RSF of attacking the camp.', []],
];

/** An accusation states the relation it alleges (as the accuser reports it); a denial states none. */
const ALLEGATION: Case[] = [
  ['Kinshasa accused Rwanda of supporting the M23.', [['ALLIED_WITH', 'Rwanda', 'M23']]],
  ['Rwanda rejected claims that it armed the M23.', []],
  // The accused is no name the layer knows: the accuser is not made the backer in its place.
  ['The Sudanese army accused Velmar of arming the RSF.', []],
];

/** Threats, conditions and calls state no relation. */
const HYPOTHETICAL: Case[] = [
  ['The Houthis threatened to strike Saudi Arabia if the blockade continued.', []],
  ['Hezbollah would attack Israel if the war spread.', []],
  ['The UN called on the RSF to stop attacking the Masalit.', []],
  ['Kinshasa urged Burundi to stop backing the FDLR.', []],
  ['The Office of the High Commissioner for Human Rights called on the RSF and allied militias to stop attacks on the Masalit.', []],
];

/** Mediators are nobody's allies, and parties that only meet, talk or swap prisoners are neither allies nor enemies. */
const MEDIATION_AND_CO_OCCURRENCE: Case[] = [
  ['Qatar and Egypt mediated between Israel and Hamas.', []],
  ['Russia and Ukraine exchanged prisoners in a swap brokered by the UAE.', []],
];

/** A cue's parties are named in its clause, not the places around it, nor the names inside an apposition. */
const PARTIES_NOT_PLACES: Case[] = [
  ['ISIS fighters were fighting in Syria and Iraq.', []],
  ["People's Defence Force units, loyal to the National Unity Government, fought the Tatmadaw.", [['OPPOSES', "People's Defence Force", 'Tatmadaw']]],
  ['Iran-backed militias and Hezbollah fought alongside the Syrian army.', [['ALLIED_WITH', 'Hezbollah', 'Syrian army']]],
  ['The Tuareg-led CSP rebels clashed with the Malian army.', [['OPPOSES', 'CSP', 'Malian army']]],
];

/** Allies "against" a third party both oppose it; "fought for" an actor is siding with it, "fighting for control" is not. */
const ALLIANCE_AGAINST: Case[] = [
  // The partner of "in a joint operation with" does the act with the subject, fronted or in apposition; a relative clause's partner does not.
  ['In a joint operation with ATMIS troops, the Somali National Army retook the town of Bula from al-Shabaab.', [
    ['ALLIED_WITH', 'Somali National Army', 'ATMIS'], ['OPPOSES', 'Somali National Army', 'al-Shabaab'], ['OPPOSES', 'ATMIS', 'al-Shabaab'],
  ]],
  ['Forces of the Counter-Terrorism Service, in a joint operation with the Federal Police, cleared the district of Daesh fighters.', [
    ['ALLIED_WITH', 'Forces of the Counter-Terrorism Service', 'Federal Police'], ['OPPOSES', 'Forces of the Counter-Terrorism Service', 'Daesh'],
    ['OPPOSES', 'Federal Police', 'Daesh'],
  ]],
  ['The Somali National Army, which held a joint operation with ATMIS troops last year, retook the town of Bula from al-Shabaab.', [
    ['ALLIED_WITH', 'Somali National Army', 'ATMIS'], ['OPPOSES', 'Somali National Army', 'al-Shabaab'],
  ]],
  ['Burundian troops are supporting the Congolese army against the M23.', [
    ['ALLIED_WITH', 'Burundian troops', 'Congolese army'], ['OPPOSES', 'Burundian troops', 'M23'], ['OPPOSES', 'Congolese army', 'M23'],
  ]],
  ['The Colombian army and the police launched a joint operation against the Clan del Golfo.', [
    ['OPPOSES', 'Colombian army', 'Clan del Golfo'], ['OPPOSES', 'the police', 'Clan del Golfo'], ['ALLIED_WITH', 'Colombian army', 'the police'],
  ]],
  ["Wagner Group mercenaries fought for Khalifa Haftar's forces.", [['ALLIED_WITH', 'Wagner Group', 'Khalifa Haftar']]],
  ['The ELN and FARC dissidents were fighting for control of Catatumbo.', [['OPPOSES', 'ELN', 'FARC dissidents']]],
];

/** Wording the layer once missed: repelling a force, firing missiles or rockets at one, supplying shells to one. */
const MORE_WORDING: Case[] = [
  ['The Sudanese army repelled RSF fighters near Omdurman.', [['OPPOSES', 'Sudanese army', 'RSF']]],
  // Ground cleared of a party's men is taken from it by fighting; a person cleared of charges, a road cleared of mines are not.
  ['The Sudanese army cleared the village of Bora of RSF fighters.', [['OPPOSES', 'Sudanese army', 'RSF']]],
  ['The commander was cleared of all charges by the RSF tribunal.', []],
  // Killing a party's fighters or commanders is fighting it; killing civilians sets the killer against no party.
  ['The Israel Defense Forces said they had killed a senior commander of Hamas in Rafah.', [['OPPOSES', 'Israel Defense Forces', 'Hamas']]],
  ['The SAF killed at least 14 RSF fighters near Bara on Monday.', [['OPPOSES', 'SAF', 'RSF']]],
  ['The SAF said the RSF had killed more than a dozen displaced people near Bara.', []],
  ['Troops cleared the road of mines before the RSF convoy passed.', []],
  // "clear" the adjective and "the killing of" the noun name no act of the subject's.
  ['Qatar made it clear that members of Hamas were welcome in Doha.', []],
  ['Qatar condemned the killing of Hamas members in Tehran.', []],
  ['Turkey mourned the killing of five Hamas fighters.', []],
  ['Hezbollah fired rockets at Israeli army positions.', [['OPPOSES', 'Hezbollah', 'Israeli army']]],
  ['North Korea supplied artillery shells to Russia.', [['ALLIED_WITH', 'North Korea', 'Russia']]],
];

/** A truce between two parties ends their fight and states none; the fight itself, resumed or not, is one. */
const TRUCES: Case[] = [
  ['Since the cessation of hostilities between Israel and Hezbollah took effect, peacekeepers have found caches.', []],
  ['Qatar called for an end to the fighting between the SAF and the RSF.', []],
  ['Hostilities between Israel and Hezbollah resumed on Monday.', [['OPPOSES', 'Israel', 'Hezbollah']]],
  ['Qatar urged a cessation of all hostilities between the SAF and the RSF.', []],
  ['Mediators sought to stop the fighting between the SAF and the RSF.', []],
  ['The UN called on both sides to halt fighting between the SAF and the RSF.', []],
  ['Further fighting between the SAF and the RSF was reported near El Fasher.', [['OPPOSES', 'SAF', 'RSF']]],
];

const REPORTED_SPEECH: Case[] = [
  ['The UN said the RSF attacked the SAF in El Fasher.', [['OPPOSES', 'RSF', 'SAF']]],
  ['According to the UN, the M23 shelled FARDC positions.', [['OPPOSES', 'M23', 'FARDC']]],
  ['UN experts reported that the Rwanda Defence Force fought alongside the M23.', [['ALLIED_WITH', 'Rwanda Defence Force', 'M23']]],
  ['The African Union said the Houthis attacked the Saudi-led coalition.', [['OPPOSES', 'Houthis', 'Saudi-led coalition']]],
  ['The United Arab Emirates armed the RSF, according to UN experts.', [['ALLIED_WITH', 'United Arab Emirates', 'RSF']]],
];

describe('relations checked against the text', () => {
  for (const [category, cases] of Object.entries({
    CONFLICT_WORDING, ALLIANCE_WORDING, COORDINATION, ROLES_FROM_THE_CLAUSE, NEGATION_AND_ALLEGATION, REPORTED_SPEECH,
    ALLEGATION, HYPOTHETICAL, MEDIATION_AND_CO_OCCURRENCE, TRUCES, PARTIES_NOT_PLACES, ALLIANCE_AGAINST, MORE_WORDING,
  })) {
    describe(category.toLowerCase().replace(/_/g, ' '), () => {
      for (const [sentence, relations] of cases) {
        it(sentence, () => expect(stated(sentence)).toEqual(relations));
      }
    });
  }

  it('reads no alliance between a single party before a joint action and the party whose action it is', () => {
    // Only the absence of ALLIED_WITH: the OPPOSES this sentence states is an old miss ("ambushed a patrol of X"), not to be locked in.
    const allied = stated('Al-Shabaab fighters ambushed a joint patrol of the Somali National Army near Jilib.').filter(([type]) => type === 'ALLIED_WITH');
    expect(allied).toEqual([]);
  });

  it('reads no alliance or membership from a tie the sentence says is over, and an ally as an ally', () => {
    const all = (text: string) => findConflictEntities({ text, source: 'test' }).relations.map((r) => [r.type, text.slice(r.from.start, r.from.end), text.slice(r.to.start, r.to.end)]);
    expect(all('The Karmash Brigade, a faction of the Vell Liberation Front, split from the movement.')).toEqual([]);
    expect(all('Chad, a former ally of the Sudanese army, backed the RSF.')).toEqual([['ALLIED_WITH', 'Chad', 'RSF']]);
    expect(all('Chad, an ally of the Sudanese army, attacked the RSF.')).toEqual([['ALLIED_WITH', 'Chad', 'Sudanese army'], ['OPPOSES', 'Chad', 'RSF']]);
  });

  it('quotes a reported relation with its whole sentence, which names who reports it', () => {
    const text = 'Fighting resumed on Monday. The UN said the RSF attacked the SAF in El Fasher.';
    const [relation] = findConflictEntities({ text, source: 'test' }).relations;
    expect(text.slice(relation.start, relation.end)).toBe('The UN said the RSF attacked the SAF in El Fasher.');
    const direct = 'The RSF attacked the SAF in El Fasher.';
    const [own] = findConflictEntities({ text: direct, source: 'test' }).relations;
    expect(direct.slice(own.start, own.end)).toBe('RSF attacked the SAF');
  });

  it('reads a possessive commander before his name as a member of that force', () => {
    const text = "The army's commander-in-chief, General Abdel Fattah al-Burhan, vowed to retake Singa.";
    const findings = findConflictEntities({ text, source: 'test' });
    expect(findings.relations.map((r) => [r.type, text.slice(r.from.start, r.from.end), text.slice(r.to.start, r.to.end)])).toEqual([
      ['MEMBER_OF', 'Abdel Fattah al-Burhan', 'The army'],
    ]);
    // two role words in a row ("deputy leader") once looped for ever
    const deputy = "The army's deputy commander, General Shams al-Din Kabbashi, vowed to retake Singa.";
    expect(findConflictEntities({ text: deputy, source: 'test' }).relations.map((r) => [r.type, deputy.slice(r.from.start, r.from.end), deputy.slice(r.to.start, r.to.end)]))
      .toContainEqual(['MEMBER_OF', 'Shams al-Din Kabbashi', 'The army']);
  });
});
