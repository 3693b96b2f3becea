#!/usr/bin/env node
// Builds the npm packages of cdpvisor from GoReleaser's output, in the
// pattern esbuild and Biome use: one package per platform holding the
// binary (@cdpvisor/linux-x64, …, with "os" and "cpu" so npm installs only
// the matching one) and the wrapper package `cdpvisor`, whose small launcher
// runs it. Nothing is downloaded at install time.
//
//   node .ci/npm/build.mjs [--dist dist] [--out dist/npm] [--platforms linux-x64,…] [--pack]
//
// Reads dist/metadata.json (the version) and dist/artifacts.json (the
// binaries). --platforms builds only those platform packages (the wrapper
// still names all of them); --pack runs `npm pack` in each, leaving the
// tarballs in --out. Prints the package directories (or tarballs) on stdout.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// The project's LICENSE, shipped in every package (npm packs a LICENSE
// file whatever `files` says).
const license = path.join(here, '..', '..', 'LICENSE');

// Every platform cdpvisor is released for: Node's names and Go's.
const PLATFORMS = [
  { os: 'linux', cpu: 'x64', goos: 'linux', goarch: 'amd64' },
  { os: 'linux', cpu: 'arm64', goos: 'linux', goarch: 'arm64' },
  { os: 'darwin', cpu: 'x64', goos: 'darwin', goarch: 'amd64' },
  { os: 'darwin', cpu: 'arm64', goos: 'darwin', goarch: 'arm64' },
  { os: 'win32', cpu: 'x64', goos: 'windows', goarch: 'amd64' },
  { os: 'win32', cpu: 'arm64', goos: 'windows', goarch: 'arm64' },
];

const common = {
  license: 'Apache-2.0',
  homepage: 'https://github.com/cdpvisor/cdpvisor',
  repository: { type: 'git', url: 'git+https://github.com/cdpvisor/cdpvisor.git' },
};

function fail(msg) {
  process.stderr.write(`npm/build: ${msg}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = { dist: 'dist', out: '', platforms: '', pack: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [name, inline] = a.startsWith('--') && a.includes('=') ? a.split(/=(.*)/s) : [a, undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${name} needs a value`);
    switch (name) {
      case '--dist': opts.dist = value(); break;
      case '--out': opts.out = value(); break;
      case '--platforms': opts.platforms = value(); break;
      case '--pack': opts.pack = true; break;
      default: fail(`unknown argument ${a}; usage: build.mjs [--dist DIR] [--out DIR] [--platforms linux-x64,…] [--pack]`);
    }
  }
  opts.out ||= path.join(opts.dist, 'npm');
  return opts;
}

function readJSON(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`cannot read ${file} (run GoReleaser first: task release-snapshot): ${err.message}`);
  }
}

// npm takes a semver; GoReleaser's version may carry a leading v.
function npmVersion(v) {
  v = String(v).replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(v)) fail(`version ${JSON.stringify(v)} is not a semver npm accepts`);
  return v.replace(/\+.*$/, ''); // npm drops build metadata anyway
}

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const root = path.resolve(opts.dist, '..'); // artifact paths are relative to the project
  const version = npmVersion(readJSON(path.join(opts.dist, 'metadata.json')).version);
  const artifacts = readJSON(path.join(opts.dist, 'artifacts.json'));
  const wanted = opts.platforms ? opts.platforms.split(',').map((s) => s.trim()) : PLATFORMS.map((p) => `${p.os}-${p.cpu}`);
  for (const w of wanted) {
    if (!PLATFORMS.some((p) => `${p.os}-${p.cpu}` === w)) fail(`unknown platform ${w}`);
  }
  fs.rmSync(opts.out, { recursive: true, force: true });
  fs.mkdirSync(opts.out, { recursive: true });
  const made = [];

  for (const p of PLATFORMS.filter((p) => wanted.includes(`${p.os}-${p.cpu}`))) {
    const art = artifacts.find((a) => a.type === 'Binary' && a.goos === p.goos && a.goarch === p.goarch);
    if (!art) fail(`no ${p.goos}/${p.goarch} binary in ${path.join(opts.dist, 'artifacts.json')}`);
    const src = path.isAbsolute(art.path) ? art.path : path.join(root, art.path);
    const name = `@cdpvisor/${p.os}-${p.cpu}`;
    const dir = path.join(opts.out, `cdpvisor-${p.os}-${p.cpu}`);
    const exe = p.os === 'win32' ? 'cdpvisor.exe' : 'cdpvisor';
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    fs.copyFileSync(src, path.join(dir, 'bin', exe));
    fs.chmodSync(path.join(dir, 'bin', exe), 0o755);
    writeJSON(path.join(dir, 'package.json'), {
      name,
      version,
      description: `The ${p.os}-${p.cpu} binary of cdpvisor; install the cdpvisor package, which picks it.`,
      ...common,
      os: [p.os],
      cpu: [p.cpu],
      files: ['bin/'],
      preferUnplugged: true,
    });
    fs.copyFileSync(license, path.join(dir, 'LICENSE'));
    fs.writeFileSync(path.join(dir, 'README.md'), `# ${name}\n\nThe ${p.os}-${p.cpu} binary of [cdpvisor](https://www.npmjs.com/package/cdpvisor). Install \`cdpvisor\` instead: it depends on this package on ${p.os}-${p.cpu} only.\n`);
    made.push(dir);
  }

  const wrapper = path.join(opts.out, 'cdpvisor');
  fs.cpSync(path.join(here, 'cdpvisor'), wrapper, { recursive: true });
  fs.chmodSync(path.join(wrapper, 'bin', 'cdpvisor.js'), 0o755);
  fs.copyFileSync(license, path.join(wrapper, 'LICENSE'));
  writeJSON(path.join(wrapper, 'package.json'), {
    name: 'cdpvisor',
    version,
    description: 'Supervises Chromium-family browsers behind stable CDP endpoints, for AI agents (MCP) and automation.',
    keywords: ['cdp', 'chrome', 'chromium', 'mcp', 'devtools', 'puppeteer', 'playwright'],
    ...common,
    bin: { cdpvisor: 'bin/cdpvisor.js' },
    files: ['bin/'],
    engines: { node: '>=18' },
    optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [`@cdpvisor/${p.os}-${p.cpu}`, version])),
  });
  made.push(wrapper);

  for (const dir of made) {
    if (!opts.pack) {
      process.stdout.write(dir + '\n');
      continue;
    }
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(opts.out)], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    process.stdout.write(path.join(opts.out, JSON.parse(out)[0].filename) + '\n');
  }
}

main();
