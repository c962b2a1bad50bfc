import type { Command } from 'commander';
import { output, withClient } from '../context.ts';
import { evidenceLines } from '../evidence.ts';
import { addScopeOptions, scopeOf, type ScopeOptions } from '../scope-options.ts';

/** Evidence lines printed under each framework (--json has every citation). */
const EVIDENCE_PER_FRAMEWORK = 3;

export function register(program: Command): void {
  addScopeOptions(program
    .command('assess'))
    .description("run the theory frameworks over a workspace's graph, ranked by fit")
    .argument('<workspace>', 'the workspace id')
    .option('--frameworks <ids>', 'comma-separated framework ids (default: all loaded)')
    .option('--trajectory <period>', 'also the escalation trajectory per month, quarter or year')
    .option('--by-conflict', 'also assess each conflict of the graph on its own')
    .action(async (workspace: string, options: ScopeOptions & { frameworks?: string; trajectory?: 'month' | 'quarter' | 'year'; byConflict?: boolean }, command: Command) => {
      const scope = scopeOf(options);
      await withClient(command, async (client) => {
        const result = await client.assess(workspace, {
          ...(options.frameworks ? { frameworks: options.frameworks.split(',').map((id) => id.trim()) } : {}),
          ...(options.trajectory ? { trajectory: { period: options.trajectory } } : {}),
          ...(scope ? { scope } : {}),
          ...(options.byConflict ? { by_conflict: true } : {}),
        });
        const ranking = (assessments: typeof result.assessments, cited: typeof result.citations) =>
          assessments
            .map((a) => [
              `${a.fit.toFixed(2)}  ${a.applies ? 'applies ' : 'does not'}  ${a.name}: ${a.explanation}`,
              // the first records its findings rest on, as a person checks them
              ...evidenceLines(a.findings.flatMap((finding) => finding.evidence.slice(0, 1)), cited, EVIDENCE_PER_FRAMEWORK, '      '),
            ].join('\n'))
            .join('\n');
        output(command, result, () =>
          [ranking(result.assessments, result.citations), ...(result.conflicts ?? []).map((entry) => `\n${entry.conflict.name} (${entry.conflict.id})\n${ranking(entry.assessments, entry.citations)}`)].join('\n'),
        );
      });
    });
}
