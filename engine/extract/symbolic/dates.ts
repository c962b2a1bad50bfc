import type { DateMention } from '../types.ts';

/**
 * Date expressions normalised to ISO 8601: absolute dates as written, relative
 * ones ("yesterday", "last Tuesday", "in March", "two weeks ago") against the
 * document date. Without a document date, only what the text fixes by itself
 * is returned. Written as patterns rather than with compromise-dates so the
 * span of each expression and its resolution rule are exact and testable.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** Full month names, or abbreviations with an optional full stop (a sentence's own full stop stays outside "November"). */
const MONTH_PATTERN = '(January|February|March|April|May|June|July|August|September|October|November|December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)(?![a-z])\\.?)';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, several: 3, few: 3,
};

interface DatePattern {
  pattern: RegExp;
  /** Group whose text is the mention (0 = the whole match). */
  group?: number;
  resolve: (match: RegExpMatchArray, context: ResolveContext) => string | undefined;
}

interface ResolveContext {
  documentDate?: Date;
  /** The expression sits in a future-tense clause ("will meet on Tuesday"). */
  future: boolean;
}

const pad = (value: number) => String(value).padStart(2, '0');
const isoDay = (date: Date) => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
const isoMonth = (date: Date) => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`;
const monthIndex = (name: string) => MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().replace('.', '').slice(0, 3)));

function validDay(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  return isoDay(date);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

/**
 * The year of a day or month written without one: the document's year, unless
 * that puts it more than about six months after the document (then the year before;
 * news reports past events far more than distant future ones).
 */
function yearFor(month: number, context: ResolveContext): number | undefined {
  if (!context.documentDate) return undefined;
  const year = context.documentDate.getUTCFullYear();
  return month - context.documentDate.getUTCMonth() > 6 ? year - 1 : year;
}

function weekday(name: string, direction: 'last' | 'next' | 'nearest', context: ResolveContext): string | undefined {
  if (!context.documentDate) return undefined;
  const target = WEEKDAYS.indexOf(name.toLowerCase());
  const today = context.documentDate.getUTCDay();
  const back = (today - target + 7) % 7;
  if (direction === 'last') return isoDay(addDays(context.documentDate, -(back === 0 ? 7 : back)));
  const forward = (target - today + 7) % 7;
  if (direction === 'next') return isoDay(addDays(context.documentDate, forward === 0 ? 7 : forward));
  return isoDay(addDays(context.documentDate, context.future ? forward : -back));
}

const quantity = (word: string) => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);

const DATE_PATTERNS: DatePattern[] = [
  {
    pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g,
    resolve: (m) => validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])),
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_PATTERN},?\\s+(\\d{4})\\b`, 'gi'),
    resolve: (m) => validDay(Number(m[3]), monthIndex(m[2]), Number(m[1])),
  },
  {
    pattern: new RegExp(`\\b${MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    resolve: (m) => validDay(Number(m[3]), monthIndex(m[1]), Number(m[2])),
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_PATTERN}(?![\\p{L}])`, 'giu'),
    resolve: (m, context) => {
      const month = monthIndex(m[2]);
      const year = yearFor(month, context);
      return year === undefined ? undefined : validDay(year, month, Number(m[1]));
    },
  },
  {
    pattern: new RegExp(`\\b${MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!\\s*(?:,\\s*)?\\d)`, 'gi'),
    resolve: (m, context) => {
      const month = monthIndex(m[1]);
      const year = yearFor(month, context);
      return year === undefined ? undefined : validDay(year, month, Number(m[2]));
    },
  },
  {
    pattern: new RegExp(`\\b(?:(?:early|mid|late)[- ])?${MONTH_PATTERN}\\s+(\\d{4})\\b`, 'gi'),
    resolve: (m) => `${m[2]}-${pad(monthIndex(m[1]) + 1)}`,
  },
  {
    // A month named alone needs a preposition to tell it from "May" the verb and "March" the noun.
    pattern: new RegExp(`\\b(?:[Ii]n|[Ss]ince|[Uu]ntil|[Bb]y|[Dd]uring|[Ff]rom|[Tt]hrough|[Ee]arly|[Ll]ate|[Mm]id|of|[Ll]ast|[Tt]his|[Nn]ext)[- ](?:early |late |mid-)?(${MONTH_PATTERN.replace('May|', 'May(?=[ ,.;])|')})(?![\\p{L}\\d]|\\s+\\d)`, 'gu'),
    group: 1,
    resolve: (m, context) => {
      const month = monthIndex(m[2]);
      const year = yearFor(month, context);
      return year === undefined ? undefined : `${year}-${pad(month + 1)}`;
    },
  },
  {
    pattern: /\b(?:[Ii]n|[Ss]ince|[Uu]ntil|[Bb]y|[Dd]uring|[Ff]rom|of|[Ee]arly|[Ll]ate|[Mm]id-?)\s+((?:19|20)\d{2})\b(?![-\/]\d)/g,
    group: 1,
    resolve: (m) => m[1],
  },
  {
    pattern: /\b(the day before yesterday|yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening|earlier today)\b/gi,
    resolve: (m, context) => {
      if (!context.documentDate) return undefined;
      const word = m[0].toLowerCase();
      const offset = word === 'the day before yesterday' ? -2 : word === 'yesterday' || word === 'last night' ? -1 : word === 'tomorrow' ? 1 : 0;
      return isoDay(addDays(context.documentDate, offset));
    },
  },
  {
    pattern: /\b(?:([Ll]ast|[Nn]ext|[Tt]his)\s+)?(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday)(?:\s+(?:morning|afternoon|evening|night))?\b/g,
    resolve: (m, context) => {
      const modifier = m[1]?.toLowerCase();
      return weekday(m[2], modifier === 'last' ? 'last' : modifier === 'next' ? 'next' : 'nearest', context);
    },
  },
  {
    pattern: /\b(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|few)\s+(day|week|month|year)s?\s+(ago|earlier|later)\b/gi,
    resolve: (m, context) => {
      if (!context.documentDate) return undefined;
      const amount = quantity(m[1]) * (m[3].toLowerCase() === 'later' ? 1 : -1);
      const unit = m[2].toLowerCase();
      if (unit === 'day') return isoDay(addDays(context.documentDate, amount));
      if (unit === 'week') return isoDay(addDays(context.documentDate, amount * 7));
      if (unit === 'month') return isoMonth(addMonths(context.documentDate, amount));
      return String(context.documentDate.getUTCFullYear() + amount);
    },
  },
  {
    pattern: /\b(?:(?:earlier|later) )?(last|this|next|earlier this|later this) (month|year)\b/gi,
    resolve: (m, context) => {
      if (!context.documentDate) return undefined;
      const which = m[1].toLowerCase();
      const shift = which === 'last' ? -1 : which === 'next' ? 1 : 0;
      if (m[2].toLowerCase() === 'month') return isoMonth(addMonths(context.documentDate, shift));
      return String(context.documentDate.getUTCFullYear() + shift);
    },
  },
];

const FUTURE_CUE = /\b(?:will|shall|'ll|to be held|scheduled|due to|expected to|plans? to|set to|next)\b/i;

function parseDocumentDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function findDates(text: string, documentDate?: string): DateMention[] {
  const anchor = parseDocumentDate(documentDate);
  const found: DateMention[] = [];
  const unresolved: { start: number; end: number }[] = [];
  for (const datePattern of DATE_PATTERNS) {
    for (const match of text.matchAll(datePattern.pattern)) {
      const groupText = match[datePattern.group ?? 0];
      const start = match.index + (datePattern.group ? match[0].indexOf(groupText) : 0);
      const end = start + groupText.length;
      if ([...found, ...unresolved].some((date) => date.start < end && start < date.end)) continue;
      const clauseStart = Math.max(text.lastIndexOf('.', start), text.lastIndexOf(',', start), 0);
      const future = FUTURE_CUE.test(text.slice(clauseStart, start)) || /^next\b/i.test(groupText);
      const iso = datePattern.resolve(match, { documentDate: anchor, future });
      // An expression that cannot be resolved (no document date, 31 February) still keeps its words from shorter patterns.
      if (iso) found.push({ start, end, text: groupText, iso });
      else unresolved.push({ start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
