/**
 * Country names people type, to ISO 3166-1 alpha-2 codes (data). The Reporting Service filters on
 * `countryCode`; "Brazil", "the UK" and "br" all mean BR. Reporting-side data, not the sandbox's
 * seed list: a real account has countries the sandbox never generates.
 */
const NAMES: ReadonlyArray<readonly [string, string]> = [
  ['US', 'united states, usa, united states of america, america'],
  ['GB', 'united kingdom, uk, great britain, britain, england'],
  ['BR', 'brazil, brasil'],
  ['MX', 'mexico'],
  ['CA', 'canada'],
  ['AR', 'argentina'],
  ['CL', 'chile'],
  ['CO', 'colombia'],
  ['PE', 'peru'],
  ['DE', 'germany, deutschland'],
  ['FR', 'france'],
  ['ES', 'spain'],
  ['IT', 'italy'],
  ['NL', 'netherlands, holland'],
  ['BE', 'belgium'],
  ['CH', 'switzerland'],
  ['AT', 'austria'],
  ['SE', 'sweden'],
  ['NO', 'norway'],
  ['DK', 'denmark'],
  ['FI', 'finland'],
  ['PL', 'poland'],
  ['PT', 'portugal'],
  ['IE', 'ireland'],
  ['GR', 'greece'],
  ['CZ', 'czechia, czech republic'],
  ['RO', 'romania'],
  ['HU', 'hungary'],
  ['UA', 'ukraine'],
  ['TR', 'turkey, turkiye'],
  ['RU', 'russia'],
  ['IL', 'israel'],
  ['SA', 'saudi arabia, ksa'],
  ['AE', 'united arab emirates, uae'],
  ['EG', 'egypt'],
  ['ZA', 'south africa'],
  ['NG', 'nigeria'],
  ['IN', 'india'],
  ['ID', 'indonesia'],
  ['JP', 'japan'],
  ['KR', 'south korea, korea'],
  ['CN', 'china'],
  ['TW', 'taiwan'],
  ['HK', 'hong kong'],
  ['SG', 'singapore'],
  ['MY', 'malaysia'],
  ['TH', 'thailand'],
  ['VN', 'vietnam, viet nam'],
  ['PH', 'philippines'],
  ['PK', 'pakistan'],
  ['BD', 'bangladesh'],
  ['AU', 'australia'],
  ['NZ', 'new zealand'],
];

const BY_NAME = new Map<string, string>();
const CODES = new Set<string>();
for (const [code, names] of NAMES) {
  CODES.add(code);
  for (const name of names.split(', ')) BY_NAME.set(name, code);
}

/** Every country name of the table (lower case), for phrase matching and suggestions. */
export const COUNTRY_NAMES: readonly string[] = [...BY_NAME.keys()];

/** The codes of the table's countries (`US`, `BR`…). */
const KNOWN_CODES = new Set(BY_NAME.values());
/** Codes that are also English words a question uses (`IN`, `AT`, `IS`…): never read bare. */
const WORDLIKE_CODES = new Set(['AS', 'AT', 'BE', 'BY', 'DO', 'IN', 'IS', 'IT', 'ME', 'MY', 'NO', 'OR', 'TO']);

/**
 * True when `text` is, as typed, an upper-case code of a country the table knows and no English
 * word: "spend US" filters on the United States, "spend IN" is not read as India.
 */
export function isBareCountryCode(text: string): boolean {
  return /^[A-Z]{2}$/.test(text) && KNOWN_CODES.has(text) && !WORDLIKE_CODES.has(text);
}

/**
 * The ISO2 code of a country typed as a name or a code, or undefined.
 *
 * @example countryCodeOf('Brazil') // 'BR'; countryCodeOf('br') // 'BR'; countryCodeOf('Narnia') // undefined
 */
export function countryCodeOf(text: string): string | undefined {
  const lower = text.toLowerCase();
  const named = BY_NAME.get(lower) ?? (/\s/.test(lower) ? BY_NAME.get(lower.trim().replace(/\s+/g, ' ')) : undefined);
  if (named) return named;
  // Any two letters are a code: a real account has countries this table does not name.
  return /^[a-z]{2}$/.test(lower) ? lower.toUpperCase() : undefined;
}

/** True when the text is a country name of the table (not a bare code). */
export function isCountryName(text: string): boolean {
  if (BY_NAME.has(text)) return true;
  // The parser passes lower-case single words: most are no country, and need no copy to say so.
  if (!/[A-Z\s]/.test(text)) return false;
  const lower = text.toLowerCase();
  return BY_NAME.has(lower) || (/\s/.test(lower) && BY_NAME.has(lower.trim().replace(/\s+/g, ' ')));
}
