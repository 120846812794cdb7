/** App Home: the tab published for one user when they open it, or after they change what it shows. */
import type { Logger } from '../../core/index.js';
import type { LoadedReports } from '../../reports/index.js';
import type { SlackGateway } from '../../slackapi/index.js';
import type { Store } from '../../store/index.js';
import type { PivotCommands } from './PivotCommands.js';
import { homeView, recentRuns } from './screens/homeView.js';
import { scheduleOverview } from './screens/scheduleMessages.js';

/** What App Home shows. */
export interface HomeDeps {
  store: Store;
  loadReports: () => Promise<LoadedReports>;
  timezone: string;
  sandbox: boolean;
}

/**
 * Publishes App Home for one user (the watches' Remove buttons only for admins). Never throws.
 *
 * @example await publishHome('U0ALICE', { home, commands, gateway, logger })
 */
export async function publishHome(
  userId: string,
  deps: { home: HomeDeps; commands: PivotCommands; gateway: SlackGateway; logger: Logger },
): Promise<void> {
  const { home } = deps;
  try {
    const reports = await home.loadReports();
    const view = homeView({
      reports,
      schedules: scheduleOverview({
        reports,
        subscriptions: home.store.subscriptions.list(),
        runs: home.store.runs,
        timezone: home.timezone,
        now: new Date(),
      }),
      alerts: await deps.commands.admin.alertsMessage(userId),
      timezone: home.timezone,
      sandbox: home.sandbox,
      recentRuns: recentRuns(home.store.runs, reports, home.store.subscriptions.list()),
      incidents: home.store.incidents,
    });
    await deps.gateway.publishHome(userId, view);
  } catch (error) {
    deps.logger.warn({ err: error }, 'App Home could not be published');
  }
}
