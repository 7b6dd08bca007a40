/**
 * The admin CLI: `npm run cli -- <command>` from the repository root.
 * Same environment parsing and database connection as the server. Every database
 * command first brings the schema up to date (a no-op when it already is).
 *
 * Exit codes: 0 done, 2 bad arguments or rejected input (message on stderr), 1 unexpected failure.
 */
import { Command, CommanderError } from 'commander';
import { addCodeCommands } from './cli/code-commands.ts';
import { addDataCommands } from './cli/data-commands.ts';
import { addFeatureCommands } from './cli/feature-commands.ts';
import { addInvitationCommands } from './cli/invitation-commands.ts';
import { EXIT_USAGE, UsageError, formatTable, withDatabase } from './cli/kit.ts';
import { addLinkCommands, addTokenCommands } from './cli/link-commands.ts';
import { addMailCommands } from './cli/mail-commands.ts';
import { addMemberCommands } from './cli/member-commands.ts';

function buildProgram(): Command {
  const program = new Command()
    .name('velvet-api')
    .description('Velvet Rope API admin commands. Reads the same environment as the server (DATABASE_URL, APP_SECRET, ...).')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  // The order of `--help`'s list.
  addCodeCommands(program);
  addMemberCommands(program);
  addMailCommands(program);
  addLinkCommands(program);
  addInvitationCommands(program);
  addTokenCommands(program);
  addFeatureCommands(program, { withDatabase, usageError: (message) => new UsageError(message), formatTable });
  addDataCommands(program);
  return program;
}

async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" under exitOverride; commander already printed them.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return 0;
      }
      return EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      return EXIT_USAGE;
    }
    console.error('unexpected error:', error instanceof Error ? error.message : error);
    return 1;
  }
}

// `npm run cli` runs in apps/api; relative paths (DATA_DIR's default `data`, a `file:`
// DATABASE_URL) mean what they mean where npm was started: the repository root for the
// README's commands, the same `data/` that `npm start` uses.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
