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

/**
 * `escapeMrkdwn`, but a channel link the bot wrote itself (`<#C123>`, `<#C123|name>`) stays a link:
 * an error's user message names channels that way ("already posts in <#C1>"), and a channel link
 * notifies no one, so keeping one is safe whoever wrote it. Users, groups and `<!here>` stay escaped.
 *
 * @example escapeMrkdwnKeepingChannels('posts in <#C1> for <!here>') // 'posts in <#C1> for &lt;!here&gt;'
 */
export function escapeMrkdwnKeepingChannels(text: string): string {
  return escapeMrkdwn(text).replace(/&lt;#(C[A-Z0-9]+(?:\|[^&<>|]*)?)&gt;/g, '<#$1>');
}
