/** An async job's message, updated in place (chat.update) as the job moves: queued, running, ready, failed. */
import { fitMessage } from '../slackLimits.js';
import { context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, SlackMessage } from './types.js';

export type JobState = 'PENDING' | 'QUEUED' | 'RUNNING' | 'UP_FOR_RETRY' | 'READY' | 'FAILED';

export interface JobProgressInput {
  jobId: string;
  /** What runs: a report title or the ad-hoc query. */
  title: string;
  status: JobState | string;
  /** ISO 8601 instants; the clock is the caller's, so the builder stays pure. */
  startedAt: string;
  now: string;
  /** Where the result went, once ready: a file name or link text. */
  resultName?: string;
  /** The reason, when failed. */
  error?: string;
}

const STATUS: Readonly<Record<string, { emoji: string; text: string }>> = {
  PENDING: { emoji: ':hourglass_flowing_sand:', text: 'queued' },
  QUEUED: { emoji: ':hourglass_flowing_sand:', text: 'queued' },
  RUNNING: { emoji: ':gear:', text: 'running' },
  UP_FOR_RETRY: { emoji: ':repeat:', text: 'retrying' },
  READY: { emoji: ':white_check_mark:', text: 'ready' },
  FAILED: { emoji: ':x:', text: 'failed' },
};

/** `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** ` (2 h 10 min)` after a "since …" for how long that has been; nothing under a minute ("(0 s)" says little). */
export function elapsedSuffix(ms: number): string {
  return ms < 60_000 ? '' : ` (${formatElapsed(ms)})`;
}

/**
 * The progress message of an async job.
 *
 * @example jobProgressMessage({ jobId: 'j1', title: 'Weekly', status: 'RUNNING', startedAt, now })
 */
export function jobProgressMessage(input: JobProgressInput): SlackMessage {
  const status = STATUS[input.status] ?? { emoji: ':grey_question:', text: input.status.toLowerCase() };
  const elapsed = formatElapsed(Date.parse(input.now) - Date.parse(input.startedAt));
  const title = escapeMrkdwn(input.title);
  let line = `${status.emoji} *${title}* is ${status.text}`;
  if (input.status === 'READY')
    line += input.resultName ? `: the result is in \`${escapeMrkdwn(input.resultName)}\`.` : '.';
  else if (input.status === 'FAILED') line += input.error ? `: ${escapeMrkdwn(input.error)}` : '.';
  else line += '… this message updates when it is done.';
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(line) },
    context(
      `Job \`${escapeMrkdwn(input.jobId)}\`  ·  ${input.status === 'READY' || input.status === 'FAILED' ? 'took' : 'elapsed'} ${elapsed}  ·  \`/pivot status ${escapeMrkdwn(input.jobId)}\``,
    ),
  ];
  return fitMessage({ text: `${input.title}: ${status.text}`, blocks }).message;
}
