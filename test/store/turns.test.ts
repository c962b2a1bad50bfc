import { describe, expect, it } from 'vitest';
import { LoopSlicer, SLICE_MS } from '../../engine/turns.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('LoopSlicer', () => {
  it('says a slice is spent never before SLICE_MS, within a stride of cheap calls after, and at the first heavy call after', async () => {
    for (const [work, lateBy] of [[0, 16], [SLICE_MS / 4, 1]] as const) {
      const slicer = new LoopSlicer();
      // the slice starts inside turn(), between these two readings of the clock
      const before = performance.now();
      await slicer.turn();
      const after = performance.now();
      let callsPastSlice = 0;
      for (;;) {
        busy(work);
        if (performance.now() - after >= SLICE_MS) callsPastSlice++;
        const due = slicer.due();
        if (due) expect(performance.now() - before).toBeGreaterThanOrEqual(SLICE_MS);
        if (due) break;
      }
      expect(callsPastSlice).toBeLessThanOrEqual(lateBy);
    }
  });
});
