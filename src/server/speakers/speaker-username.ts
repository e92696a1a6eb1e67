/** Speaker usernames: derived from the full name, lower-case ASCII words joined by hyphens. */

/** Letters that Unicode decomposition does not reduce to ASCII, spelled the usual way. */
const TRANSLITERATION: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  // Cyrillic
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  // Greek
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

/** Longest slug taken from a name, before any "-2" suffix. */
export const USERNAME_BASE_MAX = 40;

/** Used when a name has nothing that spells in ASCII (e.g. written in Han characters only). */
export const FALLBACK_USERNAME = 'speaker';

/** "Ada Lovelace" -> "ada-lovelace"; "Zoë O'Brien" -> "zoe-o-brien"; "Мария" -> "mariya". */
export function usernameBase(name: string): string {
  const ascii = Array.from(
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Greek "ου" is one sound, spelled "ou".
      .replaceAll('ου', 'ou'),
    (char) => TRANSLITERATION[char] ?? char,
  ).join('');
  const slug = ascii
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, USERNAME_BASE_MAX)
    .replace(/-+$/, '');
  return slug || FALLBACK_USERNAME;
}

/** `base` when free, else `base-2`, `base-3`... the first one nobody has. */
export function firstFreeUsername(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
