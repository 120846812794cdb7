/**
 * Every command the README and docs/*.md show is a real one. Commands are collected from fenced
 * code blocks and from inline code (tables, prose): `pivotbot …` (also `npx pivotbot …`, `node
 * bin/pivotbot.js …`) and `npm …`. Each `pivotbot` command is checked against the commander
 * program itself (subcommand, options, how many arguments), each `npm run` against package.json's
 * scripts; the cheap ones (validate, query, schedule) are also run for real and must succeed. New
 * commands and new docs are picked up without touching this test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildProgram, main } from '../../../src/cli/main.js';

interface DocCommand {
  /** `README.md:4` */
  where: string;
  text: string;
  words: string[];
}

const ROOT = resolve('.');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Splits like a shell: quotes group words (and are removed); `\|` in a table cell is a `|`. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  // `<ISO instant>` is one placeholder however many words it has.
  for (const ch of line.replaceAll('\\|', '|').replace(/<[^<>]*>/g, (p) => p.replaceAll(' ', '_'))) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

/** The commands in one line: after a `$ ` prompt, before a `#` comment, split at `&&`, env assignments dropped. */
function commandsInLine(line: string): string[][] {
  const withoutPrompt = line.replace(/^\s*\$\s+/, '');
  const words = shellWords(withoutPrompt.replace(/\s#\s.*$/, '').replace(/^#.*$/, ''));
  const commands: string[][] = [[]];
  for (const word of words) {
    if (word === '&&' || word === ';') commands.push([]);
    else (commands[commands.length - 1] as string[]).push(word);
  }
  return commands
    .map((c) => {
      let i = 0;
      while (i < c.length && /^[A-Z_][A-Z0-9_]*=/.test(c[i] as string)) i++;
      return c.slice(i);
    })
    .map((c) => (c[0] === 'npx' && c[1] === 'pivotbot' ? c.slice(1) : c))
    .map((c) => (c[0] === 'node' && c[1] === 'bin/pivotbot.js' ? ['pivotbot', ...c.slice(2)] : c))
    .filter((c) => c[0] === 'pivotbot' || c[0] === 'npm');
}

/** Every `pivotbot …` and `npm …` command shown in a markdown file. */
function docCommands(file: string, markdown: string): DocCommand[] {
  const found: DocCommand[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return;
    }
    const sources = fenced ? [line] : [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const source of sources) {
      for (const words of commandsInLine(source)) found.push({ where, text: source.trim(), words });
    }
  });
  return found;
}

const all = DOCS.flatMap((file) => docCommands(file, readFileSync(join(ROOT, file), 'utf8')));
const scripts = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);
const NPM_COMMANDS = new Set(['ci', 'install', 'test', 'start', 'run', 'prune']);
const program = buildProgram({ out: () => undefined, err: () => undefined, env: {} });

/** A word that stands for something (`<report>`, `N`, `ISO`, `DIR`, `C…`, `…`) rather than being it. */
const isPlaceholder = (word: string): boolean =>
  /^<.*>$/.test(word) || /^[A-Z][A-Z_]*$/.test(word) || word.includes('…') || word === '|';

/** What is wrong with `pivotbot <words>` for the commander program, or undefined when it is a real command. */
function problemWith(words: readonly string[]): string | undefined {
  const tokens = words
    .slice(1)
    .flatMap((w) => w.replace(/^\[|\]$/g, '').split(/(?<=^--?[a-z-]+)=/))
    .filter((w) => w !== '');
  const name = tokens[0];
  if (name === undefined || isPlaceholder(name)) return undefined;
  if (name === '--help' || name === '-h' || name === 'help') return undefined;
  const command = program.commands.find((c: Command) => c.name() === name || c.aliases().includes(name));
  if (!command) {
    return `"${name}" is not a pivotbot command (commands: ${program.commands.map((c) => c.name()).join(', ')})`;
  }
  const args = command.registeredArguments;
  let positional = 0;
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) {
      if (token === '--help' || token === '-h') continue;
      const option = command.options.find((o) => o.long === token || o.short === token);
      if (!option) {
        const known = command.options.map((o) => o.long).join(', ');
        return `"${name}" has no option ${token} (options: ${known || 'none'})`;
      }
      // An option that takes a value consumes the next word (a value, or a placeholder).
      if (option.required || option.optional) {
        const next = tokens[i + 1];
        if (option.required && next === undefined) return `${token} needs a value`;
        if (next !== undefined && (option.required || !next.startsWith('-'))) i++;
      }
      continue;
    }
    positional++;
  }
  const variadic = args.some((a) => a.variadic);
  if (!variadic && positional > args.length) {
    return `"${name}" takes ${args.length} argument(s) (${args.map((a) => a.name()).join(', ') || 'none'}), the doc gives ${positional}`;
  }
  return undefined;
}

describe('the commands the docs show', () => {
  it('finds commands in README.md and docs/*.md, fenced and inline, of pivotbot and npm', () => {
    const files = new Set(all.map((c) => c.where.split(':')[0]));
    expect(files.has('README.md')).toBe(true);
    expect(files.size).toBeGreaterThan(3);
    const subcommands = new Set(all.filter((c) => c.words[0] === 'pivotbot').map((c) => c.words[1]));
    for (const shown of ['validate', 'query', 'run', 'sandbox', 'demo', 'start']) expect(subcommands).toContain(shown);
    expect(all.some((c) => c.words[0] === 'npm' && c.words[1] === 'run')).toBe(true);
  });

  it('shows only real pivotbot subcommands with real options', () => {
    const problems = all
      .filter((c) => c.words[0] === 'pivotbot')
      .flatMap((c) => {
        const problem = problemWith(c.words);
        return problem ? [`${c.where} \`${c.text}\`: ${problem}`] : [];
      });
    expect(problems).toEqual([]);
  });

  it('shows only npm commands and scripts that exist (and bench names that exist)', () => {
    const benches = readdirSync(join(ROOT, 'bench'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'support')
      .map((d) => d.name);
    const problems = all
      .filter((c) => c.words[0] === 'npm')
      .flatMap((c) => {
        const [, verb, script, dashes, bench] = c.words;
        if (verb === undefined || !NPM_COMMANDS.has(verb))
          return [`${c.where} \`${c.text}\`: npm ${verb} is not used here`];
        if (verb !== 'run') return [];
        if (script === undefined || isPlaceholder(script)) return [];
        if (!scripts.includes(script)) return [`${c.where} \`${c.text}\`: package.json has no script "${script}"`];
        if (script === 'bench' && dashes === '--' && bench && !isPlaceholder(bench) && !benches.includes(bench)) {
          return [`${c.where} \`${c.text}\`: there is no bench "${bench}" (${benches.join(', ')})`];
        }
        return [];
      });
    expect(problems).toEqual([]);
  });

  it('catches a command that does not exist, an unknown option and an extra argument', () => {
    expect(problemWith(['pivotbot', 'publish', 'daily'])).toMatch(/"publish" is not a pivotbot command/);
    expect(problemWith(['pivotbot', 'run', 'daily-kpi', '--range', 'yesterday', '--csv'])).toMatch(/no option --csv/);
    expect(problemWith(['pivotbot', 'validate', 'a', 'b'])).toMatch(/takes 1 argument/);
    expect(problemWith(['pivotbot', 'sandbox', '[--port', '4010]', '[--scale', 'small|medium|large]'])).toBeUndefined();
    const found = docCommands(
      'x.md',
      '```sh\n$ FOO=1 npx pivotbot query "a b" --json  # note\n```\n| `pivotbot demo --out out` |',
    );
    expect(found.map((c) => c.words)).toEqual([
      ['pivotbot', 'query', 'a b', '--json'],
      ['pivotbot', 'demo', '--out', 'out'],
    ]);
  });

  describe('run for real', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'pivotbot-docs-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** The cheap commands, as shown and complete (files they write go to a temporary folder). */
    const runnable = all.filter((c) => {
      const [tool, sub, first] = c.words;
      if (tool !== 'pivotbot' || c.words.some(isPlaceholder) || c.words.some((w) => /^\[|\]$/.test(w))) return false;
      const required = program.commands.find((p) => p.name() === sub)?.registeredArguments.filter((a) => a.required);
      if (c.words.slice(2).filter((w) => !w.startsWith('-')).length < (required?.length ?? 0)) return false;
      if (sub === 'validate') return first === undefined || existsSync(join(ROOT, first));
      return sub === 'query' || sub === 'schedule';
    });

    it('has something to run', () => {
      expect(runnable.length).toBeGreaterThan(3);
    });

    it.each(runnable.map((c) => [c.where, c.text, c] as const))(
      '%s: %s succeeds',
      async (_where, _text, command) => {
        const args = command.words.slice(1).map((w, i, words) => (words[i - 1] === '--csv' ? join(dir, 'out.csv') : w));
        let out = '';
        let err = '';
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          PIVOTBOT_TIMEZONE: 'UTC',
          PIVOTBOT_STORE: join(dir, 'store.json'),
        };
        const code = await main(['node', 'pivotbot', ...args], {
          out: (s) => {
            out += s;
          },
          err: (s) => {
            err += s;
          },
          env,
        });
        expect({ code, err }).toEqual({ code: 0, err: expect.any(String) });
        expect(out.length).toBeGreaterThan(0);
      },
      60_000,
    );
  });
});
