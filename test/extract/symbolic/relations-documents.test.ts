import { describe, expect, it } from 'vitest';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';

/**
 * Issue 25: what whole documents make the relation rules misread, one category of wording per case.
 * Relations are [type, from, to] in the text's words, OPPOSES and ALLIED_WITH only.
 */
function stated(text: string): [string, string, string][] {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2025-03-04' });
  const quote = (span: { start: number; end: number }) => text.slice(span.start, span.end);
  return findings.relations.filter((relation) => relation.type !== 'MEMBER_OF').map((relation) => [relation.type, quote(relation.from), quote(relation.to)]);
}

describe('relations read from whole documents', () => {
  it('reads the pronoun of a speaker reporting its own act as the speaker, past an apposition', () => {
    const relations = stated('Kataib Hezbollah, an Iran-backed militia that is part of the Popular Mobilisation Forces, said it had launched drones at US forces in Syria.');
    const oppositions = relations.filter(([type]) => type === 'OPPOSES');
    expect(oppositions).toHaveLength(1);
    expect(oppositions[0][1]).toMatch(/Hezbollah$/);
    expect(oppositions[0][2]).toBe('US forces');
  });

  it('reads the pronoun doer of a reported attack as the speaker reporting it', () => {
    const oppositions = stated('Kataib Hezbollah, an Iran-backed militia, said it carried out the drone strike that killed three US soldiers at a base in Jordan.').filter(([type]) => type === 'OPPOSES');
    expect(oppositions).toHaveLength(1);
    expect(oppositions[0][1]).toMatch(/Hezbollah$/);
    expect(oppositions[0][2]).toBe('US soldiers');
    expect(stated('The UN said RSF fighters attacked the Sudanese army in Omdurman.')).toEqual([['OPPOSES', 'RSF', 'Sudanese army']]);
  });

  it('reads no fight from an act of fighting beside an ally', () => {
    expect(stated('Clan militias known as Macawisley fought beside the army in Hiiraan and drove al-Shabaab out of two districts.').filter(([type]) => type === 'OPPOSES')).toEqual([]);
  });

  it('reads no hostility from a lawsuit, a protest or a vote "against"', () => {
    expect(stated('Ukraine filed a case against Russia at the International Court of Justice.')).toEqual([]);
    expect(stated('Supporters of the Government of National Unity protested against the Libyan National Army in Tripoli.')).toEqual([]);
    expect(stated('China and Russia voted against the resolution on Sudan.')).toEqual([]);
    expect(stated('The European Union imposed sanctions against the Rapid Support Forces.')).toEqual([['OPPOSES', 'European Union', 'Rapid Support Forces']]);
  });

  it('reads two who fought as enemies, but no three listed together', () => {
    expect(stated('The Sudanese Armed Forces and the RSF fought for three days near El Fasher.')).toEqual([['OPPOSES', 'Sudanese Armed Forces', 'RSF']]);
    expect(stated('The Sudanese Armed Forces, the Joint Force and the Sudan Shield Forces fought for three days near El Fasher.').filter(([type]) => type === 'OPPOSES')).toEqual([]);
  });

  it('reads a long cue once, not again from the shorter cue inside it with another subject', () => {
    expect(stated("The Three Brotherhood Alliance, which includes the Arakan Army and the Ta'ang National Liberation Army, launched an offensive against the Tatmadaw."))
      .toEqual([['OPPOSES', 'Three Brotherhood Alliance', 'Tatmadaw']]);
  });

  it('makes no party of the name that only says who leads a coalition', () => {
    expect(stated('The US-led coalition struck ISIS targets near Raqqa.')).toEqual([]);
    expect(stated('The US-led coalition conducted joint operations with the Iraqi Security Forces against ISIS.').filter(([, from, to]) => from === 'US' || to === 'US')).toEqual([]);
  });

  it('reads no act from a noun of attack whose doer follows "by": the sentence\'s subject is not its target', () => {
    expect(stated('The Secretary-General is deeply alarmed by the escalation of hostilities in north-west Syria, including air strikes by the Syrian Government on Idlib.')).toEqual([]);
  });
});

describe('memberships read from whole documents', () => {
  it('makes no one a member of a state by an office for it', () => {
    const findings = findConflictEntities({ text: 'The United Nations stands ready to support Geir Pedersen, its Special Envoy for Syria.', source: 'test', document_date: '2025-03-04' });
    expect(findings.relations.filter((relation) => relation.type === 'MEMBER_OF')).toEqual([]);
  });
});
