import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { fuzzyPhrases } from '../engine/extract/symbolic/fuzzy.ts';
import { fuzzyActors, fuzzyPlaces, knownActors, knownCities, knownPlaces } from '../engine/extract/symbolic/gazetteer/index.ts';
import { tokenize } from '../engine/extract/symbolic/text.ts';
import { anyNamesMatch, parseGold } from './eval/score.ts';

/**
 * `npx tsx bench/fuzzy-names.ts`: the precision guard of fuzzy gazetteer matching,
 * measured. Every variant-spelling hit on the labelled sets (dev and the first
 * held-out set; the official held-out set is not read) is checked against the gold
 * actors and places of its sentence: a hit is right when a gold name matches it.
 */
const SETS = ['dev.jsonl', 'heldout.jsonl'];

let hits = 0;
let right = 0;
for (const set of SETS) {
  const gold = parseGold(await readFile(fileURLToPath(new URL(`../corpora/gold/${set}`, import.meta.url)), 'utf8'));
  for (const sentence of gold) {
    const tokens = tokenize(sentence.text);
    for (let i = 0; i < tokens.length; i++) {
      if (knownActors().matchesAt(tokens, i).length > 0 || knownPlaces().matchesAt(tokens, i).length > 0 || knownCities().matchesAt(tokens, i).length > 0) continue;
      for (const phrase of fuzzyPhrases(tokens, i)) {
        const found = fuzzyActors().lookup(phrase.text) ?? fuzzyPlaces().lookup(phrase.text);
        if (!found) continue;
        hits++;
        const names = [...sentence.actors.flatMap((actor) => [actor.text, ...(actor.aliases ?? [])]), ...sentence.locations.map((place) => place.text)];
        const ok = anyNamesMatch(names, [phrase.text]);
        if (ok) right++;
        console.log(`${ok ? 'right' : 'WRONG'}  ${sentence.id}: "${phrase.text}" -> ${found.name}`);
        break;
      }
    }
  }
}
console.log(`gold sets: fuzzy hits ${hits}, right ${right}, precision ${hits ? (right / hits).toFixed(3) : '-'}`);

/**
 * Larger public NER sets (CoNLL columns: token, tag) given on the command line, e.g.
 * ../shared/data/ner/btc/btc.train: a hit is right when every token of it is tagged
 * as part of an entity.
 */
let conllHits = 0;
let conllRight = 0;
for (const path of process.argv.slice(2)) {
  const blocks = (await readFile(path, 'utf8')).split(/\n\s*\n/);
  for (const block of blocks) {
    const rows = block.split('\n').filter((line) => !line.startsWith('#')).map((line) => line.split('\t')).filter((row) => row.length >= 2 && row[0] !== '');
    // Rows joined by spaces; each row's characters remember its tag.
    const tagAt: string[] = [];
    for (const row of rows) tagAt.push(...Array.from({ length: row[0].length + 1 }, () => row[row.length - 1]));
    const tokens = tokenize(rows.map((row) => row[0]).join(' '));
    for (let i = 0; i < tokens.length; i++) {
      if (knownActors().matchesAt(tokens, i).length > 0 || knownPlaces().matchesAt(tokens, i).length > 0 || knownCities().matchesAt(tokens, i).length > 0) continue;
      for (const phrase of fuzzyPhrases(tokens, i)) {
        const found = fuzzyActors().lookup(phrase.text) ?? fuzzyPlaces().lookup(phrase.text);
        if (!found) continue;
        conllHits++;
        const ok = tokens.slice(i, phrase.endToken).every((token) => tagAt[token.start] !== undefined && tagAt[token.start] !== 'O');
        if (ok) conllRight++;
        console.log(`${ok ? 'right' : 'WRONG'}  "${phrase.text}" -> ${found.name}`);
        break;
      }
    }
  }
}
if (process.argv.length > 2) console.log(`CoNLL sets: fuzzy hits ${conllHits}, right ${conllRight}, precision ${conllHits ? (conllRight / conllHits).toFixed(3) : '-'}`);
