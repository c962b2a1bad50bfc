/**
 * One key for the spellings of a place name that transliteration varies: "Deir ez-Zour",
 * "Dayr az Zawr" and "Deir al-Zor"; "Ar-Raqqah" and "Raqqa"; "Tikrīt" and "Tikrit"; "Tall
 * Afar" and "Tal Afar"; "Khān Shaykhūn" and "Khan Sheikhoun". What it folds: diacritics and
 * ayn/hamza marks, the Arabic article in its assimilated forms (al-, ar-, as-, ad-, el-, ez- ...),
 * hyphens and spaces, a final -ah/-eh, q and k, vowels (a run of vowels, and a w or y that
 * closes one, as in Dayr and Zawr, is one vowel) and doubled letters.
 */

/** The article and its assimilated forms, as separate words once hyphens are spaces. */
const ARTICLES = new Set(['al', 'el', 'il', 'ar', 'er', 'as', 'es', 'ad', 'ed', 'an', 'en', 'at', 'et', 'az', 'ez', 'ash', 'esh', 'ath', 'adh', 'ul', 'ud', 'us', 'ur', 'l']);

/** Keys shorter than this say too little to tell two places apart. */
export const MIN_PLACE_KEY_LENGTH = 3;

export function placeKey(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘ʿʾʻ`´]/gu, '')
    .split(/[\s\-‐‑]+/u)
    .filter((word) => word.length > 0);
  const kept = words.length > 1 ? words.filter((word, index) => !(ARTICLES.has(word) && index < words.length - 1)) : words;
  return kept
    .map((word) => word.replace(/[ae]h$/u, 'a'))
    .join('')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/q/gu, 'k')
    .replace(/[aeiou](?:[aeiou]|[wy](?![aeiou]))*/gu, 'a')
    .replace(/(.)\1+/gu, '$1');
}
