/**
 * The files-upload-v2 flow by hand (what the SDK's filesUploadV2 does): an upload URL per file,
 * its bytes sent there, then one `files.completeUploadExternal`. Each Web API call goes through
 * the gateway's paced `call`, so its 429s are retried on their own instead of redoing the upload.
 */
import type { WebClient } from '@slack/web-api';
import { drain, withTimeout } from './httpCalls.js';
import { SlackDeliveryError } from './SlackDeliveryError.js';
import type { UploadFile } from './SlackGateway.js';

/** A Web API call run when the rate limits allow it (the gateway's `call`). */
export type PacedCall = <T>(
  method: string,
  run: () => Promise<T>,
  where: { signal?: AbortSignal | undefined },
) => Promise<T>;

export interface UploadDeps {
  client: WebClient;
  call: PacedCall;
  fetchImpl: typeof fetch;
}

/**
 * Uploads files and shares them in a channel (and thread); resolves to their ids, in order.
 *
 * @example await uploadFiles(deps, 'C123', [{ filename: 'daily.csv', data }], { threadTs: '1.2' })
 */
export async function uploadFiles(
  deps: UploadDeps,
  channelId: string,
  files: readonly UploadFile[],
  options: { signal?: AbortSignal | undefined; threadTs?: string | undefined; comment?: string | undefined },
): Promise<string[]> {
  const uploaded: Array<{ id: string; title: string }> = [];
  for (const file of files) {
    const id = await sendBytes(deps, file, options.signal);
    uploaded.push({ id, title: file.title ?? file.filename });
  }
  const [first, ...rest] = uploaded;
  if (!first) return [];
  await deps.call(
    'files.completeUploadExternal',
    () =>
      deps.client.files.completeUploadExternal({
        files: [first, ...rest],
        ...(options.threadTs ? { channel_id: channelId, thread_ts: options.threadTs } : { channel_id: channelId }),
        ...(options.comment ? { initial_comment: options.comment } : {}),
      }),
    { signal: options.signal },
  );
  return uploaded.map((f) => f.id);
}

/** Uploads a file shared nowhere (for image blocks that name it by id); resolves to its id. */
export async function uploadPrivateFile(
  deps: UploadDeps,
  file: UploadFile,
  signal: AbortSignal | undefined,
): Promise<string> {
  const id = await sendBytes(deps, file, signal);
  await deps.call(
    'files.completeUploadExternal',
    () => deps.client.files.completeUploadExternal({ files: [{ id, title: file.title ?? file.filename }] }),
    { signal },
  );
  return id;
}

/** Gets an upload URL for one file and sends its bytes there; resolves to the file id. */
async function sendBytes(deps: UploadDeps, file: UploadFile, signal: AbortSignal | undefined): Promise<string> {
  const ticket = await deps.call(
    'files.getUploadURLExternal',
    () =>
      deps.client.files.getUploadURLExternal({
        filename: file.filename,
        length: file.data.length,
        ...(file.altText ? { alt_txt: file.altText } : {}),
      }),
    { signal },
  );
  // The raw bytes, which Slack's upload URL accepts as well as a multipart form. Not a FormData:
  // undici streams a form from an async generator that can enqueue into the request's body stream
  // after it closed, an uncaught ERR_INVALID_STATE (seen on Node 24 on a busy machine).
  let response: Response;
  try {
    response = await deps.fetchImpl(String(ticket.upload_url ?? ''), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(file.data),
      signal: withTimeout(30_000, signal),
    });
  } catch (error) {
    throw new SlackDeliveryError('upload', 'request_failed', { retryable: true, cause: error });
  }
  await drain(response);
  if (!response.ok)
    throw new SlackDeliveryError('upload', `http_${response.status}`, { retryable: response.status >= 500 });
  return String(ticket.file_id ?? '');
}
