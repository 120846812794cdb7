/**
 * Owners end to end over real HTTP: the shipped `bundle-spend-without-installs` rule, with an
 * `owners:` map for one publisher app, evaluated by the bot's scheduler against the sandbox with
 * two publishers' installs set to zero. The mapped publisher's parent mentions its owner after the
 * rule's mentions; the unmapped one's mentions only the rule's.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { BotHarness } from '../../support/botHarness.js';
import { plantZeroInstalls } from '../../support/plantZeroInstalls.js';
import { writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const MAPPED = 'com.pub0.app';
const OWNER = 'U0PUBOWNER';
const ON_CALL = 'S0SUPPLY01';

async function reportWithOwners(): Promise<string> {
  const definition = parse(await readFile('reports/site-bundle-quality.yaml', 'utf8'));
  delete definition.schedule;
  definition.mode = 'sync';
  definition.deliver = { channels: [CHANNEL], csv: false };
  definition.owners = { siteBundle: { [MAPPED]: OWNER, 'com.nobody.app': 'U0SOMEONE1' } };
  definition.alerts = definition.alerts
    .filter((r: { id: string }) => r.id === 'bundle-spend-without-installs')
    .map((r: object) => ({ ...r, mentions: [ON_CALL], check: { cron: '*/2 * * * * *', timezone: 'UTC' } }));
  return stringify(definition);
}

const text = (m: StoredMessage) => JSON.stringify(m.blocks ?? m.text);

describe('owners: an incident mentions its entity’s owner', () => {
  const harness = new BotHarness();
  let dir: string;
  /** The publisher app, other than the mapped one, that spent the most yesterday (UTC). */
  let unmapped = '';
  const parents = () =>
    harness.slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
  const parentOf = (bundle: string) =>
    parents().find((m) => m.metadata?.event_payload.entity === `siteBundle=${bundle}`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-owners-'));
    const reports = await writeReports(dir, { 'site-bundle-quality': await reportWithOwners() });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
    const [top] = await harness.sandbox.sql(
      `SELECT s.bundle FROM facts f JOIN sites s USING (site_id)
       WHERE f.ts >= current_date - INTERVAL 1 DAY AND f.ts < current_date AND s.bundle <> '${MAPPED}'
         AND s.bundle LIKE 'com.%'
       GROUP BY s.bundle ORDER BY sum(f.spend) DESC LIMIT 1`,
    );
    unmapped = String(top?.bundle);
    for (const bundle of [MAPPED, unmapped]) await plantZeroInstalls(harness.sandbox, bundle, new Date(), 2);
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('mentions the owner of a mapped publisher, and only the rule’s mentions for an unmapped one', async () => {
    await harness.slack.waitFor(
      () => parentOf(MAPPED) !== undefined && parentOf(unmapped) !== undefined,
      30_000,
      'both parents',
    );
    const mapped = text(parentOf(MAPPED) as StoredMessage);
    expect(mapped).toContain(`<!subteam^${ON_CALL}>  ·  owner <@${OWNER}>`);
    const other = text(parentOf(unmapped) as StoredMessage);
    expect(other).toContain(`<!subteam^${ON_CALL}>`);
    expect(other).not.toContain('owner');
    expect(other).not.toContain(OWNER);
    expect(other).not.toContain('U0SOMEONE1');
  }, 60_000);
});
