// Child process of the store crash test (test/integration/store/storeCrash.test.ts): opens the
// store from the compiled build, then writes for ever, printing "committed <what>" for every
// write whose promise resolved (i.e. that the store reported durable) until it is SIGKILLed.
// Usage: node storeCrashWriter.mjs <store path> <tag>
import { silentLogger } from '../../dist/src/core/index.js';
import { openStore } from '../../dist/src/store/index.js';

const [path, tag] = process.argv.slice(2);
if (path === undefined || tag === undefined) {
  process.stderr.write('usage: storeCrashWriter.mjs <store path> <tag>\n');
  process.exit(2);
}
const store = await openStore({ path, logger: silentLogger(), limits: { runsPerReport: 1_000_000 } });
// Pipes are synchronous on Linux: once write() returns, the parent gets the line even if we die.
const say = (line) => process.stdout.write(`${line}\n`);
say('ready');

const minute = (i) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
for (let i = 0; ; i++) {
  // Several writes of different kinds at once, so they share (coalesced) disk writes.
  const writes = [
    store.runs
      .start({ report: `r-${tag}`, trigger: 'manual', idempotencyKey: `${tag}-${i}` })
      .then(() => `run ${tag}-${i}`),
    store.subscriptions.add({ report: `r-${tag}`, channel: `C${i}`, createdBy: 'U1' }).then(() => `sub r-${tag} C${i}`),
    store.schedules.setLastFire(`s-${tag}`, minute(i)).then(() => `fire s-${tag} ${minute(i)}`),
    store.jobs
      .create({ id: `job-${tag}-${i}`, request: { i }, requester: 'U1', channel: 'C1' })
      .then(() => `job job-${tag}-${i}`),
  ];
  for (const write of writes) write.then((what) => say(`committed ${what}`));
  await Promise.all(writes);
}
