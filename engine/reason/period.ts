/** The calendar periods a trajectory is cut into: one module of its own, so that a command line can offer them without loading the reasoning engine. */
export type Period = 'month' | 'quarter' | 'year';
export const PERIODS: readonly Period[] = ['month', 'quarter', 'year'];
