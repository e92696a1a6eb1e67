import { remove as removeConfusables } from 'confusables';

/** Characters that print nothing: format controls (zero-width spaces and joiners, bidi marks). */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The key under which speaker names must be unique (decision 110): two names that a person
 * reads as the same give the same key. Unicode NFKC (full-width and compatibility forms), the
 * invisible characters removed, case folded, look-alike letters of other scripts mapped to the
 * Latin letter they imitate (the `confusables` table, which also drops accents), and spaces
 * collapsed. "Grace Hopper", "GRACE  HOPPER", "Grаce Hopper" (Cyrillic а) and "Grace\u200BHopper"
 * with a zero-width space inside a word all clash.
 */
export function speakerNameKey(name: string): string {
  const folded = name.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  return removeConfusables(folded)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}
