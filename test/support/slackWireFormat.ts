/**
 * What Slack sends an app for text a person typed — the wire format, not the typed text.
 *
 * Real Slack never hands an app what a person typed. It escapes `&`, `<` and `>`, turns anything that looks
 * like a URL, a domain or an e-mail address into link markup, and (on macOS and iOS) the person's keyboard has
 * already turned straight quotes into curly ones. Test servers that send raw typed text let every end-to-end
 * test pass on text Slack would never send; `encodeAsSlack` is what they should send instead.
 *
 * Sources (read, not copied):
 * - Slack, "Formatting text for app surfaces" / "Formatting message text", section "Escaping text": `&`, `<`,
 *   `>` and only those three are sent as `&amp;`, `&lt;`, `&gt;` (https://api.slack.com/reference/surfaces/formatting,
 *   https://api.slack.com/messaging/composing/formatting).
 * - Slack's older formatting reference, "Linking to URLs" and "Variables" (github slackhq/slack-api-docs,
 *   page_formatting.md; https://api.slack.com/docs/formatting): "URL detection is performed by the server";
 *   `http://foo.com/` is sent as `<http://foo.com/>`, `www.foo.com` as `<http://www.foo.com|www.foo.com>`
 *   (full URL, a pipe, then what was typed); e-mails as `<mailto:…|…>`; mentions `<@U…>`, `<#C…|name>`,
 *   `<!here>`, `<!channel>`, `<!everyone>`, `<!subteam^S…>`.
 * - Slash commands: with `should_escape: true`, "channel, user, and link references in the command's text are
 *   escaped/parsed before being sent" (@slack/web-api docs, `should_escape`), i.e. the same link markup as in
 *   messages; `&`, `<`, `>` arrive escaped either way (lookerbot #52, slack-ruby-bot #237 in
 *   shared/notes/slack-bolt-node-facts.md §1.7b).
 * - Top-level domains: IANA's list (tlds-alpha-by-domain.txt, version 2026051600), all ASCII entries.
 *
 * What is modelled and what is a judgement call is listed at `wireSamples`; the `note` of each sample says
 * which rule it checks and, where Slack's reference says nothing, that it is our best reading.
 */

/** Where the text was typed. Both surfaces encode the same way (see the module comment); tests record which path they model. */
export type SlackSurface = 'slash' | 'message';

export interface EncodeOptions {
  /** `slash`: slash-command `text` with `should_escape: true`; `message`: message, app_mention and DM `text`. Default `message`. */
  surface?: SlackSurface;
  /** Straight quotes become “ ” ‘ ’ (and apostrophes ’) as macOS and iOS do while a person types. Default false. */
  smartQuotes?: boolean;
}

/** Version of IANA's tlds-alpha-by-domain.txt the list below was taken from. */
export const IANA_TLD_LIST_VERSION = '2026051600';

// Every ASCII entry of IANA's list (the 151 `xn--` IDN entries left out: typed text would hold their Unicode
// form, which this encoder does not model). Note that some words that look harmless are real TLDs: `.foo`,
// `.bar`, `.zip`, `.md`, `.date`, `.name`, `.total`, `.id` — Slack links `README.md` for the same reason.
const TLD_WORDS =
  'aaa aarp abb abbott abbvie abc able abogado abudhabi ac academy accenture accountant accountants aco actor ad ' +
  'ads adult ae aeg aero aetna af afl africa ag agakhan agency ai aig airbus airforce airtel akdn al alibaba ' +
  'alipay allfinanz allstate ally alsace alstom am amazon americanexpress americanfamily amex amfam amica ' +
  'amsterdam analytics android anquan anz ao aol apartments app apple aq aquarelle ar arab aramco archi army ' +
  'arpa art arte as asda asia associates at athleta attorney au auction audi audible audio auspost author auto ' +
  'autos aw aws ax axa az azure ba baby baidu banamex band bank bar barcelona barclaycard barclays barefoot ' +
  'bargains baseball basketball bauhaus bayern bb bbc bbt bbva bcg bcn bd be beats beauty beer berlin best ' +
  'bestbuy bet bf bg bh bharti bi bible bid bike bing bingo bio biz bj black blackfriday blockbuster blog ' +
  'bloomberg blue bm bms bmw bn bnpparibas bo boats boehringer bofa bom bond boo book booking bosch bostik ' +
  'boston bot boutique box br bradesco bridgestone broadway broker brother brussels bs bt build builders ' +
  'business buy buzz bv bw by bz bzh ca cab cafe cal call calvinklein cam camera camp canon capetown capital ' +
  'capitalone car caravan cards care career careers cars casa case cash casino cat catering catholic cba cbn ' +
  'cbre cc cd center ceo cern cf cfa cfd cg ch chanel channel charity chase chat cheap chintai christmas chrome ' +
  'church ci cipriani circle cisco citadel citi citic city ck cl claims cleaning click clinic clinique clothing ' +
  'cloud club clubmed cm cn co coach codes coffee college cologne com commbank community company compare ' +
  'computer comsec condos construction consulting contact contractors cooking cool coop corsica country coupon ' +
  'coupons courses cpa cr credit creditcard creditunion cricket crown crs cruise cruises cu cuisinella cv cw cx ' +
  'cy cymru cyou cz dad dance data date dating datsun day dclk dds de deal dealer deals degree delivery dell ' +
  'deloitte delta democrat dental dentist desi design dev dhl diamonds diet digital direct directory discount ' +
  'discover dish diy dj dk dm dnp do docs doctor dog domains dot download drive dtv dubai dupont durban dvag dvr ' +
  'dz earth eat ec eco edeka edu education ee eg email emerck energy engineer engineering enterprises epson ' +
  'equipment er ericsson erni es esq estate et eu eurovision eus events exchange expert exposed express ' +
  'extraspace fage fail fairwinds faith family fan fans farm farmers fashion fast fedex feedback ferrari ferrero ' +
  'fi fidelity fido film final finance financial fire firestone firmdale fish fishing fit fitness fj fk flickr ' +
  'flights flir florist flowers fly fm fo foo food football ford forex forsale forum foundation fox fr free ' +
  'fresenius frl frogans frontier ftr fujitsu fun fund furniture futbol fyi ga gal gallery gallo gallup game ' +
  'games gap garden gay gb gbiz gd gdn ge gea gent genting george gf gg ggee gh gi gift gifts gives giving gl ' +
  'glass gle global globo gm gmail gmbh gmo gmx gn godaddy gold goldpoint golf goodyear goog google gop got gov ' +
  'gp gq gr grainger graphics gratis green gripe grocery group gs gt gu gucci guge guide guitars guru gw gy hair ' +
  'hamburg hangout haus hbo hdfc hdfcbank health healthcare help helsinki here hermes hiphop hisamitsu hitachi ' +
  'hiv hk hkt hm hn hockey holdings holiday homedepot homegoods homes homesense honda horse hospital host ' +
  'hosting hot hotels hotmail house how hr hsbc ht hu hughes hyatt hyundai ibm icbc ice icu id ie ieee ifm ikano ' +
  'il im imamat imdb immo immobilien in inc industries infiniti info ing ink institute insurance insure int ' +
  'international intuit investments io ipiranga iq ir irish is ismaili ist istanbul it itau itv jaguar java jcb ' +
  'je jeep jetzt jewelry jio jll jm jmp jnj jo jobs joburg jot joy jp jpmorgan jprs juegos juniper kaufen kddi ' +
  'ke kerryhotels kerryproperties kfh kg kh ki kia kids kim kindle kitchen kiwi km kn koeln komatsu kosher kp ' +
  'kpmg kpn kr krd kred kuokgroup kw ky kyoto kz la lacaixa lamborghini lamer land landrover lanxess lasalle lat ' +
  'latino latrobe law lawyer lb lc lds lease leclerc lefrak legal lego lexus lgbt li lidl life lifeinsurance ' +
  'lifestyle lighting like lilly limited limo lincoln link live living lk llc llp loan loans locker locus lol ' +
  'london lotte lotto love lpl lplfinancial lr ls lt ltd ltda lu lundbeck luxe luxury lv ly ma madrid maif ' +
  'maison makeup man management mango map market marketing markets marriott marshalls mattel mba mc mckinsey md ' +
  'me med media meet melbourne meme memorial men menu merck merckmsd mg mh miami microsoft mil mini mint mit ' +
  'mitsubishi mk ml mlb mls mm mma mn mo mobi mobile moda moe moi mom monash money monster mormon mortgage ' +
  'moscow moto motorcycles mov movie mp mq mr ms msd mt mtn mtr mu museum music mv mw mx my mz na nab nagoya ' +
  'name navy nba nc ne nec net netbank netflix network neustar new news next nextdirect nexus nf nfl ng ngo nhk ' +
  'ni nico nike nikon ninja nissan nissay nl no nokia norton now nowruz nowtv np nr nra nrw ntt nu nyc nz obi ' +
  'observer office okinawa olayan olayangroup ollo om omega one ong onl online ooo open oracle orange org ' +
  'organic origins osaka otsuka ott ovh pa page panasonic paris pars partners parts party pay pccw pe pet pf ' +
  'pfizer pg ph pharmacy phd philips phone photo photography photos physio pics pictet pictures pid pin ping ' +
  'pink pioneer pizza pk pl place play playstation plumbing plus pm pn pnc pohl poker politie porn post pr praxi ' +
  'press prime pro prod productions prof progressive promo properties property protection pru prudential ps pt ' +
  'pub pw pwc py qa qpon quebec quest racing radio re read realestate realtor realty recipes red redumbrella ' +
  'rehab reise reisen reit reliance ren rent rentals repair report republican rest restaurant review reviews ' +
  'rexroth rich richardli ricoh ril rio rip ro rocks rodeo rogers room rs rsvp ru rugby ruhr run rw rwe ryukyu ' +
  'sa saarland safe safety sakura sale salon samsclub samsung sandvik sandvikcoromant sanofi sap sarl sas save ' +
  'saxo sb sbi sbs sc scb schaeffler schmidt scholarships school schule schwarz science scot sd se search seat ' +
  'secure security seek select sener services seven sew sex sexy sfr sg sh shangrila sharp shell shia shiksha ' +
  'shoes shop shopping shouji show si silk sina singles site sj sk ski skin sky skype sl sling sm smart smile sn ' +
  'sncf so soccer social softbank software sohu solar solutions song sony soy spa space sport spot sr srl ss st ' +
  'stada staples star statebank statefarm stc stcgroup stockholm storage store stream studio study style su ' +
  'sucks supplies supply support surf surgery suzuki sv swatch swiss sx sy sydney systems sz tab taipei talk ' +
  'taobao target tatamotors tatar tattoo tax taxi tc tci td tdk team tech technology tel temasek tennis teva tf ' +
  'tg th thd theater theatre tiaa tickets tienda tips tires tirol tj tjmaxx tjx tk tkmaxx tl tm tmall tn to ' +
  'today tokyo tools top toray toshiba total tours town toyota toys tr trade trading training travel travelers ' +
  'travelersinsurance trust trv tt tube tui tunes tushu tv tvs tw tz ua ubank ubs ug uk unicom university uno ' +
  'uol ups us uy uz va vacations vana vanguard vc ve vegas ventures verisign versicherung vet vg vi viajes video ' +
  'vig viking villas vin vip virgin visa vision viva vivo vlaanderen vn vodka volvo vote voting voto voyage vu ' +
  'wales walmart walter wang wanggou watch watches weather weatherchannel webcam weber website wed wedding weibo ' +
  'weir wf whoswho wien wiki williamhill win windows wine winners wme woodside work works world wow ws wtc wtf ' +
  'xbox xerox xihuan xin xxx xyz yachts yahoo yamaxun yandex ye yodobashi yoga yokohama you youtube yt yun za ' +
  'zappos zara zero zip zm zone zuerich zw ';
/** The top-level domains Slack's link detection is taken to know (lower case). */
export const TOP_LEVEL_DOMAINS: ReadonlySet<string> = new Set(TLD_WORDS.trim().split(/\s+/));

/** Whether `label` (any case) is a top-level domain in IANA's list. */
export function isTopLevelDomain(label: string): boolean {
  return TOP_LEVEL_DOMAINS.has(label.toLowerCase());
}

/** Escapes `&`, `<` and `>` — and only those three — as Slack does ("Escaping text"). */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Characters after which a straight quote opens rather than closes.
const OPENS_AFTER = /[\s([{<“‘\u2014\u2013-]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Straight quotes as the macOS and iOS "smart quotes" keyboard setting turns them while a person types:
 * `"` after the start, a space or an opening bracket opens (“), otherwise closes (”); `'` after a letter or a
 * digit is an apostrophe or closing quote (’), after the start, a space or an opening bracket opens (‘).
 * Like those keyboards it does not look ahead, so `'90s` becomes ‘90s.
 */
export function smartenQuotes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    const prev = i === 0 ? '' : text.charAt(i - 1);
    const opening = prev === '' || OPENS_AFTER.test(prev);
    if (ch === '"') out += opening ? '“' : '”';
    else if (ch === "'") out += !LETTER_OR_DIGIT.test(prev) && opening ? '‘' : '’';
    else out += ch;
  }
  return out;
}

// A link candidate: a URL with a scheme, an e-mail address, or a dotted name with an optional port and path.
// URL characters stop at white space, `<`, `>`, `|` (which would break link markup), double and curly quotes
// and backticks.
const URL_CHAR = '[^\\s<>|"“”‘’`]';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const CANDIDATE = new RegExp(
  [
    `(?<url>\\b(?:https?|ftp)://${URL_CHAR}+)`,
    `(?<email>[A-Za-z0-9][A-Za-z0-9._%+-]*@${LABEL}(?:\\.${LABEL})+)`,
    `(?<domain>${LABEL}(?:\\.${LABEL})+(?::\\d{1,5})?(?:[/?#]${URL_CHAR}*)?)`,
  ].join('|'),
  'gi',
);
// A bare name or e-mail right after one of these is part of something else (a path, an address, a version).
const GLUED_BEFORE = /[A-Za-z0-9.@/:%+-]/;
// Punctuation that ends a sentence, not a link.
const TRAILING_PUNCTUATION = new Set(['.', ',', '?', '!', ':', ';', "'", '*', '~']);

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

/** Drops trailing sentence punctuation and closing brackets that have no opening one inside the link. */
function trimTrailing(candidate: string): string {
  let s = candidate;
  for (;;) {
    const last = s.charAt(s.length - 1);
    if (TRAILING_PUNCTUATION.has(last)) s = s.slice(0, -1);
    else if (last === ')' && count(s, ')') > count(s, '(')) s = s.slice(0, -1);
    else if (last === ']' && count(s, ']') > count(s, '[')) s = s.slice(0, -1);
    else return s;
  }
}

/** Whether a host name (no scheme, port or path) is one Slack links: two or more labels, the last a real TLD. */
export function isLinkableHost(host: string): boolean {
  const labels = host.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1] ?? '';
  return /^[A-Za-z]+$/.test(tld) && isTopLevelDomain(tld) && labels.every((l) => new RegExp(`^${LABEL}$`).test(l));
}

/** The link markup for one candidate, or undefined when Slack would leave it as text. */
function linkFor(kind: 'url' | 'email' | 'domain', text: string): string | undefined {
  if (kind === 'url') {
    return /^[a-z]+:\/\/[a-z0-9]/i.test(text) ? `<${escapeSlackText(text)}>` : undefined;
  }
  if (kind === 'email') {
    const host = text.slice(text.indexOf('@') + 1);
    const escaped = escapeSlackText(text);
    return isLinkableHost(host) ? `<mailto:${escaped}|${escaped}>` : undefined;
  }
  const host = text.split(/[:/?#]/, 1)[0] ?? '';
  const escaped = escapeSlackText(text);
  return isLinkableHost(host) ? `<http://${escaped}|${escaped}>` : undefined;
}

/**
 * What Slack sends an app for text a person typed (slash-command text with should_escape: true,
 * message/app_mention/DM text).
 *
 * - `&`, `<`, `>` become `&amp;`, `&lt;`, `&gt;` (only those three), inside link markup too;
 * - a URL with a scheme becomes `<https://x.io/a>`; a bare domain or dotted name whose last label is a real
 *   TLD becomes `<http://com.pub0.app|com.pub0.app>`; an e-mail address `<mailto:a@b.co|a@b.co>`;
 *   trailing `.`, `,`, `?`, `!`, `:`, `;` and an unmatched `)` are not part of the link;
 * - with `smartQuotes`, straight quotes are curled first (the keyboard does that before Slack sees the text).
 *
 * Mentions are never produced from typed text (`@alice` stays `@alice`): build them with `userMention` etc.
 * Emoji pass through unchanged. The output is not meant to be encoded again (encoding is not idempotent).
 */
export function encodeAsSlack(typed: string, options: EncodeOptions = {}): string {
  const text = options.smartQuotes ? smartenQuotes(typed) : typed;
  let out = '';
  let done = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    const groups = match.groups ?? {};
    const kind = groups.url !== undefined ? 'url' : groups.email !== undefined ? 'email' : 'domain';
    if (kind !== 'url' && start > 0 && GLUED_BEFORE.test(text.charAt(start - 1))) continue;
    const candidate = trimTrailing(match[0]);
    const link = linkFor(kind, candidate);
    if (link === undefined) continue;
    out += escapeSlackText(text.slice(done, start)) + link;
    done = start + candidate.length;
  }
  return out + escapeSlackText(text.slice(done));
}

// ---------------------------------------------------------------------------------------------------------------
// Mentions: Slack sends them as markup; typed text never produces them here, so tests build them with these.

const USER_ID = /^[UWB][A-Z0-9]{2,}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;
const SUBTEAM_ID = /^S[A-Z0-9]{2,}$/;

function check(id: string, shape: RegExp, what: string): void {
  if (!shape.test(id)) throw new Error(`${JSON.stringify(id)} is not a Slack ${what} id`);
}

function checkLabel(label: string): void {
  if (/[|<>&]/.test(label)) throw new Error(`${JSON.stringify(label)} cannot stand in mention markup`);
}

/** `<@U123>` as Slack sends a user mention; with `legacyName`, the older `<@U123|name>` form some payloads still carry. */
export function userMention(id: string, legacyName?: string): string {
  check(id, USER_ID, 'user');
  if (legacyName === undefined) return `<@${id}>`;
  checkLabel(legacyName);
  return `<@${id}|${legacyName}>`;
}

/** `<#C123|general>` as Slack sends a channel reference (in slash-command text only with should_escape: true). */
export function channelMention(id: string, name?: string): string {
  check(id, CHANNEL_ID, 'channel');
  if (name === undefined) return `<#${id}>`;
  checkLabel(name);
  return `<#${id}|${name}>`;
}

/** `<!subteam^S123>` (a user group); with `handle`, `<!subteam^S123|@handle>`. */
export function subteamMention(id: string, handle?: string): string {
  check(id, SUBTEAM_ID, 'user group');
  if (handle === undefined) return `<!subteam^${id}>`;
  checkLabel(handle);
  return `<!subteam^${id}|${handle}>`;
}

/** `<!here>`, `<!channel>` or `<!everyone>`. */
export function specialMention(kind: 'here' | 'channel' | 'everyone'): string {
  return `<!${kind}>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Emoji: text carries shortcodes (`:pray:`, skin tones as a second shortcode) or, when pasted, Unicode.

/** Emoji as they appear in text Slack sends, for tests to put into typed text. The encoder leaves all of them alone. */
export const EMOJI_SAMPLES = {
  shortcodes: {
    pray: ':pray:',
    thumbsUp: ':+1:',
    thumbsUpSkinTone2: ':+1::skin-tone-2:',
    waveSkinTone5: ':wave::skin-tone-5:',
    /** A workspace's custom emoji: any name of lower-case letters, digits, `-`, `_`. */
    custom: ':party-parrot:',
    chartWithUpwardsTrend: ':chart_with_upwards_trend:',
  },
  unicode: {
    pray: '🙏',
    /** U+1F44D + U+1F3FD medium skin tone. */
    thumbsUpMediumSkin: '👍🏽',
    /** Woman technologist: U+1F469 ZWJ U+1F4BB (a ZWJ sequence, three code points, five UTF-16 units). */
    womanTechnologist: '👩‍💻',
    /** Regional indicators U+1F1FA U+1F1F8. */
    flagUS: '🇺🇸',
    /** Red heart with variation selector 16 (U+2764 U+FE0F). */
    redHeart: '❤️',
    /** Keycap sequence: `1` U+FE0F U+20E3. */
    keycapOne: '1️⃣',
  },
} as const;

/** All samples in one list. */
export const ALL_EMOJI_SAMPLES: readonly string[] = [
  ...Object.values(EMOJI_SAMPLES.shortcodes),
  ...Object.values(EMOJI_SAMPLES.unicode),
];

// ---------------------------------------------------------------------------------------------------------------

export interface WireSample {
  /** What the person typed. */
  typed: string;
  /** What Slack sends the app. */
  wire: string;
  surface: SlackSurface;
  /** Set when the sample models a macOS/iOS keyboard with smart quotes on. */
  smartQuotes?: true;
  /** Which rule this checks, and where Slack's reference is silent, that this is our reading. */
  note: string;
}

const m = (typed: string, wire: string, note: string): WireSample => ({ typed, wire, surface: 'message', note });
const s = (typed: string, wire: string, note: string): WireSample => ({ typed, wire, surface: 'slash', note });
const q = (typed: string, wire: string, surface: SlackSurface, note: string): WireSample => ({
  typed,
  wire,
  surface,
  smartQuotes: true,
  note,
});

/**
 * Hand-checked cases, written from Slack's formatting reference (not generated by `encodeAsSlack`; the unit test
 * checks the two agree), for the decoder's table tests: decoding `wire` should give back `typed` (after curling
 * quotes where `smartQuotes` is set, since Slack never sees the straight ones).
 */
export const wireSamples: readonly WireSample[] = [
  // Escaping: `&`, `<`, `>` and only those.
  s('clicks > 100', 'clicks &gt; 100', 'escaping: > (reference: "Escaping text")'),
  s('ctr < 2%', 'ctr &lt; 2%', 'escaping: <'),
  s('revenue by country & platform', 'revenue by country &amp; platform', 'escaping: &'),
  s('installs >= 10 && cost <= 5', 'installs &gt;= 10 &amp;&amp; cost &lt;= 5', 'escaping: every occurrence'),
  m('a<b>c', 'a&lt;b&gt;c', 'escaping: angle brackets that look like a tag are still text'),
  m('<@U123> typed by hand', '&lt;@U123&gt; typed by hand', 'escaping: typed markup is text, not a mention'),
  s(
    'AT&amp;T',
    'AT&amp;amp;T',
    'escaping: a typed entity is escaped again (decode once, or `&amp;` in a query turns into `&`)',
  ),
  m(
    `quotes "x" 'y' stay`,
    `quotes "x" 'y' stay`,
    'escaping: quotes are not entities (only & < > are; "You shouldn\'t HTML entity-encode the entire text")',
  ),
  s('50% off; #1 @ 3pm', '50% off; #1 @ 3pm', 'escaping: % ; # @ pass through'),
  m('', '', 'empty text'),
  m('line one\nline > two', 'line one\nline &gt; two', 'new lines pass through'),
  // Full URLs: sent as `<url>`.
  m('see https://x.io/a', 'see <https://x.io/a>', 'URL with a scheme: `<url>` with no label ("Linking to URLs")'),
  s('http://foo.com/', '<http://foo.com/>', "URL with a scheme: the reference's own example"),
  m(
    'https://x.io/r?a=1&b=2',
    '<https://x.io/r?a=1&amp;b=2>',
    'URL: `&` inside link markup is escaped too (apps unescape URLs they take from text)',
  ),
  m('(see https://x.io/a)', '(see <https://x.io/a>)', 'trailing punctuation: an unmatched ) is not part of the link'),
  m(
    'https://en.wikipedia.org/wiki/Foo_(bar)',
    '<https://en.wikipedia.org/wiki/Foo_(bar)>',
    'a balanced ) stays in the link (our reading; the reference says nothing)',
  ),
  m('go to https://x.io/a.', 'go to <https://x.io/a>.', 'trailing punctuation: .'),
  m('https://x.io/a, then', '<https://x.io/a>, then', 'trailing punctuation: ,'),
  m('is it https://x.io/a?', 'is it <https://x.io/a>?', 'trailing punctuation: ?'),
  m(
    '<https://x.io/a>',
    '&lt;<https://x.io/a>&gt;',
    'typed angle brackets around a URL: escaped, the URL still linked (our reading)',
  ),
  m('http://localhost:3000/x', '<http://localhost:3000/x>', 'a URL with a scheme is linked whatever its host'),
  // Bare domains and dotted names whose last label is a real TLD: `<http://name|name>`.
  m(
    'So does this one: www.foo.com',
    'So does this one: <http://www.foo.com|www.foo.com>',
    "bare domain: the reference's own example (full URL, pipe, what was typed)",
  ),
  s('example.com', '<http://example.com|example.com>', 'bare domain .com'),
  s('revenue for com.pub0.app', 'revenue for <http://com.pub0.app|com.pub0.app>', 'bundle id ending in .app'),
  s('com.pub0.games installs', '<http://com.pub0.games|com.pub0.games> installs', 'bundle id ending in .games'),
  s('foo.io', '<http://foo.io|foo.io>', 'bare domain .io'),
  s('game.ai', '<http://game.ai|game.ai>', 'bare domain .ai'),
  s('x.games', '<http://x.games|x.games>', 'bare domain .games'),
  s(
    'a.co b.net c.org d.dev e.gg f.tv g.me',
    '<http://a.co|a.co> <http://b.net|b.net> <http://c.org|c.org> <http://d.dev|d.dev> <http://e.gg|e.gg> <http://f.tv|f.tv> <http://g.me|g.me>',
    'bare domains: several TLDs in one text',
  ),
  s('com.pub0.de', '<http://com.pub0.de|com.pub0.de>', 'country-code TLD .de'),
  m(
    'README.md',
    '<http://README.md|README.md>',
    'file names whose extension is a ccTLD are links too (.md is Moldova)',
  ),
  s(
    'com.pub0.foo',
    '<http://com.pub0.foo|com.pub0.foo>',
    ".foo IS a TLD in IANA's list (Google registry): linked, although the brief took it for a non-TLD",
  ),
  s('com.pub0.unity', 'com.pub0.unity', 'last label not a TLD: stays as typed'),
  s('com.pub0.mygame stays', 'com.pub0.mygame stays', 'last label not a TLD: stays as typed'),
  s('report.csv and data.json', 'report.csv and data.json', '.csv and .json are not TLDs'),
  s('v1.2.3 and 3.14', 'v1.2.3 and 3.14', 'numbers and versions are not domains'),
  s('e.g. this', 'e.g. this', 'abbreviations are not domains'),
  m('foo.io.', '<http://foo.io|foo.io>.', 'trailing punctuation after a bare domain'),
  m('example.com/path?q=1', '<http://example.com/path?q=1|example.com/path?q=1>', 'bare domain with a path'),
  m(
    'example.com/a?b=1&c=2',
    '<http://example.com/a?b=1&amp;c=2|example.com/a?b=1&amp;c=2>',
    'bare domain with `&` in its path: escaped in both halves',
  ),
  m(
    '*example.com* and _x.io_',
    '*<http://example.com|example.com>* and _<http://x.io|x.io>_',
    'mrkdwn emphasis around a bare domain stays outside the link (our reading)',
  ),
  m('(com.pub0.app)', '(<http://com.pub0.app|com.pub0.app>)', 'parentheses around a bare domain'),
  s(
    'installs for com.pub0.app > 100',
    'installs for <http://com.pub0.app|com.pub0.app> &gt; 100',
    'link and escaping in one query',
  ),
  // E-mail addresses: `<mailto:…|…>`.
  m('mail a@b.co', 'mail <mailto:a@b.co|a@b.co>', 'e-mail'),
  s('ops.team+ads@pub0.games,', '<mailto:ops.team+ads@pub0.games|ops.team+ads@pub0.games>,', 'e-mail with . and +'),
  s('user@localhost', 'user@localhost', 'e-mail-like text without a real TLD stays as typed'),
  // Mentions: never produced from typed text.
  m('@alice and #general', '@alice and #general', 'typed @name / #channel are not turned into mentions here'),
  // Emoji pass through.
  m(':pray: 🙏 :+1::skin-tone-2: 👍🏽', ':pray: 🙏 :+1::skin-tone-2: 👍🏽', 'emoji: shortcodes and Unicode unchanged'),
  m('👩‍💻 🇺🇸 & more', '👩‍💻 🇺🇸 &amp; more', 'emoji: ZWJ sequence and flag unchanged, & escaped'),
  // Smart quotes (macOS / iOS keyboards).
  q(`"top 5" by 'country'`, '“top 5” by ‘country’', 'message', 'smart quotes: double and single'),
  q("don't & won't", 'don’t &amp; won’t', 'slash', 'smart quotes: apostrophes, then escaping'),
  q(
    `"example.com"`,
    '“<http://example.com|example.com>”',
    'message',
    'smart quotes around a bare domain: curly quotes are not part of the link',
  ),
  q(
    `'90s "clicks > 5"`,
    '‘90s “clicks &gt; 5”',
    'slash',
    'smart quotes: a leading apostrophe opens, as the keyboards do',
  ),
];
