/** What `runAndDeliver` is asked to run and where its result goes, and what it answers. */
import type { SlackMessage } from '../render/index.js';
import type { RangeSpec, ReportDefinition, ReportView } from '../reports/index.js';
import type { PostHow } from './postView.js';

/** What to run: a named report, or a compiled ad-hoc / postbacks query. */
export interface RunTarget {
  report: { id: string; definition: ReportDefinition };
  /** The query text for ad-hoc runs (echoed in the message, kept for re-runs). */
  query?: string;
  range?: RangeSpec;
  mode?: 'sync' | 'async' | 'auto';
  /** The asker wants the CSV whatever the size. */
  csv?: boolean;
  /** The instant the report's ranges are relative to (a scheduled slot); default now. */
  asOf?: Date;
  /**
   * What the first message carries: metadata (on the progress message of an async run too, so a
   * restart sees that the slot was started), and a digest's late note and notices.
   */
  post?: Pick<PostHow, 'metadata' | 'lateNote' | 'notices'>;
  /**
   * Explain the headline KPIs that moved past the report's `present.explain` threshold: a
   * "because" line each in the message, the full ranking in its thread (digests).
   */
  explain?: boolean;
  /** The answer to a reply in a thread: its first line states the refined query (`adhocMessage`). */
  followUp?: PostHow['followUp'];
  /**
   * Decides from the run's view whether to post it (quiet digests): `post: false` posts nothing,
   * or only `note` (the weekly all-quiet note), and the result says why it was skipped. A run that
   * went async posts regardless: its progress message is already in the channel.
   */
  gate?: (view: ReportView) => GateAnswer;
}

/** `notices`: lines the posted digest shows because of the gate's decision (a KPI with no value). */
export type GateAnswer = { post: true; notices?: string[] } | { post: false; reason: string; note?: SlackMessage };

/** A gated run that did not post its result: why, and the ts of the note posted instead, if any. */
export interface NotPosted {
  view: ReportView;
  skipped: string;
  messageTs?: string;
}

export interface Delivered {
  view: ReportView;
  messageTs: string;
  jobId?: string;
}
