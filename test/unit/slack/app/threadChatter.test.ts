import { isChatter } from '../../../../src/slack/app/threadChatter.js';

describe('isChatter: talk between people in the bot threads', () => {
  it.each([
    'on it',
    'On it!',
    '',
    'thanks!',
    'ok',
    'lgtm',
    '+1',
    'me too',
    'will check with the team',
    'looking into it',
  ])('%j is chatter', (text) => {
    expect(isChatter(text)).toBe(true);
  });

  it.each([
    'only IT',
    'in US',
    'by source instead',
    'why?',
    'top 5',
    'as csv',
    'last 7 days',
    'looking into the BR drop',
    'vs last week',
    'spend and installs',
  ])('%j is not', (text) => {
    expect(isChatter(text)).toBe(false);
  });
});
