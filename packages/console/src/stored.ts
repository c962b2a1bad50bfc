// Query history and saved queries, per browser (localStorage): the last 50 queries run, and
// queries saved under a name.
const HISTORY = 'parley.history';
const SAVED = 'parley.saved';
export const HISTORY_LENGTH = 50;

function read<T>(item: string, fallback: T): T {
  try {
    return (JSON.parse(localStorage.getItem(item) ?? 'null') as T | null) ?? fallback;
  } catch {
    return fallback;
  }
}

export const stored = {
  history: (): string[] => read<string[]>(HISTORY, []),
  remember(query: string): void {
    localStorage.setItem(HISTORY, JSON.stringify([query, ...stored.history().filter((past) => past !== query)].slice(0, HISTORY_LENGTH)));
  },
  saved: (): Record<string, string> => read<Record<string, string>>(SAVED, {}),
  save(name: string, query: string): void {
    localStorage.setItem(SAVED, JSON.stringify({ ...stored.saved(), [name]: query }));
  },
};
