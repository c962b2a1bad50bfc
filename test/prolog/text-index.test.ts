import { describe, expect, it } from 'vitest';
import { TextIndex } from '../../engine/prolog/text-index.ts';

// The index must find exactly what a substring test (sub_atom/5 in the rules) finds.
const WORDS = [
  'negotiat', ' deal', 'deal', 'no talks', ' war ', ' war.', "can't win", 'cease-fire', 'self-defence', ', ', "'", 'talks',
  'à la', 'élection', 'war', 'a', 'arms', 'to the end', ' accord,', 'x',
];
const TEXTS = [
  'we will never negotiate: no talks, no deal.',
  'the war. it goes on; a war without end',
  "they can't win this war ",
  'a cease-fire and self-defence',
  'renegotiation of the accord, signed à la hâte before the élections',
  'ideal dealers', '', '   ', 'x', 'taking up arms to the end',
];

describe('keyword index of texts', () => {
  it('finds the declared words each text contains, as a substring test does', () => {
    const index = new TextIndex();
    expect(index.add(WORDS)).toBe(true);
    expect(index.add(['deal'])).toBe(false); // nothing new
    for (const text of TEXTS) {
      expect(index.matches(text).sort(), text).toEqual([...new Set(WORDS.filter((word) => text.includes(word)))].sort());
    }
  });

  it('takes words added later, and the texts indexed again see them', () => {
    const index = new TextIndex();
    index.add(['talks']);
    expect(index.matches('no talks, no deal')).toEqual(['talks']);
    expect(index.add(['deal', 'no deal'])).toBe(true);
    expect(index.matches('no talks, no deal').sort()).toEqual(['deal', 'no deal', 'talks']);
    expect(index.has('no deal')).toBe(true);
    expect(index.size).toBe(3);
  });

  it('finds names that share their words (many places named "… district") as a substring test does', () => {
    const stems = ['kafa', 'bura', 'tin', 'mar', 'sher', 'al'];
    const names = stems.flatMap((stem) => [`${stem} district`, `north ${stem}`, `al-${stem}`, `${stem} district council`, `camp ${stem.length}`]);
    const index = new TextIndex();
    index.add(names);
    const texts = [
      'shelling in kafa district and north bura',
      'the district of kafa; north kafaz; xal-tin district',
      'they hold al-mar and the sher district council',
      'camp 4 and camp 3 were emptied',
      'districts of the north',
      'a district',
    ];
    for (const text of texts) expect(index.matches(text).sort(), text).toEqual([...new Set(names.filter((name) => text.includes(name)))].sort());
  });
});
