/**
 * The conflict vignettes' table: per vignette the expected readings against the assess
 * ranking's top 3, Glasl's stage against its expected range, and the totals the scoring is
 * calibrated on (bench/vignettes/evaluate.ts). With --generated, also how many frameworks share
 * the top score on generated graphs of those sizes (bench/conflict-graph.ts), where a score that
 * saturates shows.
 *
 *   npx tsx bench/vignettes.ts [--generated 10000,100000]
 */
import { parseArgs } from 'node:util';
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { evaluateVignettes, topScoreSharing, vignetteTable } from './vignettes/evaluate.ts';

const { values: args } = parseArgs({ options: { generated: { type: 'string', default: '' } } });
const catalog = await loadRuleModules([]);
const { results, totals } = await evaluateVignettes(catalog);
console.log(vignetteTable(results, totals));
for (const result of results.filter((entry) => !entry.conceptNamed)) console.log(`\n${result.file}: the answer does not name the concept:\n  ${result.answer}`);
for (const size of args.generated!.split(',').map(Number).filter((x) => x > 0)) {
  const { sharing, ranking } = await topScoreSharing(catalog, size);
  console.log(`\ngenerated graph of ${size} facts: ${sharing} of ${ranking.length} frameworks share the top score`);
  console.log(ranking.map((assessment) => `${assessment.framework_id} ${assessment.fit}`).join(', '));
}
