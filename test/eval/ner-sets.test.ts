import { describe, expect, it } from 'vitest';
import { mapTag, parseConll, parseRedocred, parseWikigold } from '../../bench/eval/ner-sets.ts';

/** The readers eval:ner-public scores the public sets with, on inline examples of each format. */

describe('the public NER set readers', () => {
  it('maps WNUT and CrossNER fine types to PER, ORG and LOC and every other type to O', () => {
    expect(['B-politician', 'I-politicalparty', 'B-country', 'B-corporation', 'B-election', 'I-misc', 'B-MISC', 'O'].map(mapTag)).toEqual([
      'B-PER', 'I-ORG', 'B-LOC', 'B-ORG', 'O', 'O', 'O', 'O',
    ]);
  });

  it('reads UNER lines (numbered, tag in the third column) and splits tokens into words the way the service does', () => {
    const text = '# sent_id = n01\n1\tThe\tO\t-\n2\tU.N.\tB-ORG\t-\n3\tmet\tO\t-\n\n1\tIn\tO\t-\n2\tBaghdad\tB-LOC\t-\n';
    expect(parseConll(text, 1, 2)).toEqual([
      { words: ['The', 'U', '.', 'N', '.', 'met'], tags: ['O', 'B-ORG', 'I-ORG', 'I-ORG', 'I-ORG', 'O'] },
      { words: ['In', 'Baghdad'], tags: ['O', 'B-LOC'] },
    ]);
  });

  it('reads Re-DocRED mentions as spans, with nationality adjectives, dates and MISC as O and of overlapping mentions the one starting first, the shorter of two starting together', () => {
    const document = {
      sents: [['German', 'and', 'Kurdish', 'troops', 'entered', 'Deir', 'ez-Zor', '.'], ['Merkel', 'spoke', 'in', '2016', '.']],
      vertexSet: [
        [{ name: 'German', pos: [0, 1], sent_id: 0, type: 'LOC' }],
        [{ name: 'Kurdish', pos: [2, 3], sent_id: 0, type: 'LOC' }],
        [{ name: 'Deir ez-Zor', pos: [5, 7], sent_id: 0, type: 'LOC' }],
        [{ name: 'Deir', pos: [5, 6], sent_id: 0, type: 'PER' }],
        [{ name: 'Merkel', pos: [0, 1], sent_id: 1, type: 'PER' }],
        [{ name: '2016', pos: [3, 4], sent_id: 1, type: 'TIME' }],
      ],
    };
    expect(parseRedocred(JSON.stringify([document]))).toEqual([
      { words: ['German', 'and', 'Kurdish', 'troops', 'entered', 'Deir', 'ez', '-', 'Zor', '.'], tags: ['O', 'O', 'O', 'O', 'O', 'B-PER', 'O', 'O', 'O', 'O'] },
      { words: ['Merkel', 'spoke', 'in', '2016', '.'], tags: ['B-PER', 'O', 'O', 'O', 'O'] },
    ]);
  });

  it("keeps only wikigold's held-out documents (every fifth from the first) and turns IO tags into spans where the type changes", () => {
    const documents = ['Bill I-PER\nGates I-PER\nof O\nMicrosoft I-ORG\nBritish I-MISC\n', 'In O\nParis I-LOC\n', 'x O\n', 'y O\n', 'z O\n', 'To O\nOslo I-LOC\n'];
    const text = documents.join('\n-DOCSTART- O\n\n');
    expect(parseWikigold(text)).toEqual([
      { words: ['Bill', 'Gates', 'of', 'Microsoft', 'British'], tags: ['B-PER', 'I-PER', 'O', 'B-ORG', 'O'] },
      { words: ['To', 'Oslo'], tags: ['O', 'B-LOC'] },
    ]);
  });
});
