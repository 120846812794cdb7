import type { TypedText } from '../receiver/index.js';
import { parseSlashCommand, type SlashCommand } from './parseSlashCommand.js';

/**
 * The subcommand of a typed text. The grammar reads references where it names a channel
 * (`subscribe daily-kpi <#C1|growth>`), so it parses the text with them kept; a query (and `why`)
 * reads the text without them, where `<@U1>` means nothing.
 *
 * @example commandOf({ text: 'spend by country', commandText: '<!here> spend by country' }) // { kind: 'query', text: 'spend by country' }
 */
export function commandOf(typed: TypedText): SlashCommand {
  const command = parseSlashCommand(typed.commandText);
  return command.kind === 'query' || command.kind === 'why' ? parseSlashCommand(typed.text) : command;
}
