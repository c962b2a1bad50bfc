import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/**
 * Issue 25, OPPOSES precision in official statements and strike updates: a name earlier in the
 * sentence is the doer of an act only when nothing but its own nouns, a light verb, auxiliaries,
 * times and places stand between them. Relations are [type, from, to] in the text's words.
 */
function stated(text: string): [string, string, string][] {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2017-03-04' });
  const quote = (span: { start: number; end: number }) => text.slice(span.start, span.end);
  return findings.relations.map((relation) => [relation.type, quote(relation.from), quote(relation.to)]);
}

const oppositions = (text: string) => stated(text).filter(([type]) => type === 'OPPOSES');
const actorTexts = (text: string) => findConflictEntities({ text, source: 'test', document_date: '2017-03-04' }).actors.map((actor) => text.slice(actor.start, actor.end));

describe('who does the act, in statements', () => {
  it('gives the act of a subordinate clause to its own subject; a relative clause\'s to the name it is about', () => {
    expect(oppositions('The Russian Aerospace Forces carried out strikes in Idlib after militants shelled Syrian Arab Army positions.')).toEqual([]);
    expect(oppositions('Coalition aircraft struck Daesh fighters who had ambushed Iraqi army units south of Mosul.')).toEqual([['OPPOSES', 'Daesh', 'Iraqi army']]);
  });

  it('reads no attack that was only being prepared', () => {
    expect(oppositions('An RAF Reaper attacked terrorists preparing to launch an attack on the Syrian Democratic Forces.')).toEqual([]);
  });

  it('makes no doer of a name whose apposition is still open where the act is named', () => {
    expect(oppositions('Iraqi forces, backed by Coalition air strikes and Shia militias, retook Tikrit from ISIL.')).not.toContainEqual(['OPPOSES', 'Iraqi forces', 'Shia militias']);
  });

  it('keeps a name the doer whose units stand between it and the act', () => {
    expect(oppositions("The Sudanese army's 22nd infantry division attacked RSF positions near El Fasher.")).toEqual([['OPPOSES', 'Sudanese army', 'RSF']]);
  });

  it('keeps the subject of a verb coordinated with its first one', () => {
    expect(oppositions('The Panel of Experts found that the RSF had received military support from Chad and had attacked the Masalit community.'))
      .toEqual([['OPPOSES', 'RSF', 'Masalit community']]);
  });

  it('reads ", and" after a single object as a new clause, not as a second object', () => {
    expect(stated('Turkey has been attacked by Daesh, and the United Kingdom stands with Turkey against terrorism.')).toEqual([['OPPOSES', 'Daesh', 'Turkey']]);
  });

  it('gives a relative clause to the last name of a list alone', () => {
    expect(stated('Iran supports the Assad regime and Hezbollah, which fights alongside regime forces against the opposition.'))
      .toEqual([['ALLIED_WITH', 'Iran', 'Assad'], ['ALLIED_WITH', 'Iran', 'Hezbollah'], ['ALLIED_WITH', 'Hezbollah', 'regime forces']]);
  });

  it('reads "against" after a noun as the noun\'s: the subject opposes only what it wages', () => {
    expect(stated('The Secretary of State discussed the campaign against Daesh with the Iraqi Prime Minister.')).toEqual([]);
    expect(oppositions('The United States conducted strikes against Daesh near Mosul.')).toEqual([['OPPOSES', 'United States', 'Daesh']]);
  });
});

describe('names that are no actors in strike updates', () => {
  it('reads no person in a place preposition that opens a line', () => {
    expect(actorTexts('Strikes in Syria Near Abu Kamal, one strike engaged an ISIS tactical unit.')).toEqual(['ISIS']);
    expect(oppositions('Strikes in Syria Near Abu Kamal, one strike engaged an ISIS tactical unit.')).toEqual([]);
  });

  it('reads no organisation in an aircraft or weapon designation', () => {
    expect(actorTexts('Australian F/A-18 Hornets struck Daesh positions near Mosul.')).toEqual(['Daesh']);
  });
});

describe('members named in apposition after their office', () => {
  it('makes the person after "the head of X," a member of X', () => {
    expect(stated('The head of MONUSCO, Bintou Keita, told the Security Council that the M23 had attacked FARDC positions.'))
      .toContainEqual(['MEMBER_OF', 'Bintou Keita', 'MONUSCO']);
  });
});

describe('enmities read through a reference', () => {
  it('reads none towards an object description whose antecedent\'s sentence names two parties of its kind', () => {
    const text = 'Hezbollah said its fighters had killed five members of Islamic State near Arsal. The Lebanese army, which has also fought the group, said it had arrested three suspects.';
    // Killing members of Islamic State is fighting it; the army's fight with "the group" stays unread.
    expect(oppositions(text)).toEqual([['OPPOSES', 'Hezbollah', 'Islamic State']]);
    expect(oppositions('Hezbollah said its fighters had killed five civilians near Arsal. The Lebanese army, which has also fought the group, said it had arrested three suspects.'))
      .toEqual([['OPPOSES', 'Lebanese army', 'the group']]);
  });
});

describe('the leader named in "X-led"', () => {
  it('is no party to what the coalition does, even through a pronoun', () => {
    expect(oppositions('The US-led coalition said its aircraft hit ISIS targets near Raqqa.')).toEqual([]);
    expect(oppositions('The United States said its aircraft hit ISIS targets near Raqqa.')).toEqual([['OPPOSES', 'United States', 'ISIS']]);
  });

  it('leaves the other party of the relation out of the candidates a reference could stand for', () => {
    expect(oppositions('The US-led coalition said its aircraft hit ISIS targets near Raqqa, where the SDF is fighting the group.')).toEqual([['OPPOSES', 'SDF', 'the group']]);
  });
});
