/**
 * Escapes the three characters Slack's mrkdwn treats as control characters (`&`, `<`, `>`: Slack's
 * formatting reference, "Escaping"), so report titles, campaign names, error texts and anything a
 * person typed that the bot quotes back can never become a link, a mention or a `<!here>`. Only
 * these three: Slack decodes no other entity.
 *
 * @example escapeMrkdwn('<!channel> & Co') // '&lt;!channel&gt; &amp; Co'
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
