import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { extractedRelations } from '../helpers/extracted-relations.ts';

/**
 * Issue 25, OPPOSES and ALLIED_WITH recall on whole documents: wordings that state a relation the
 * rules did not read, each beside a wording that looks alike and states none.
 */
const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

const relations = (text: string, type: 'OPPOSES' | 'ALLIED_WITH' | 'MEMBER_OF' = 'OPPOSES') => extractedRelations(pipeline, text, type, '2024-05-06');

describe('a passive whose doer is a force\'s fighters, after a time', () => {
  it('is the force\'s attack ("was attacked on Saturday night by fighters of the ADF")', async () => {
    const text = 'A position of the FARDC at Mayimoya was attacked on Saturday night by fighters of the Allied Democratic Forces.';
    expect(await relations(text)).toEqual([['Allied Democratic Forces', 'Armed Forces of the Democratic Republic of the Congo']]);
  });

  it('names no doer when the fighters belong to no one named ("by fighters of a rival faction")', async () => {
    expect(await relations('A position of the FARDC at Mayimoya was attacked on Saturday night by fighters of a rival faction.')).toEqual([]);
  });
});

describe('ground taken "from" a party', () => {
  it('is taken by fighting it ("retook the village of Badush, north-west of Mosul, from Daesh")', async () => {
    const text = 'The Federal Police retook the village of Badush, north-west of Mosul, from Daesh on Tuesday after two days of fighting.';
    expect(await relations(text)).toEqual([['Federal Police', 'Islamic State']]);
  });

  it('is no fight when it is only vowed, or when "from" belongs to another clause', async () => {
    expect(await relations('The Federal Police vowed to retake the village of Badush from Daesh before the end of the month.')).toEqual([]);
    expect(await relations('The Federal Police captured the village of Badush and received new rifles from Iran.')).toEqual([]);
  });
});

describe('a unit that fights', () => {
  it('is a member of the force that owns it ("the Nigerian Army\'s 7 Division"), and its fight is that force\'s', async () => {
    const text = 'Troops of the Nigerian Army\'s 7 Division clashed with Boko Haram fighters in the Sambisa Forest on Sunday.';
    expect(await relations(text, 'MEMBER_OF')).toEqual([['7 Division', 'Nigerian Armed Forces']]);
    expect((await relations(text)).sort()).toEqual([['7 Division', 'Boko Haram'], ['Nigerian Armed Forces', 'Boko Haram']]);
  });

  it('carries no fight to a force its troops are only "part of" (a national contingent of a joint force)', async () => {
    const text = 'Chadian troops, part of the Multinational Joint Task Force, repelled a Boko Haram attack on their base near Baga.';
    expect((await relations(text)).flat()).not.toContain('Multinational Joint Task Force');
  });
});

describe('a joint action', () => {
  it('allies the parties coordinated before it ("UNIFIL and the Lebanese Armed Forces continue joint patrols")', async () => {
    expect(await relations('UNIFIL and the Lebanese Armed Forces continue joint patrols south of the Litani.', 'ALLIED_WITH')).toEqual([['UNIFIL', 'Lebanese Armed Forces']]);
  });

  it('allies the party it is "with" and the subject after it, when it opens the clause', async () => {
    const text = 'Last week, in a joint operation with ATMIS troops, the Somali National Army retook the town of Ceel Baraf from al-Shabaab.';
    expect(await relations(text, 'ALLIED_WITH')).toEqual([['Somali National Army', 'African Union Support and Stabilization Mission in Somalia']]);
  });

  it('allies no one with the party that attacks it ("Daesh attacked a joint patrol of the army")', async () => {
    expect(await relations('Daesh attacked a joint patrol of the Iraqi army near Tuz Khurmatu on Monday.', 'ALLIED_WITH')).toEqual([]);
  });
});

describe('a strike', () => {
  it('is a hostile act on what it "struck" ("struck positions of Hayat Tahrir al-Sham")', async () => {
    expect(await relations('Russian Aerospace Forces struck positions of Hayat Tahrir al-Sham west of Jisr al-Shughur on Tuesday.')).toEqual([['Russian Aerospace Forces', 'Hayat Tahrir al-Sham']]);
  });

  it('is no hostility when a deal is struck', async () => {
    expect(await relations('Russia struck a deal with Turkey on Idlib in March 2020.')).toEqual([]);
  });
});

describe('attackers named through their men and machines in an earlier sentence', () => {
  it('are the force the pronoun stands for ("Warplanes of the Russian Aerospace Forces took off. They struck ...")', async () => {
    const text = 'The Syrian Observatory for Human Rights said nine soldiers were killed near Saraqib. '
      + 'Warplanes of the Russian Aerospace Forces took off from Hmeimim at dawn on Tuesday. '
      + 'They struck positions of Hayat Tahrir al-Sham west of Jisr al-Shughur.';
    expect(await relations(text)).toEqual([['Russian Aerospace Forces', 'Hayat Tahrir al-Sham']]);
  });
});
