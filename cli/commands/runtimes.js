// nodebench runtimes install|list|which|prune: manage the runtime cache by hand. `matrix` and `run`
// install what they need by themselves; this is for preparing a machine or cleaning up.
import { ensureRuntime, listCached } from '../runtimes/index.js';
import { CHOOSABLE_PROVIDERS, isChoosableProvider } from '../runtimes/providers.js';
import { removeCached, diskUsage } from '../runtimes/cache.js';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { UserError } from '../errors.js';
import { runtimesDir } from '../paths.js';
import { terminalText } from '../text/escape.js';
import { formatBytes } from '../text/format.js';

const log = (m) => process.stderr.write(`${m}\n`);

// --repair and --keep name cache entries, which are exact versions.
function exactVersion(text, option) {
  const parsed = parseRuntimeSpec(text);
  if (parsed.kind !== 'exact') throw new UserError(`${option} takes exact versions like 16.20.2, not "${text}".`);
  return parsed.version;
}

// size: the entry's disk use, in `runtimes list`.
function describe(r, size = null) {
  return terminalText(`${r.version.padEnd(9)} V8 ${String(r.v8).padEnd(22)} ${String(r.provider).padEnd(7)} ${r.lts ? `LTS ${r.lts}`.padEnd(14) : ''.padEnd(14)} ${size ? `${size}  ` : ''}${r.path}`);
}

export function register(program) {
  const runtimes = program.command('runtimes').description('install, list, locate and prune Node runtimes in the nodebench cache');

  runtimes.command('install')
    .description('resolve specs (16, 16.13.0, lts, latest, ">=14 <15") and install them into the cache')
    .argument('<specs...>', 'runtime specs')
    .option('--refresh', 'ask the registry for the newest versions even if the cached list is recent')
    .option('--repair', 'reinstall exact versions whose cache entry is damaged or incomplete (see runtimes list)')
    .option('--via <provider>', 'install with nvm\'s own installer (nvm install, honouring NVM_DIR and NVM_NODEJS_ORG_MIRROR) instead of into the nodebench cache')
    .action(async (specs, opts) => {
      if (opts.via !== undefined && !isChoosableProvider(opts.via)) throw new UserError(`--via "${opts.via}" is not known; use --via ${CHOOSABLE_PROVIDERS.join(', ')}, or leave it out to install into the nodebench cache.`);
      if (opts.via && opts.repair) throw new UserError('--repair reinstalls nodebench cache entries; nvm\'s versions are repaired with nvm itself (nvm uninstall, then nvm install), so leave out one of --repair and --via.');
      if (opts.repair) {
        for (const spec of specs) {
          const version = exactVersion(spec, '--repair');
          const entry = (await listCached()).find((r) => r.version === version);
          if (entry && entry.state !== 'ok') {
            await removeCached(entry.dir);
            log(`removed the ${entry.state} cache entry of Node ${version} (${entry.problem})`);
          }
        }
      }
      for (const spec of specs) {
        const r = await ensureRuntime(spec, { log, refresh: opts.refresh, provider: opts.via });
        process.stdout.write(`${terminalText(spec)} -> ${describe(r)}\n`);
      }
    });

  runtimes.command('list')
    .description('list the runtimes in the cache')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const listed = (await listCached()).sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
      // An entry is 25-150 MB (the binary, and the runtime's own npm once a command needed it).
      const all = await Promise.all(listed.map(async (r) => ({ ...r, sizeBytes: await diskUsage(r.dir) })));
      if (opts.json) return process.stdout.write(`${JSON.stringify(all, null, 1)}\n`);
      if (!all.length) return log(`no runtimes cached in ${runtimesDir()} yet; nodebench matrix installs what it needs, or run nodebench runtimes install 16`);
      const size = (r) => formatBytes(r.sizeBytes).padStart(9);
      for (const r of all) process.stdout.write(r.state === 'ok' ? `${describe(r, size(r))}\n` : `${terminalText(`${r.version.padEnd(9)} ${r.state.toUpperCase()}: ${r.problem}; nodebench runtimes install ${r.version} --repair (${formatBytes(r.sizeBytes)})`)}\n`);
      const total = all.reduce((sum, r) => sum + r.sizeBytes, 0);
      process.stdout.write(`${terminalText(`${all.length} runtime${all.length === 1 ? '' : 's'}, ${formatBytes(total)} in ${runtimesDir()}`)}; to free space, nodebench runtimes prune --keep VERSIONS removes all but those (--dry-run first says what would go)\n`);
    });

  runtimes.command('which')
    .description('print the path of the node binary a spec resolves to (installing it if needed)')
    .argument('<spec>', 'runtime spec')
    .action(async (spec) => {
      const r = await ensureRuntime(spec, { log });
      process.stdout.write(`${terminalText(r.path)}\n`);
    });

  runtimes.command('prune')
    .description('remove cached runtimes, all of them or those not matching --keep')
    .option('--keep <versions>', 'comma-separated exact versions to keep')
    .option('--dry-run', 'only say what would be removed')
    .action(async (opts) => {
      const keep = new Set(opts.keep ? String(opts.keep).split(',').map((s) => exactVersion(s.trim(), '--keep')) : []);
      for (const r of await listCached()) {
        if (keep.has(r.version)) continue;
        if (!opts.dryRun) await removeCached(r.dir);
        process.stdout.write(`${terminalText(`${opts.dryRun ? 'would remove' : 'removed'} ${r.version} (${r.dir})`)}\n`);
      }
    });
}
