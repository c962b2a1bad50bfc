import type { Trajectory } from '@parley/engine/reason/tasks.ts';

/**
 * Where a conflict stood in each period, as the time-aware frameworks concluded: Glasl's stage
 * (1-9) and Kriesberg's phase, the two the report plots, and the other conclusions of the period
 * (Kriesberg's trend, Deutsch's interaction, Zartman's ripeness, ...) beside them.
 */
export interface EscalationPoint {
  period: string;
  /** Glasl's stage, 1 to 9 (absent: Glasl concluded none for the period). */
  stage?: number;
  /** Kriesberg's phase (absent: none concluded). */
  phase?: string;
  /** Every other conclusion of the period, as `framework.key`: value. */
  other: Record<string, string | number | boolean>;
}

/** Glasl's nine stages, by number (frameworks/glasl/rules.pl stage_name/2). */
export const GLASL_STAGES = [
  'hardening', 'debates and polemics', 'actions, not words', 'images and coalitions', 'loss of face',
  'strategies of threats', 'limited destructive blows', 'fragmentation of the enemy', 'together into the abyss',
] as const;
/** Kriesberg's phases, from the earliest of a conflict's life to the latest (frameworks/kriesberg/rules.pl). */
export const KRIESBERG_PHASES = ['latent', 'emerging', 'escalating', 'stalemate', 'de_escalating', 'settlement', 'post_conflict'] as const;

/** The trajectory's points from the first with a stage or a phase: a small conflict's actors may be named months before it starts. */
export function escalationOf(trajectory: Trajectory | undefined): EscalationPoint[] {
  const rows = (trajectory?.points ?? []).map((point) => {
    const row: EscalationPoint = { period: point.period, other: {} };
    for (const { framework_id, key, value } of point.conclusions) {
      if (framework_id === 'glasl' && key === 'stage' && typeof value === 'number') row.stage = value;
      else if (framework_id === 'kriesberg' && key === 'phase' && typeof value === 'string') row.phase = value;
      else row.other[`${framework_id}.${key}`] = value;
    }
    return row;
  });
  const first = rows.findIndex((row) => row.stage !== undefined || row.phase !== undefined);
  return first < 0 ? [] : rows.slice(first);
}
