/** Child processes for the benchmarks that run the bot, Slack or the sandbox apart from the bench. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Spawns a node script and resolves with its first JSON line on stdout that passes `accept`. */
export async function spawnUntil<T>(args: string[], env: NodeJS.ProcessEnv, accept: (line: string) => boolean) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith('{') && accept(line)) {
      return { child, value: JSON.parse(line) as T, seconds: (performance.now() - started) / 1000 };
    }
  }
  throw new Error(`${args.join(' ')} exited before it was ready`);
}
