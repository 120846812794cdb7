// Pure Block Kit screens of the app: help, list, show, schedules, App Home, the alerts overview, watches.

export { alertsOverview } from './alertsOverview.js';
export { homeView, recentRuns } from './homeView.js';
export { listMessage } from './infoMessages.js';
