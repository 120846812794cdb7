import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/index.js';
import { useBotHarness } from '../../support/botHarness.js';

/** What the bot logged, as parsed JSON lines. */
const lines: Array<Record<string, unknown>> = [];
const logger = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
});

describe('what a user sees when the Reporting Service fails', () => {
  // Every GraphQL request answers `errors[]` with the server's own text.
  const bot = useBotHarness({ faults: { graphqlErrorRate: 1 }, logger });

  it("shows text written for users with a reference, never the server's text; the log has both", async () => {
    const { hook } = await bot().command('spend by countryCode yesterday');
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('The Reporting Service could not answer');
    expect(answer).not.toContain('sandbox fault');
    const ref = /\(ref ([0-9a-f]{6})\)/.exec(answer)?.[1];
    expect(ref).toBeDefined();
    const line = lines.find((l) => l.ref === ref);
    expect(line).toMatchObject({
      msg: 'command failed',
      err: { type: 'ReportingGraphQLError', code: 'REPORTING_GRAPHQL' },
    });
    expect(JSON.stringify(line)).toContain('Internal server error (sandbox fault)');
  });
});
