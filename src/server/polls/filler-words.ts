/**
 * Words a word cloud leaves out (decision 222): the small words of each language the app ships,
 * which every answer would otherwise be full of. Kept short on purpose: articles, pronouns,
 * conjunctions, prepositions and the commonest verbs; compared after normalisation (NFKC, lower
 * case), so each is written here as it is normalised.
 */
export const FILLER_WORDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries({
    en: 'a an and are as at be but by for from has have he her his i in is it its me my not of on or our she so that the their them they this to too us very was we were what with you your',
    fr: 'au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui ma mais me mes moi mon ne nous ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous très',
    de: 'aber als am an auch auf aus bei bin bist das dass dem den der des die du ein eine einem einen einer er es für hat ich ihr im in ist mit nicht oder sehr sie sind und von vom war wir zu zum zur',
    es: 'al con de del el ella en es esta este la las le lo los mi muy no nos para pero por que se su sus te tu un una uno y yo',
    pt: 'ao as com da das de do dos e ela ele em eu na nas no nos não o os para pela pelo por que se sua seu um uma muito é',
    ar: 'في من على إلى عن مع هذا هذه ذلك التي الذي هو هي أن إن لا ما و أو ثم كان كل قد جدا',
    ja: 'の に は を た が で て と し れ さ ある いる も する から な こと として い や など です ます とても',
  }).map(([code, words]) => [code, words.split(' ')]),
);
