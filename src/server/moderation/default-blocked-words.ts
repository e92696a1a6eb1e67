/**
 * The blocked words an event starts with (decision 235): slurs and strong profanity of each
 * language the app ships, not mild words. Short on purpose, and chosen so that none of them is a
 * common word of another of these languages once accents are dropped (French "con" is Spanish
 * "with", "pédé" is Portuguese "pede", Spanish "coño" is "cono", a cone; "salope*" would take
 * "salopette"): `blocked-words.test.ts`
 * checks each list against common words of every language. `*` stands for any letters (stems);
 * a word of several is a phrase. Japanese is written without spaces, so its words are found
 * inside the text: its list keeps to words no common word holds ("マンコ" is inside
 * "ヒューマンコンピュータ", "気違い" inside "雰囲気違い", which is why they are not in it). The
 * organiser sees and edits the whole list in the console.
 */
export const DEFAULT_BLOCKED_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'fuck*',
    'motherfuck*',
    'shit',
    'shits',
    'shitty',
    'bullshit',
    'shithead*',
    'cunt*',
    'asshole*',
    'bitch',
    'bitches',
    'whore*',
    'slut*',
    'dickhead*',
    'nigger*',
    'nigga*',
    'faggot*',
    'kike',
    'kikes',
    'wetback*',
    'tranny',
  ],
  fr: [
    'connard*',
    'connasse*',
    'salope',
    'salopes',
    'encule*',
    'pute',
    'putes',
    'nique ta mere',
    'bougnoul*',
    'youpin*',
  ],
  de: [
    'fotze*',
    'wichser*',
    'hurensohn*',
    'arschloch*',
    'schlampe*',
    'ficken',
    'gefickt',
    'fick dich',
    'kanake*',
    'schwuchtel*',
    'missgeburt*',
    'neger*',
  ],
  es: [
    'puta',
    'putas',
    'hijoputa',
    'gilipollas',
    'maricon*',
    'sudaca*',
    'malparido*',
    'concha de tu madre',
  ],
  pt: ['caralho*', 'foda se', 'fodase', 'viado*', 'buceta*', 'vai tomar no cu'],
  ar: ['شرموطة', 'شرموط', 'قحبة', 'عرص', 'منيوك', 'كس امك', 'كسمك', 'ابن الكلب'],
  ja: ['キチガイ', 'ヤリマン', 'チンポ', 'クソ野郎'],
};

/** Every language's list in one: what an event blocks until its organiser edits the list. */
export const DEFAULT_BLOCKED_WORD_LIST: readonly string[] =
  Object.values(DEFAULT_BLOCKED_WORDS).flat();
