// The Slack app: one router over Bolt for /pivot commands, buttons, modals, App Home, thread follow-ups, DMs and mentions.

export { startSlackApp } from './createSlackApp.js';
export { PivotCommands } from './PivotCommands.js';
export { alertsOverview } from './screens/index.js';
export { WorkQueue, type WorkQueueOptions } from './WorkQueue.js';
