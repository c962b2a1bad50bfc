/**
 * Compares an engine's result table with a scenario's expected table, as the
 * reference TCK runner does: the column names in order, then the rows as a
 * sequence ("in order") or as a multiset ("in any order"). Returns a
 * human-readable difference, or undefined when they match.
 */
import { canonical, formatTckValue, parseTckValue, type TckValue } from './values.ts';

export interface ExpectedTable {
  columns: string[];
  rows: string[][];
  ordered: boolean;
  unorderedLists: boolean;
}

export interface ActualTable {
  columns: string[];
  rows: TckValue[][];
}

/** The most rows of a side shown in a difference. */
const ROWS_SHOWN = 12;

export function compareTables(expected: ExpectedTable, actual: ActualTable): string | undefined {
  if (!sameList(expected.columns, actual.columns)) {
    return `columns differ: expected [${expected.columns.join(', ')}], got [${actual.columns.join(', ')}]`;
  }
  const options = { unorderedLists: expected.unorderedLists };
  const expectedRows = expected.rows.map((row) => row.map((cell) => parseTckValue(cell)));
  const badWidth = actual.rows.findIndex((row) => row.length !== actual.columns.length);
  if (badWidth >= 0) return `row ${badWidth + 1} has ${actual.rows[badWidth].length} values for ${actual.columns.length} columns`;
  const expectedKeys = expectedRows.map((row) => rowKey(row, options));
  const actualKeys = actual.rows.map((row) => rowKey(row, options));

  if (expected.ordered) {
    const firstDifference = expectedKeys.findIndex((key, i) => key !== actualKeys[i]);
    if (firstDifference < 0 && expectedKeys.length === actualKeys.length) return undefined;
    const at = firstDifference < 0 ? expectedKeys.length : firstDifference;
    return [
      `rows differ (in order) from row ${at + 1}: expected ${expectedRows.length} rows, got ${actual.rows.length}`,
      ...showRows('expected', expectedRows),
      ...showRows('actual', actual.rows),
    ].join('\n');
  }

  const unmatched = new Map<string, number>();
  for (const key of expectedKeys) unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
  const extra: TckValue[][] = [];
  actual.rows.forEach((row, i) => {
    const left = unmatched.get(actualKeys[i]) ?? 0;
    if (left > 0) unmatched.set(actualKeys[i], left - 1);
    else extra.push(row);
  });
  const missing = expectedRows.filter((_, i) => {
    const left = unmatched.get(expectedKeys[i]) ?? 0;
    if (left === 0) return false;
    unmatched.set(expectedKeys[i], left - 1);
    return true;
  });
  if (missing.length === 0 && extra.length === 0) return undefined;
  return [
    `rows differ (in any order): expected ${expectedRows.length} rows, got ${actual.rows.length}`,
    ...showRows('missing', missing),
    ...showRows('unexpected', extra),
  ].join('\n');
}

function rowKey(row: TckValue[], options: { unorderedLists: boolean }): string {
  return row.map((value) => canonical(value, options)).join(' | ');
}

function showRows(label: string, rows: TckValue[][]): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, ROWS_SHOWN).map((row) => `    | ${row.map(formatTckValue).join(' | ')} |`);
  if (rows.length > ROWS_SHOWN) shown.push(`    … ${rows.length - ROWS_SHOWN} more`);
  return [`  ${label}:`, ...shown];
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
