import { UserInputError } from '../../../../src/core/index.js';
import { parseSlashCommand } from '../../../../src/slack/app/parseSlashCommand.js';

describe('parseSlashCommand', () => {
  it.each([
    ['', { kind: 'new' }],
    ['new', { kind: 'new' }],
    [' NEW ', { kind: 'new' }],
    ['help', { kind: 'help' }],
    ['  HELP ', { kind: 'help' }],
    ['list', { kind: 'list' }],
    ['alerts', { kind: 'alerts' }],
    ['show daily-kpi', { kind: 'show', report: 'daily-kpi' }],
    ['status 3a818623-25f1', { kind: 'status', jobId: '3a818623-25f1' }],
    ['subscribe daily-kpi', { kind: 'subscribe', report: 'daily-kpi' }],
    [
      'subscribe daily-kpi <#C123|growth> at 9:05',
      { kind: 'subscribe', report: 'daily-kpi', channel: { id: 'C123', name: 'growth' }, schedule: { at: '09:05' } },
    ],
    ['subscribe daily-kpi #Growth', { kind: 'subscribe', report: 'daily-kpi', channel: { name: 'growth' } }],
    ['subscribe weekly cron "0 9 * * 1-5"', { kind: 'subscribe', report: 'weekly', schedule: { cron: '0 9 * * 1-5' } }],
    ['unsubscribe daily-kpi', { kind: 'unsubscribe', report: 'daily-kpi' }],
    ['unsubscribe daily-kpi <#C9>', { kind: 'unsubscribe', report: 'daily-kpi', channel: { id: 'C9' } }],
    ['run daily-kpi last_7_days', { kind: 'query', text: 'run daily-kpi last_7_days' }],
    ['postbacks app:101 keys:a,b', { kind: 'query', text: 'postbacks app:101 keys:a,b' }],
    ['spend installs by countryCode yesterday', { kind: 'query', text: 'spend installs by countryCode yesterday' }],
    ['spend', { kind: 'query', text: 'spend' }],
    ['events', { kind: 'query', text: 'events' }],
    ['city', { kind: 'query', text: 'city' }],
    ['list campaigns by spend', { kind: 'query', text: 'list campaigns by spend' }],
    ['status by country', { kind: 'query', text: 'status by country' }],
    ['show spend by country', { kind: 'query', text: 'show spend by country' }],
    ['why is cpi up in US yesterday?', { kind: 'why', text: 'cpi in US yesterday?' }],
  ])('reads %j', (text, expected) => {
    expect(parseSlashCommand(text)).toEqual(expected);
  });

  it.each([
    ['show', 'Say which report'],
    ['status', 'Say which job id'],
    ['subscribe', 'Say which report'],
    ['subscribe daily at 25:00', '"at 25:00" is not a time of day'],
    ['subscribe daily cron "every day"', 'is not a five-field cron expression'],
    ['subscribe daily tomorrow', 'Unexpected "tomorrow"'],
    ['subscribe daily #', 'is not a channel'],
    ['lsit', 'Unknown command "lsit". Did you mean "list"'],
    ['subscrbe', 'Did you mean "subscribe"'],
  ])('explains %j', (text, expected) => {
    expect(() => parseSlashCommand(text)).toThrow(UserInputError);
    expect(() => parseSlashCommand(text)).toThrow(expected);
  });
});
