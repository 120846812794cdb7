import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

interface Manifest {
  features: {
    slash_commands: Array<{ command: string; url: string; should_escape: boolean }>;
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean; messages_tab_read_only_enabled: boolean };
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    interactivity: { is_enabled: boolean; request_url: string };
    event_subscriptions: { request_url: string; bot_events: string[] };
  };
}

describe('manifest.yml', () => {
  it('declares /pivot, interactivity, App Home and exactly the scopes the bot uses', async () => {
    const manifest = parse(await readFile('manifest.yml', 'utf8')) as Manifest;
    const [command] = manifest.features.slash_commands;
    expect(command?.command).toBe('/pivot');
    expect(command?.should_escape).toBe(true);
    for (const url of [
      command?.url,
      manifest.settings.interactivity.request_url,
      manifest.settings.event_subscriptions.request_url,
    ]) {
      expect(url).toMatch(/\/slack\/events$/);
    }
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
    expect(manifest.features.app_home.messages_tab_read_only_enabled).toBe(false);
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual([
      'app_home_opened',
      'app_mention',
      'message.channels',
      'message.groups',
      'message.im',
    ]);
    expect(manifest.oauth_config.scopes.bot.sort()).toEqual([
      'app_mentions:read',
      'channels:history',
      'channels:read',
      'chat:write',
      'commands',
      'files:write',
      'groups:history',
      'groups:read',
      'im:history',
      'im:write',
      'users:read',
    ]);
  });
});
