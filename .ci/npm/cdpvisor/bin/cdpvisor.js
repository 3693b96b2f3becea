#!/usr/bin/env node
// Runs the cdpvisor binary for this platform. npm installed it as one of
// cdpvisor's optional dependencies (@cdpvisor/<os>-<cpu>), choosing the one
// whose "os" and "cpu" match: nothing is downloaded at install time.
'use strict';

const { spawn } = require('node:child_process');
const os = require('node:os');

const platform = `${process.platform}-${process.arch}`;
const pkg = `@cdpvisor/${platform}`;
const exe = process.platform === 'win32' ? 'cdpvisor.exe' : 'cdpvisor';

function binaryPath() {
  // For testing a locally built binary through this launcher.
  if (process.env.CDPVISOR_BINARY) return process.env.CDPVISOR_BINARY;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    process.stderr.write(
      `cdpvisor: the binary for ${platform} is missing: npm did not install ${pkg}.\n` +
        `cdpvisor is built for linux, darwin and win32 on x64 and arm64. Reinstall without --omit=optional ` +
        `(or --no-optional), or use a release archive: https://github.com/cdpvisor/cdpvisor/releases\n`,
    );
    process.exit(1);
  }
}

// Without a terminal (an MCP host talking over pipes) the binary gets its own
// process group, so a signal sent to our group reaches it once, from us. On
// a terminal it stays in ours, for job control; Ctrl-C then reaches it
// directly and is not forwarded again (a second SIGINT means "quit now").
const onTerminal = process.stdin.isTTY === true;
const detached = !onTerminal && process.platform !== 'win32';
const forwarded = onTerminal ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];

const bin = binaryPath();
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', detached, windowsHide: true });

const handlers = {};
for (const sig of forwarded) {
  handlers[sig] = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  };
  process.on(sig, handlers[sig]);
}
if (onTerminal) process.on('SIGINT', () => {}); // the binary got it too; wait for it to exit

child.on('error', (err) => {
  process.stderr.write(`cdpvisor: cannot run ${bin}: ${err.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // End the same way, so whoever started us sees the signal.
    for (const sig of Object.keys(handlers)) process.removeListener(sig, handlers[sig]);
    process.removeAllListeners('SIGINT');
    process.kill(process.pid, signal);
    // A signal Node does not die of: the shell's convention instead.
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 500);
    return;
  }
  process.exit(code ?? 1);
});
