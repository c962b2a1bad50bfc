/** Consecutive words `[from, to)` of one sentence that go through the model together. */
export interface WordWindow {
  from: number;
  to: number;
}

/**
 * Cuts a sentence into windows of whole words whose sub-word tokens fit the model's input
 * (512 positions for BERT, minus the special tokens). Windows do not overlap: the splitter
 * already cut the text at sentence ends, so a window boundary only falls inside a sentence
 * of hundreds of words, which is rare in news and reports. A single word longer than the
 * budget gets a window of its own; the caller keeps only its first tokens (its label comes
 * from the first one).
 */
export function planWindows(tokenCounts: readonly number[], maxTokens: number): WordWindow[] {
  if (maxTokens < 1) throw new RangeError(`maxTokens must be positive (got ${maxTokens})`);
  const windows: WordWindow[] = [];
  let from = 0;
  let used = 0;
  for (let i = 0; i < tokenCounts.length; i++) {
    const count = tokenCounts[i]!;
    if (i > from && used + count > maxTokens) {
      windows.push({ from, to: i });
      from = i;
      used = 0;
    }
    used += count;
  }
  if (tokenCounts.length > 0) windows.push({ from, to: tokenCounts.length });
  return windows;
}
