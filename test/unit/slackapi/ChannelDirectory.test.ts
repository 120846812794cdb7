import { ChannelDirectory, type ChannelPage, RELIST_AFTER_MS } from '../../../src/slackapi/ChannelDirectory.js';
import { SlackDeliveryError } from '../../../src/slackapi/SlackDeliveryError.js';

/** A workspace of `pages` pages of channels, counting the pages asked for. */
function workspace(pages: Array<Array<{ id: string; name: string }>>) {
  const asked: Array<string | undefined> = [];
  const listPage = async (cursor: string | undefined): Promise<ChannelPage> => {
    asked.push(cursor);
    const index = cursor === undefined ? 0 : Number(cursor);
    const next = index + 1 < pages.length ? String(index + 1) : undefined;
    return { channels: pages[index] ?? [], ...(next ? { nextCursor: next } : {}) };
  };
  return { asked, listPage };
}

describe('ChannelDirectory', () => {
  const pages = [[{ id: 'C1', name: 'general' }], [{ id: 'C2', name: 'ua-daily' }]];

  it('passes ids through and finds a name on a later page, walking once for concurrent callers', async () => {
    const { asked, listPage } = workspace(pages);
    const directory = new ChannelDirectory(listPage);
    expect(await directory.idOf('C9')).toBe('C9');
    expect(asked).toEqual([]);
    expect(await Promise.all([directory.idOf('#ua-daily'), directory.idOf('#general')])).toEqual(['C2', 'C1']);
    expect(asked).toEqual([undefined, '1']);
    expect(await directory.idOf('#ua-daily')).toBe('C2');
    expect(asked).toHaveLength(2);
  });

  it('knows a name from a post without walking', async () => {
    const { asked, listPage } = workspace(pages);
    const directory = new ChannelDirectory(listPage);
    directory.learn('#ua-daily', 'C2');
    directory.learn('C7', 'C7');
    expect(await directory.idOf('#ua-daily')).toBe('C2');
    expect(asked).toEqual([]);
    expect([directory.known('#ua-daily'), directory.known('#general'), directory.known('C5')]).toEqual([
      'C2',
      undefined,
      'C5',
    ]);
  });

  it('fails an unknown name as channel_not_found, and walks again for it only after a while', async () => {
    const { asked, listPage } = workspace(pages);
    let now = 1_000_000;
    const directory = new ChannelDirectory(listPage, () => now);
    const missing = () => directory.idOf('#typo').catch((e: unknown) => e);
    const error = await missing();
    expect(error).toBeInstanceOf(SlackDeliveryError);
    expect((error as SlackDeliveryError).slackError).toBe('channel_not_found');
    expect((error as SlackDeliveryError).userMessage).toContain("I can't see a channel named #typo: renamed");
    expect(asked).toHaveLength(2);
    now += RELIST_AFTER_MS - 1;
    await missing();
    expect(asked).toHaveLength(2);
    now += 1;
    await missing();
    expect(asked).toHaveLength(4);
  });
});
