/**
 * Bolt's listeners: one per kind of Slack input, each acknowledging at once and handing the input
 * on as plain data. They decide nothing about what an input means (that is the app's router,
 * `src/slack/app/router.ts`); they only drop what pivotbot must not read (`conversationEvents.ts`)
 * and decode what people typed from Slack's wire format (`typedText.ts`). Modal values are handed
 * on as Slack sent them: a `plain_text_input` value is the typed text already.
 */
import type bolt from '@slack/bolt';
import type { BotIdentity } from './conversationEvents.js';
import { conversationMessageOf } from './conversationEvents.js';
import type { ReceiverSink, SlackAction, ViewAnswer } from './slackReceiver.js';
import { typedTextOf } from './typedText.js';

/**
 * How long a submission waits for the bot's verdict: Slack closes the request at 3 s, and the
 * answer must leave before that.
 */
export const SUBMIT_ANSWER_MS = 2_500;

/** The ack when the bot did not answer in time: an error under the modal's first input. */
function busyAnswer(view: { blocks?: readonly object[] }): ViewAnswer {
  for (const block of view.blocks ?? []) {
    if ('type' in block && block.type === 'input' && 'block_id' in block && typeof block.block_id === 'string') {
      return { errors: { [block.block_id]: 'pivotbot is busy; press the button again in a moment.' } };
    }
  }
  return {};
}

/**
 * Registers the listeners on `app`: `/pivot`, every button or modal field (`block_actions`),
 * pivotbot's modal submissions, App Home opened, and the messages the bot may read.
 */
export function listen(app: bolt.App, sink: ReceiverSink, bot: BotIdentity): void {
  app.command('/pivot', async ({ command, ack }) => {
    await ack();
    sink.event({
      type: 'command',
      // Slack's wire text (entities, links, references, emoji) decoded here, once.
      ...typedTextOf(command.text ?? ''),
      userId: command.user_id,
      channelId: command.channel_id,
      responseUrl: command.response_url,
      ...(command.trigger_id ? { triggerId: command.trigger_id } : {}),
    });
  });

  app.action({ type: 'block_actions' }, async ({ ack, body, action }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    sink.event(actionOf(body, action as { action_id: string; value?: string }));
  });

  // A submission is answered in its ack: the modal shows the errors, or closes.
  app.view({ type: 'view_submission', callback_id: /^pivot_/ }, async ({ ack, body, view }) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ViewAnswer>((resolve) => {
      timer = setTimeout(() => resolve(busyAnswer(view)), SUBMIT_ANSWER_MS);
    });
    const answer = await Promise.race([
      sink
        .submit({
          callbackId: view.callback_id,
          userId: body.user.id,
          viewId: view.id,
          triggerId: (body as { trigger_id?: string }).trigger_id ?? '',
          privateMetadata: view.private_metadata,
          values: view.state?.values ?? {},
        })
        .catch((error: unknown) => {
          sink.error('modal submission failed', error);
          return busyAnswer(view);
        }),
      late,
    ]).finally(() => clearTimeout(timer));
    await ack(answer.errors ? { response_action: 'errors', errors: answer.errors } : undefined);
  });

  app.event('app_home_opened', async ({ event }) => {
    if (event.tab === 'home') sink.event({ type: 'homeOpened', userId: event.user });
  });

  // Mentions, DMs and replies in the bot's threads; everything else is dropped unread here.
  for (const name of ['app_mention', 'message'] as const) {
    app.event(name, async ({ event, context }) => {
      const message = conversationMessageOf(event, bot);
      if (!message) return;
      sink.event({
        type: 'message',
        ...message,
        ...(context.retryNum !== undefined ? { retryNum: context.retryNum } : {}),
      });
    });
  }

  app.error(async (error) => {
    sink.error('Slack listener failed', error);
  });
}

/** The fields of a `block_actions` body this module reads. */
interface ActionBody {
  user: { id: string };
  channel?: { id?: string };
  container?: { channel_id?: string };
  response_url?: string;
  trigger_id: string;
  message?: { ts?: string; thread_ts?: unknown };
  view?: {
    type: string;
    id: string;
    hash: string;
    callback_id: string;
    private_metadata: string;
    state?: { values?: unknown };
  };
}

/** A click or a field change as plain data: who, where, which action, and the view it was in. */
function actionOf(body: ActionBody, action: { action_id: string; value?: string }): SlackAction {
  const channelId = body.channel?.id ?? body.container?.channel_id;
  const { view } = body;
  return {
    type: 'action',
    actionId: action.action_id,
    ...(action.value !== undefined ? { value: action.value } : {}),
    userId: body.user.id,
    ...(channelId ? { channelId } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
    triggerId: body.trigger_id,
    ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
    ...(body.message?.thread_ts ? { threadTs: String(body.message.thread_ts) } : {}),
    ...(view
      ? {
          view: {
            type: view.type,
            id: view.id,
            hash: view.hash,
            callbackId: view.callback_id,
            privateMetadata: view.private_metadata,
            values: view.state?.values ?? {},
          },
        }
      : {}),
  };
}
