/**
 * The Web API base URL option for the Slack SDK's clients: `SLACK_API_URL` (the Slack test
 * server, or a proxy) with the trailing slash the SDK needs, or nothing for Slack itself.
 */
export function slackApiUrlOption(apiUrl: string | undefined): { slackApiUrl?: string } {
  if (!apiUrl) return {};
  return { slackApiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/` };
}
