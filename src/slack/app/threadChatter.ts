/**
 * Talk between people in the bot's threads ("on it", "thanks!", ":+1:"), told apart from a
 * follow-up before the query language reads it: "on it" would read as `where countryCode = IT`.
 */

/**
 * Everyday words of replies people write to each other. None is a word of the follow-up language
 * (`only`, `by`, `top`, `why`, `vs`, `last`…) or a metric; lower-case `it`, `us`, `me`, `no`, `in`
 * are words here, their upper-case forms country codes (`only US`).
 */
const CHATTER_WORDS = new Set(
  (
    'a an the and or but so it its s this that these those i im me my we us our you your he she they them ' +
    'on in at to of for with from into about up off out is are was were be been am will would can could do does did ' +
    'have has had got get going gonna let lets here there now just too also very really still yet again ' +
    'ok okay k kk yes yep yeah yup no nope nah sure cool nice great good thanks thank thx ty cheers lol haha wow ' +
    'agreed agree done fixed noted seen ack acknowledged looking look checking check will lgtm +1 fyi hi hey hello ' +
    'morning all team someone anyone everyone who whoever mine sounds right weird odd strange interesting ' +
    'see saw know think thought guess maybe probably please pls asap soon later fine'
  ).split(' '),
);

/** Two-letter words that are also country codes: chatter only in lower case (`it`), a code in upper case (`IT`). */
const CODES = /^[A-Z]{2}$/;

/**
 * Whether a thread reply, as typed (decoded), is talk between people rather than a question for the
 * bot: nothing left once emoji are gone, or only everyday words.
 *
 * @example isChatter('On it') // true
 * @example isChatter('only IT') // false
 */
export function isChatter(text: string): boolean {
  const words = text
    .replace(/[!?.,;:…()"'“”‘’*_~-]+/gu, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.every((w) => !CODES.test(w) && CHATTER_WORDS.has(w.toLowerCase()));
}
