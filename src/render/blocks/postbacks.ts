/** postbackShare distributions as text: each key's most common values with their shares. */
import type { ReportView } from '../../view/index.js';
import { formatValue } from '../format.js';
import { sharesOf } from '../shareChart.js';
import { fitText, SLACK_LIMITS } from '../slackLimits.js';
import { escapeMrkdwn, mrkdwn } from './text.js';
import type { SectionBlock } from './types.js';

/** Values listed per key; the rest are summed into "other". */
export const POSTBACK_VALUES_SHOWN = 6;

/**
 * One section listing, per postback key, its top values and shares.
 *
 * @example postbackSection(view) // *conversionValue* · 1,234 postbacks: `12` 41.0% · `0` 20.1% · other 38.9%
 */
export function postbackSection(view: ReportView): SectionBlock | null {
  const keys = (view.postbacks ?? []).filter((k) => k.results.length > 0);
  if (keys.length === 0) return null;
  const lines = keys.map((key) => {
    const shares = sharesOf(key);
    const shown = shares.slice(0, POSTBACK_VALUES_SHOWN);
    const rest = shares.slice(POSTBACK_VALUES_SHOWN).reduce((a, s) => a + s.share, 0);
    const parts = shown.map((s) => `\`${escapeMrkdwn(s.value)}\` ${formatValue(s.share, 'percent')}`);
    if (rest > 0) parts.push(`other ${formatValue(rest, 'percent')}`);
    const total = key.totalCount === null ? '' : ` · ${formatValue(key.totalCount, 'count')} postbacks`;
    return `*${escapeMrkdwn(key.postbackKey ?? '(no key)')}*${total}: ${parts.join(' · ')}`;
  });
  const text = `*Postback values*\n${lines.join('\n')}`;
  return { type: 'section', text: mrkdwn(fitText(text, SLACK_LIMITS.sectionText)) };
}
