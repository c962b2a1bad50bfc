import { findDates } from './symbolic/dates.ts';

/**
 * The date a document gives itself in a dateline or byline ("KHARTOUM, 4 March 2024 -",
 * "Briefing note, 12 March 2024", a line that is only a date). It becomes the
 * document's `published_at` and the timestamp of what the document says without
 * dating it, and anchors relative dates ("yesterday"). A date inside a sentence
 * ("On 3 March 2024 the RSF attacked") says when something happened, not when the
 * document was written, and is not taken.
 */

/** Lines from the top of the document searched for a dateline. */
const DATELINE_LINES = 5;
/** What may precede the date on its line: a place or a label and a separator ("GOMA, ", "*Briefing note, "). */
const DATELINE_PREFIX = /^[\p{L}\s.'’*_()-]{0,40}[,—–-]\s*$|^[\s*_#>-]*$|^[\s*_]*(?:published|updated|posted|dated|date)\s*:?\s*$/iu;

export function datelineDate(text: string): string | undefined {
  let linesSeen = 0;
  for (const line of text.split('\n', 200)) {
    if (line.trim() === '') continue;
    if (++linesSeen > DATELINE_LINES) break;
    const first = findDates(line)[0];
    if (!first || !/^\d{4}-\d{2}-\d{2}$/.test(first.iso)) continue;
    if (DATELINE_PREFIX.test(line.slice(0, first.start))) return first.iso;
  }
  return undefined;
}
