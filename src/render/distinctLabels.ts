/**
 * Labels cut to fit a chart axis, a legend or a table cell that still tell their names apart.
 * Campaign names share long prefixes and suffixes (`Merge Kingdom · Android · RTGT · FR · ROAS #3`):
 * cut each on its own and two of them can read the same; cut them together and each keeps the
 * part that differs.
 */

const ELLIPSIS = '…';
/** The shortest limit honoured: four characters still number ten thousand names apart. */
export const MIN_LABEL = 4;

/**
 * One label per name, each at most `max` characters (code points, `MIN_LABEL` at least), distinct names keeping
 * distinct labels: a name that fits stays as it is; names that would share a cut label show the
 * part where they differ, with as much of their common start and end as fits.
 *
 * @example distinctLabels(['Merge Kingdom · Android · RTGT · FR · CPI #1', 'Merge Kingdom · iOS · RTGT · FR · CPI #1'], 22)
 * // ['Merge…Android · RTGT…', 'Merge…iOS · RTGT · FR…'] (the part that differs, and what of the rest fits)
 */
export function distinctLabels(names: readonly string[], max = 22): string[] {
  const limit = Math.max(MIN_LABEL, Math.floor(max));
  const unique = [...new Set(names)];
  const labels = new Map(unique.map((name) => [name, cutLabel(name, limit)]));
  // Names whose labels collide are cut again together; a few rounds settle every realistic list.
  for (let round = 0; round < 3; round++) {
    const groups = collisions(unique, labels);
    if (groups.length === 0) break;
    for (const group of groups) {
      // A name that fits keeps its own text; the cut ones move away from it.
      const cut = group.filter((name) => Array.from(name).length > limit);
      if (cut.length < 2) continue;
      const relabelled = groupLabels(cut, limit);
      cut.forEach((name, i) => {
        labels.set(name, relabelled[i] as string);
      });
    }
  }
  const fitting = unique.filter((name) => Array.from(name).length <= limit);
  settle([...fitting, ...unique.filter((name) => Array.from(name).length > limit)], labels, limit);
  return names.map((name) => labels.get(name) as string);
}

/** A name cut in the middle, keeping both ends (the end often tells campaigns apart). */
function cutLabel(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  if (max === 1) return ELLIPSIS;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}${ELLIPSIS}${tail > 0 ? chars.slice(chars.length - tail).join('') : ''}`;
}

/** Groups of names (two or more) that share a label. */
function collisions(names: readonly string[], labels: ReadonlyMap<string, string>): string[][] {
  const byLabel = new Map<string, string[]>();
  for (const name of names) {
    const label = labels.get(name) as string;
    byLabel.set(label, [...(byLabel.get(label) ?? []), name]);
  }
  return [...byLabel.values()].filter((group) => group.length > 1);
}

/**
 * Labels for names that must differ: the common start and end set aside, each keeps its own
 * middle, with what fits of the common parts around it. Every label gets the same start and end,
 * so distinct middles make distinct labels.
 */
function groupLabels(group: readonly string[], max: number): string[] {
  const chars = group.map((name) => Array.from(name));
  const shortest = Math.min(...chars.map((c) => c.length));
  let prefix = 0;
  while (prefix < shortest && chars.every((c) => c[prefix] === chars[0]?.[prefix])) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    chars.every((c) => c[c.length - 1 - suffix] === chars[0]?.[(chars[0]?.length ?? 0) - 1 - suffix])
  ) {
    suffix++;
  }
  // Nothing in common: no part to set aside (the final pass tells them apart).
  if (prefix === 0 && suffix === 0) return group.map((name) => cutLabel(name, max));
  // Start the middle at a word where that still fits, so `Android` is not read as `ndroid`.
  const first = chars[0] as string[];
  const wordStart = lastBoundary(first, prefix);
  const wordEnd = nextBoundary(first, first.length - suffix);
  const middlesAt = (p: number, s: number) => chars.map((c) => c.slice(p, c.length - s).join(''));
  const markers = (p: number, s: number) => (p > 0 ? 1 : 0) + (s > 0 ? 1 : 0);
  const fits = (p: number, s: number) =>
    Math.max(...middlesAt(p, s).map((m) => Array.from(m).length)) + markers(p, s) <= max;
  const [p, s] = fits(wordStart, first.length - wordEnd) ? [wordStart, first.length - wordEnd] : [prefix, suffix];
  const middles = middlesAt(p, s);
  const longest = Math.max(...middles.map((m) => Array.from(m).length));
  const common = { head: first.slice(0, p), tail: first.slice(first.length - s) };
  if (longest + markers(p, s) <= max) {
    // Room to spare goes to the common start first (it names the thing), then to the end.
    const spare = max - longest;
    const headRoom = s > 0 ? Math.min(Math.max(p > 0 ? 1 : 0, Math.ceil(spare * 0.6)), spare - 1) : spare;
    const head = edge(common.head, headRoom, 'start');
    const tail = edge(common.tail, spare - Array.from(head).length, 'end');
    return middles.map((m) => `${head}${m}${tail}`);
  }
  // The middles themselves are too long: cut them the same way, between two ellipses.
  if (max - markers(p, s) < MIN_LABEL) return group.map((name) => cutLabel(name, max));
  const inner = distinctLabels(middles, max - markers(p, s));
  return inner.map((m) => `${p > 0 ? ELLIPSIS : ''}${m}${s > 0 ? ELLIPSIS : ''}`);
}

/**
 * What fits of a common start (`start`) or end (`end`) in `room` characters, with an ellipsis
 * where it is cut; empty when there is none.
 */
function edge(part: readonly string[], room: number, side: 'start' | 'end'): string {
  if (part.length === 0) return '';
  if (part.length <= room) return part.join('');
  const keep = Math.max(0, room - 1);
  // Whole words where the cut loses little: `Merge…`, not `Merge Ki…`.
  if (side === 'start') {
    const word = lastBoundary(part, keep);
    return `${part
      .slice(0, word > keep / 2 ? word : keep)
      .join('')
      .replace(SEPARATORS_AT_END, '')}${ELLIPSIS}`;
  }
  const from = part.length - keep;
  const word = nextBoundary(part, from);
  return `${ELLIPSIS}${part
    .slice(part.length - word < keep / 2 ? from : word)
    .join('')
    .replace(SEPARATORS_AT_START, '')}`;
}

const BREAK = /[\s·|/,;:()[\]_-]/u;
const SEPARATORS_AT_END = /[\s·|/,;:_-]+$/u;
const SEPARATORS_AT_START = /^[\s·|/,;:_-]+/u;

/** The start of the word holding position `at` (or `at` itself at a break). */
function lastBoundary(chars: readonly string[], at: number): number {
  let i = at;
  while (i > 0 && !BREAK.test(chars[i - 1] as string)) i--;
  return i;
}

/** The end of the word holding position `at`. */
function nextBoundary(chars: readonly string[], at: number): number {
  let i = at;
  while (i < chars.length && !BREAK.test(chars[i] as string)) i++;
  return i;
}

/**
 * The guarantee: any label still shared (a name that happens to read like another's cut label)
 * gets a number, and every label fits.
 */
function settle(names: readonly string[], labels: Map<string, string>, max: number): void {
  const used = new Set<string>();
  for (const name of names) {
    let label = labels.get(name) as string;
    for (let n = 2; used.has(label) || Array.from(label).length > max; n++) {
      const tag = `#${n}`;
      label =
        Array.from(tag).length < max ? `${cutLabel(name, max - Array.from(tag).length - 1)}${ELLIPSIS}${tag}` : `${n}`;
      if (Array.from(label).length > max) label = `${n}`.slice(-max);
    }
    used.add(label);
    labels.set(name, label);
  }
}
