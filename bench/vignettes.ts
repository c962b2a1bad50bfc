/**
 * The conflict vignettes' table: per vignette the expected readings against the assess
 * ranking's top 3, Glasl's stage against its expected range, and the totals the scoring is
 * calibrated on (bench/vignettes/evaluate.ts).
 *
 *   npx tsx bench/vignettes.ts
 */
import { loadRuleModules } from '../engine/frameworks/loader.ts';
import { evaluateVignettes, vignetteTable } from './vignettes/evaluate.ts';

const catalog = await loadRuleModules([]);
const { results, totals } = await evaluateVignettes(catalog);
console.log(vignetteTable(results, totals));
