/**
 * What users read about a failure is written for them: never a repository path, a file on the
 * bot's disk or an environment variable name (those are the operator's, in the log).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFailure, PivotbotError, silentLogger } from '../../../../src/core/index.js';
import { QueryError } from '../../../../src/query/index.js';
import { loadReports } from '../../../../src/reports/index.js';
import { failureMessage } from '../../../../src/slack/app/answers.js';
import { listMessage } from '../../../../src/slack/app/screens/index.js';
import { SlackDeliveryError } from '../../../../src/slackapi/index.js';

const NOW = new Date('2026-11-20T12:00:00Z');

/** A repository path (`docs/x.md`, `manifest.yml`), a path on disk, or a variable name. */
const INTERNAL = /\bdocs\/|\.md\b|\.ya?ml\b|(?:^|[\s(`'"])\/[\w.-]+\/[\w./-]+|\b(?:PIVOTBOT|SLACK|REPORTING)_[A-Z_]+\b/;

const describeIt = (error: unknown) =>
  describeFailure(error, { logger: silentLogger(), what: 'test', newRef: () => 'abc123' });

describe('text users read about a failure', () => {
  it('a query they mistyped points to /pivot help, not to a file in the repository', () => {
    const error = QueryError.at({ start: 0, end: 5 }, 'Unknown metric "instals".', ['installs']);
    const message = failureMessage(error, 'instals by country', describeIt(error));
    const text = JSON.stringify(message);
    expect(text).toContain('/pivot help');
    expect(text).not.toMatch(INTERNAL);
  });

  it('an internal failure shows a reference, not its message', () => {
    const error = new PivotbotError('INTERNAL', 'wrote /srv/pivotbot/data/pivotbot.json with PIVOTBOT_STORE unset');
    const text = JSON.stringify(failureMessage(error, 'run daily-kpi', describeIt(error)));
    expect(text).toContain('ref abc123');
    expect(text).not.toMatch(INTERNAL);
  });

  it('a reports folder that cannot be read says what to ask an admin; the log keeps the folder', async () => {
    const missing = join(tmpdir(), 'pivotbot-no-such-reports-folder');
    const error = await loadReports(missing, { now: NOW }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PivotbotError);
    expect((error as PivotbotError).code).toBe('REPORTS_DIR_UNREADABLE');
    expect((error as PivotbotError).message).toContain(missing);
    expect((error as PivotbotError).userMessage).toContain('ask an admin');
    expect((error as PivotbotError).userMessage).not.toMatch(INTERNAL);
    expect(describeIt(error).text).not.toMatch(INTERNAL);
  });

  it('/pivot list with no reports says who adds them, not where the docs are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pivotbot-empty-'));
    try {
      const text = JSON.stringify(listMessage(await loadReports(dir, { now: NOW }), 'UTC').blocks);
      expect(text).toContain('No report definitions yet');
      expect(text).not.toMatch(INTERNAL);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(['missing_scope', 'invalid_auth', 'not_in_channel', 'channel_not_found', 'is_archived', 'ratelimited'])(
    "Slack's %s is told without a file or a variable",
    (slackError) => {
      const error = new SlackDeliveryError('chat.postMessage', slackError);
      expect(error.userMessage).not.toMatch(INTERNAL);
      expect(describeIt(error).text).not.toMatch(INTERNAL);
    },
  );
});
