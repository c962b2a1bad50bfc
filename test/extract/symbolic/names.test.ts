import { describe, expect, it } from 'vitest';
import { FuzzyIndex, editDistance, skeleton } from '../../../engine/extract/symbolic/fuzzy.ts';
import { findConflictEntities } from '../../../engine/extract/symbolic/index.ts';
import { matchingText } from '../../../engine/extract/symbolic/normalise.ts';

/** Robust names in the symbolic layer (issue 9): one describe per category of miss. */

const extract = (text: string, document_date = '2024-06-10') => findConflictEntities({ text, source: 'test', document_date });
const actorsOf = (text: string) => extract(text).actors.map((actor) => [actor.text, actor.actor_type]);
const placesOf = (text: string) => extract(text).locations.map((place) => [place.text, place.location_type]);

describe('Unicode normalisation for matching', () => {
  it('folds curly apostrophes, Unicode hyphens and drops invisible marks, mapping spans back', () => {
    const matching = matchingText('Kata\u2019ib x\u200fy Al\u2011Fashir');
    expect(matching.text).toBe("Kata'ib xy Al-Fashir");
    expect(matching.toOriginal(8, 10)).toEqual({ start: 8, end: 11 });
    expect(matchingText('plain text').text).toBe('plain text');
  });

  it('finds gazetteer names written with curly apostrophes, zero-width and bidi marks, spans in the original', () => {
    const text = 'Hay\u2019at Tahrir al\u2011Sham fighters and the Rapid Sup\u200bport Forces met near \u200fEl Fasher\u200f on 3 March.';
    const findings = extract(text);
    const labels = findings.actors.map((actor) => actor.canonical);
    expect(labels).toEqual(expect.arrayContaining(['Hayat Tahrir al-Sham', 'Rapid Support Forces']));
    for (const mention of [...findings.actors, ...findings.locations, ...findings.dates]) {
      expect(text.slice(mention.start, mention.end)).toBe(mention.text);
    }
    expect(findings.actors.find((actor) => actor.canonical === 'Rapid Support Forces')!.text).toBe('Rapid Sup\u200bport Forces');
    expect(findings.locations.map((place) => place.text)).toContain('El Fasher');
    expect(findings.dates.map((date) => [date.text, date.iso])).toEqual([['3 March', '2024-03-03']]);
  });
});

describe('acronym definitions and acronym-shaped organisations', () => {
  it('reads a name spelled by a bracketed acronym as one organisation, places inside it included', () => {
    const text = 'The Islamic Movement of Korinthia and the Upper Nile (IMKUN) said the IMKUN would fight on.';
    const findings = extract(text);
    expect(findings.actors.map((a) => [a.text, a.actor_type, a.canonical ?? a.text])).toEqual([
      ['Islamic Movement of Korinthia and the Upper Nile', 'armed_group', 'Islamic Movement of Korinthia and the Upper Nile'],
      ['IMKUN', 'armed_group', 'Islamic Movement of Korinthia and the Upper Nile'],
      ['IMKUN', 'armed_group', 'Islamic Movement of Korinthia and the Upper Nile'],
    ]);
    expect(findings.locations).toEqual([]);
  });

  it('spells hyphenated acronyms and hyphenated words', () => {
    expect(actorsOf('The Coastal Counter-Terrorism Command (CCTC) reported calm.')[0]).toEqual(['Coastal Counter-Terrorism Command', 'armed_forces']);
    expect(actorsOf('Joint Task Force \u2013 Harbour Shield (JTF-HS) deployed.')[0]).toEqual(['Joint Task Force \u2013 Harbour Shield', 'armed_forces']);
  });

  it('takes an undefined acronym as an organisation, but not Roman numerals, datelines or weapons', () => {
    expect(actorsOf('UNOKA officials and VDF fighters met.')).toEqual([['UNOKA', 'international_org'], ['VDF', 'armed_group']]);
    expect(actorsOf('John Brown III said an IED hit the road.')).toEqual([['John Brown III', 'individual']]);
    expect(actorsOf('PORT ELAN, 4 March 2024 - Calm returned.')).toEqual([]);
  });
});

describe('head-noun patterns for organisations', () => {
  it('ministries, commands, task forces, navies and numbered units', () => {
    const text = 'The Ministry of Water and Irrigation said the Korinthian Navy, the Eastern Command, the 4th Mechanised Division and the Northern Shield Task Force withdrew.';
    expect(actorsOf(text)).toEqual([
      ['Ministry of Water and Irrigation', 'government'],
      ['Korinthian Navy', 'armed_forces'],
      ['Eastern Command', 'armed_forces'],
      ['4th Mechanised Division', 'armed_forces'],
      ['Northern Shield Task Force', 'armed_forces'],
    ]);
  });

  it('an air force named without a country is a state force, a liberation army is not', () => {
    expect(actorsOf('The Royal Korinthian Air Force and the Valdoran Liberation Army clashed.')).toEqual([
      ['Royal Korinthian Air Force', 'armed_forces'],
      ['Valdoran Liberation Army', 'armed_group'],
    ]);
  });
});

describe('title and rank patterns for persons', () => {
  it('abbreviated ranks, chained honorifics and initials', () => {
    const findings = extract('Lt. Gen. Aram Vesk met Rear Adm. John C. Dayton and Air Chief Marshal Sir Peter Lowe.');
    expect(findings.actors.map((a) => [a.text, a.title])).toEqual([
      ['Aram Vesk', 'Lt. Gen.'],
      ['John C. Dayton', 'Rear Adm.'],
      ['Peter Lowe', 'Air Chief Marshal Sir'],
    ]);
  });

  it('a title in apposition belongs to the name after it', () => {
    const findings = extract('The Chief of the Defence Staff, Admiral Sir Tom Rade, said the mission would go on.');
    expect(findings.actors.map((a) => [a.text, a.actor_type])).toEqual([['Tom Rade', 'individual']]);
  });

  it("a country's name opening a titled two-word name is a first name, not the state", () => {
    expect(actorsOf('Defence Minister Israel Katz warned Hezbollah on Sunday.')).toEqual([['Israel Katz', 'individual'], ['Hezbollah', 'armed_group']]);
    // A longer capitalised run after the country is no such name: the state stays.
    expect(actorsOf('Special Envoy Sudan Tom Perriello spoke.')).toEqual([['Sudan', 'state'], ['Tom Perriello', 'individual']]);
  });

  it('an office named alone stands for its holder; "the secretary" does not', () => {
    expect(actorsOf('The Foreign Secretary met the envoy.')).toEqual([['Foreign Secretary', 'individual']]);
    expect(actorsOf('The President of Korinthia spoke, and the secretary said so.')).toEqual([]);
  });
});

describe('fuzzy gazetteer matching', () => {
  it('finds transliteration variants of gazetteer names', () => {
    const findings = extract('Abdel Fatah al-Burhaan met Volodimir Zelenskyy.');
    expect(findings.actors.map((a) => a.canonical)).toEqual(['Abdel Fattah al-Burhan', 'Volodymyr Zelensky']);
    expect(findings.actors.every((a) => a.confidence < 0.9)).toBe(true);
  });

  it('guards precision: short names, ordinary words, shared skeletons and far spellings never match', () => {
    const index = new FuzzyIndex(
      [{ name: 'Kessari Front', value: 'a' }, { name: 'Kassira Front', value: 'b' }, { name: 'Hezbollah', value: 'c' }, { name: 'Raqa', value: 'd' }],
      (x, y) => x === y,
    );
    expect(index.lookup('Hizballah')?.value).toBe('c');
    expect(index.lookup('Hezbollah')).toBeUndefined(); // exact spellings are the exact index's
    expect(index.lookup('Kessiri Front')).toBeUndefined(); // two names share the skeleton
    expect(index.lookup('Raqqa')).toBeUndefined(); // too short to guess
    expect(index.lookup('Hizballahstan')).toBeUndefined();
    expect(skeleton('Muqtada')).toBe(skeleton('Moqtada'));
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(actorsOf('Fighting continued in Hamburger markets.')).toEqual([]);
  });
});

describe('longest match and context checks', () => {
  it('a surname is not a city, a city inside a longer name is not that city', () => {
    expect(extract('Scott C. Dayton told reporters in New York that the talks had ended.').locations.map((p) => p.text)).toEqual(['New York']);
    expect(extract('Rear Adm. Scott C. Dayton spoke.').actors.map((a) => a.text)).toEqual(['Scott C. Dayton']);
  });

  it('Washington is the US capital, not a town of that name elsewhere', () => {
    const [washington] = extract('The envoys met in Washington on Tuesday to discuss the truce.').locations;
    expect([washington.text, washington.location_type, washington.country_code]).toEqual(['Washington', 'city', 'US']);
  });

  it('"Summit" after G7 is no town, and the G7 is an organisation', () => {
    const findings = extract('Leaders met at the G7 Summit in Hiroshima.');
    expect(findings.locations.map((p) => p.text)).toEqual(['Hiroshima']);
    expect(findings.actors.map((a) => [a.text, a.actor_type])).toEqual([['G7', 'international_org']]);
  });

  it('a country inside an organisation name is not a country', () => {
    const findings = extract('The Islamic State of Iraq and the Levant (ISIL) claimed the attack.');
    expect(findings.locations).toEqual([]);
    expect(findings.actors[0]).toMatchObject({ text: 'Islamic State of Iraq and the Levant', actor_type: 'armed_group' });
  });

  it("a ship's name is neither a person nor a place", () => {
    const findings = extract('The destroyer HMS Diamond and the USS Carney shot down drones over the Red Sea.');
    expect(findings.actors).toEqual([]);
    expect(findings.locations.map((p) => p.text)).toEqual(['Red Sea']);
  });
});

describe('places missing from the gazetteer', () => {
  it('towns and features by their first word, airfields and bases by their last, regions by compass words', () => {
    expect(placesOf('Troops left Port Elan and Tal Varra for Cape Oru, near Hassek airfield, in northwest Syria.')).toEqual([
      ['Port Elan', 'city'], ['Tal Varra', 'city'], ['Cape Oru', 'other'], ['Hassek airfield', 'site'], ['northwest Syria', 'region'],
    ]);
  });
});
