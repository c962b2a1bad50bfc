import type { GraphIndex } from '../../engine/store/graph-index.ts';
import { exportJsonLines } from '../../engine/store/transfer.ts';

/** A graph as exported, sorted, without the instants of the run that wrote it (when each record and document was written). */
export function exportWithoutInstants(index: GraphIndex): string[] {
  return [...exportJsonLines(index)].map((line) => {
    const record = JSON.parse(line) as { node?: Record<string, unknown>; edge?: Record<string, unknown> };
    const body = (record.node ?? record.edge)!;
    delete body.recorded_at;
    delete body.ingested_at;
    return JSON.stringify(record);
  }).sort();
}
