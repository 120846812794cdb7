import { parseSlashCommand } from '../../../../src/slack/app/parseSlashCommand.js';

describe('/pivot with a question in the users words', () => {
  it.each([
    'show me spend by country yesterday',
    'Show me cpi by country',
    'top 5 campaigns by spend yesterday',
    'cpi by country yesterday',
    "what's the roas by exchange?",
  ])('sends %j to the query language', (text) => {
    expect(parseSlashCommand(text)).toEqual({ kind: 'query', text });
  });

  it('still shows a report', () => {
    expect(parseSlashCommand('show daily-kpi')).toEqual({ kind: 'show', report: 'daily-kpi' });
  });
});
