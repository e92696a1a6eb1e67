/**
 * Names people type (an attendee's username, an asker's name, a speaker's full name, the event's
 * name) are shown to everybody, so a name keeps only what prints (decision 194). Removed:
 *
 * - the bidi controls (embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069, the
 *   marks U+200E, U+200F, U+061C), which reorder what follows: "Ada\u202Egnp.exe" shows as
 *   "Adaexe.png";
 * - every other format or default-ignorable character: zero-width spaces and joiners, the word
 *   joiner, the byte-order mark, the soft hyphen, the invisible operators U+2061–U+2064, the
 *   Mongolian vowel separator, the Hangul fillers, and the braille blank U+2800, which prints
 *   as a blank.
 *
 * Kept, because they are parts of a character a person sees:
 *
 * - a zero-width joiner between two emoji (👩🏽‍💻, 🏳️‍🌈), and nowhere else;
 * - a variation selector right after a letter, digit or symbol (❤️, 1️⃣, an ideographic variant
 *   of a Japanese name), one at most;
 * - the tag characters of a subdivision flag (🏴 + tags + cancel tag: the flag of Scotland).
 *
 * Control characters are not removed here: the schemas refuse them.
 */

/** A ZWJ joining two emoji (the first may carry a variation selector or a skin tone). */
const EMOJI_JOINER = String.raw`(?<=\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]?)\u200D(?=\p{Extended_Pictographic})`;
/** What prints nothing: format characters, default-ignorable ones, the braille blank. */
const INVISIBLE = String.raw`[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]`;
/** One variation selector, on a visible character it varies (a Hangul filler is a letter). */
const VARIATION = String.raw`(?<=(?!${INVISIBLE})[\p{L}\p{N}\p{S}\p{Emoji}])[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]`;
/** The tags of a subdivision flag, ended by the cancel tag. */
const FLAG_TAGS = String.raw`(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}`;

/**
 * The kept sequences are tried first at each place; anything else invisible goes. Made at its
 * first use, as a name is typed or read: compiling its Unicode properties is a long task on a
 * phone, which the first screen's code would otherwise run before it draws.
 */
let nameNoise: RegExp | undefined;

/**
 * A name without the characters that print nothing or reorder the text, as it is stored. Not
 * trimmed: the schemas trim after it, so " \u202E Ada" is "Ada". Cleaning twice changes nothing.
 */
export function cleanName(name: string): string {
  nameNoise ??= new RegExp(`(${EMOJI_JOINER}|${VARIATION}|${FLAG_TAGS})|${INVISIBLE}`, 'gu');
  return name.replace(nameNoise, (_all, kept: string | undefined) => kept ?? '');
}
