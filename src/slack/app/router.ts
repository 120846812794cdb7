/**
 * The one place where Slack input is routed. The receiver (Bolt's listeners) acknowledges each
 * request and hands on what kind of input it was; here every input finds its handler in one table:
 * `/pivot` by subcommand, a button by its action id, a modal by its callback id, App Home, and the
 * messages the bot may read. A request Slack delivers twice (a retry, a double click) runs once.
 */
import { type Logger, toError } from '../../core/index.js';
import { ACTION_IDS, ALERT_ACTION_PATTERN, MODAL_ACTION_PATTERN, RANGE_ACTION_PATTERN } from '../../render/index.js';
import type { SlackGateway } from '../../slackapi/index.js';
import {
  type ActionView,
  type BotIdentity,
  RecentKeys,
  type SharedKeys,
  type SlackAction,
  type SlackEvent,
  type TypedText,
  type ViewAnswer,
  type ViewSubmission,
} from '../receiver/index.js';
import { alertAction } from './alertActions.js';
import type { CommandContext } from './answers.js';
import { type HomeDeps, publishHome } from './appHome.js';
import { converse, HINT_MEMORY_MS } from './Conversation.js';
import { commandOf } from './commandOf.js';
import type { PivotCommands } from './PivotCommands.js';
import type { SlashCommand } from './parseSlashCommand.js';
import { QUERY_BLOCKS, QUERY_MODAL_CALLBACK } from './queryModalFields.js';
import { reportButton } from './reportButtons.js';
import { SCHEDULE_BLOCKS, SCHEDULE_MODAL_CALLBACK } from './scheduleModal.js';
import { helpMessage } from './screens/infoMessages.js';
import { unwatchName } from './screens/watchesSection.js';
import { WATCH_BLOCKS, WATCH_MODAL_CALLBACK } from './watchModal.js';

export interface RouterDeps {
  commands: PivotCommands;
  gateway: SlackGateway;
  home: HomeDeps;
  logger: Logger;
  /** Keeps a handler's work in flight (shutdown waits for it) and logs what it threw. */
  track: (work: Promise<unknown>) => void;
  bot: BotIdentity;
  /**
   * Several replicas on one database: Slack's retry of a request may reach another replica than
   * the first delivery, so the database decides what was seen. Undefined: this process's memory.
   */
  shared?: SharedKeys;
}

export interface SlackRouter {
  /** An acknowledged input: run by its handler, once. Never throws. */
  event(event: SlackEvent): void;
  /** A modal submission: the verdict its ack carries (errors by block, or nothing to close it). */
  submit(submission: ViewSubmission): Promise<ViewAnswer>;
}

/** A handler, and the key a repeat of its input carries (none: every delivery runs). */
interface Route<E> {
  once?: (input: E) => string;
  run: (input: E) => Promise<void>;
}

type Input<K extends SlackEvent['type']> = Extract<SlackEvent, { type: K }>;

type Subcommand<K extends SlashCommand['kind']> = (
  command: Extract<SlashCommand, { kind: K }>,
  text: string,
  ctx: CommandContext,
) => Promise<void>;

/** A result's buttons: run again, another range, the CSV, Explain. */
const REPORT_BUTTON = new RegExp(
  `^(${ACTION_IDS.rerun}|${ACTION_IDS.csv}|${ACTION_IDS.explain}|${RANGE_ACTION_PATTERN.source.slice(1)}.+)$`,
);
const exactly = (id: string) => new RegExp(`^${id}$`);
const clickKey = (suffix?: string) => (a: SlackAction) => `act:${a.triggerId}:${suffix ?? a.actionId}`;

/**
 * The router over `commands`: pass its `event` and `submit` to the receiver.
 *
 * @example const router = slackRouter({ commands, gateway, home, logger, track, bot });
 */
export function slackRouter(deps: RouterDeps): SlackRouter {
  const { commands, logger, track } = deps;
  const { answers, queries, info, admin, builder, watches, backtests } = commands;
  const home = (userId: string) => publishHome(userId, deps);

  const subcommands: { [K in SlashCommand['kind']]: Subcommand<K> } = {
    // Without a trigger id (an old Slack client, a test) there is no modal to open: help.
    new: (_, _text, ctx) =>
      ctx.triggerId
        ? builder.openBuilder(ctx.triggerId, ctx.channelId, ctx.responseUrl)
        : answers.tell(ctx, helpMessage(commands.deps.settings)),
    help: (command, _text, ctx) => info.help(command, ctx),
    list: (_, _text, ctx) => info.list(ctx),
    show: (command, text, ctx) => info.show(command, text, ctx),
    status: (command, _text, ctx) => info.status(command, ctx),
    history: (command, _text, ctx) => info.history(command, ctx),
    alerts: async (_, _text, ctx) => answers.tell(ctx, await admin.alertsMessage(ctx.userId)),
    backtest: (command, _text, ctx) => backtests.run(command, ctx),
    subscribe: (command, _text, ctx) => admin.subscribe(command, ctx),
    schedule: async (_, _text, ctx) => answers.tell(ctx, await admin.scheduleList()),
    unsubscribe: (command, _text, ctx) => admin.unsubscribe(command, ctx),
    unwatch: (command, _text, ctx) => admin.unwatch(command.name, ctx),
    why: (command, _text, ctx) => queries.why(command.text, ctx),
    query: (command, text, ctx) => queries.query(command.text || text, ctx),
  };
  /**
   * `/pivot <text>` (also a DM or a mention), decoded by the receiver: never throws; failures
   * become a private error message.
   */
  const pivot = async (typed: TypedText, ctx: CommandContext): Promise<void> => {
    try {
      const command = commandOf(typed);
      await (subcommands[command.kind] as Subcommand<SlashCommand['kind']>)(command, typed.text, ctx);
    } catch (error) {
      await answers.reportFailure(error, typed.text, ctx);
    }
  };

  const modalChanges: Record<string, (view: ActionView) => Promise<void>> = {
    [QUERY_MODAL_CALLBACK]: (view) => builder.update(view),
    [WATCH_MODAL_CALLBACK]: (view) => watches.update(view),
  };
  const actions: Array<[RegExp, Route<SlackAction>]> = [
    [REPORT_BUTTON, { once: clickKey(), run: (a) => reportButton(a, deps) }],
    [ALERT_ACTION_PATTERN, { once: clickKey(), run: (a) => alertAction(a, alertDeps(deps)) }],
    [exactly(ACTION_IDS.scheduleThis), { once: clickKey('schedule'), run: (a) => builder.scheduleThis(a) }],
    [exactly(ACTION_IDS.watchThis), { once: clickKey('watch'), run: (a) => watches.watchThis(a) }],
    [
      exactly(ACTION_IDS.unwatch),
      {
        once: clickKey('unwatch'),
        run: (a) =>
          admin
            .unwatchClick({
              name: unwatchName(a.value),
              userId: a.userId,
              ...(a.responseUrl ? { responseUrl: a.responseUrl } : {}),
            })
            // Clicked in App Home: the tab is published again once the watch is removed.
            .then(() => (a.view?.type === 'home' ? home(a.userId) : undefined)),
      },
    ],
    // A field of an open modal changed: the modal is redrawn (views.update).
    [MODAL_ACTION_PATTERN, { run: async (a) => a.view && modalChanges[a.view.callbackId]?.(a.view) }],
  ];
  const submissions: Record<string, { judge: (s: ViewSubmission) => Promise<ViewAnswer>; errorBlock: string }> = {
    [QUERY_MODAL_CALLBACK]: { judge: (s) => builder.submitQuery(s, track), errorBlock: QUERY_BLOCKS.metrics },
    [SCHEDULE_MODAL_CALLBACK]: { judge: (s) => builder.submitSchedule(s, track), errorBlock: SCHEDULE_BLOCKS.name },
    [WATCH_MODAL_CALLBACK]: { judge: (s) => watches.submit(s, track), errorBlock: WATCH_BLOCKS.name },
  };

  // Who had their private hint in which thread (Conversation.ts): in memory, and in the store's
  // request keys across replicas.
  const hinted = new RecentKeys(HINT_MEMORY_MS, 10_000, Date.now, deps.shared);
  const routes = {
    command: {
      once: (c) => `cmd:${c.triggerId || `${c.userId}:${c.text}:${c.responseUrl}`}`,
      run: (c) =>
        pivot(c, {
          userId: c.userId,
          channelId: c.channelId,
          responseUrl: c.responseUrl,
          ...(c.triggerId ? { triggerId: c.triggerId } : {}),
        }),
    } satisfies Route<Input<'command'>>,
    homeOpened: { run: (h) => home(h.userId) } satisfies Route<Input<'homeOpened'>>,
    message: {
      // A retry, and the message event Slack sends beside an app_mention, share channel and ts.
      once: (m) => `msg:${m.channelId}:${m.ts}`,
      run: ({ type: _type, retryNum: _retry, ...message }) =>
        converse(message, { commands, pivot, slack: deps.gateway, logger, bot: deps.bot, hinted }),
    } satisfies Route<Input<'message'>>,
  };
  const routeOf = (event: SlackEvent) =>
    (event.type === 'action' ? actions.find(([pattern]) => pattern.test(event.actionId))?.[1] : routes[event.type]) as
      | Route<SlackEvent>
      | undefined;

  const seen = new RecentKeys(undefined, undefined, undefined, deps.shared);
  return {
    event(event) {
      const route = routeOf(event);
      if (!route) return;
      const key = route.once?.(event);
      if (key === undefined) return track(route.run(event));
      track(
        seen.seenBefore(key).then(async (repeat) => {
          if (!repeat) return route.run(event);
          logger.info(
            { type: event.type, ...('userId' in event ? { userId: event.userId } : {}) },
            'repeated Slack request ignored',
          );
        }),
      );
    },
    async submit(submission) {
      const route = submissions[submission.callbackId];
      if (!route) return {};
      try {
        return await route.judge(submission);
      } catch (error) {
        logger.warn({ err: toError(error), callbackId: submission.callbackId }, 'modal submission failed');
        return { errors: { [route.errorBlock]: 'That did not work; try again in a moment.' } };
      }
    },
  };
}

/** What the alert buttons need, from the router's dependencies. */
function alertDeps(deps: RouterDeps) {
  return {
    slack: deps.gateway,
    store: deps.home.store,
    loadReports: deps.home.loadReports,
    logger: deps.logger,
    clock: () => new Date(),
    defaultTimeZone: deps.home.timezone,
  };
}
