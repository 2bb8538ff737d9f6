// nodebench runtimes install|list|which|prune: manage the runtime cache by hand. `matrix` and `run`
// install what they need by themselves; this is for preparing a machine or cleaning up.
import { ensureRuntime, listCached } from '../runtimes/index.js';
import { CHOOSABLE_PROVIDERS, isChoosableProvider } from '../runtimes/providers.js';
import { removeCached, diskUsage } from '../runtimes/cache.js';
import { parseRuntimeSpec } from '../runtimes/spec.js';
import { UserError } from '../errors.js';
import { runtimesDir } from '../paths.js';
import { RUNTIME_LIST_FORMATS, RUNTIME_INSTALL_FORMATS, RUNTIME_WHICH_FORMATS, RUNTIME_PRUNE_FORMATS } from '../runtimes/formats.js';
import { addFormatOptions, formatFrom, emit } from '../output/emit.js';

const log = (m) => process.stderr.write(`${m}\n`);

// --repair and --keep name cache entries, which are exact versions.
function exactVersion(text, option) {
  const parsed = parseRuntimeSpec(text);
  if (parsed.kind !== 'exact') throw new UserError(`${option} takes exact versions like 16.20.2, not "${text}".`);
  return parsed.version;
}

export function register(program) {
  const runtimes = program.command('runtimes').description('install, list, locate and prune Node runtimes in the nodebench cache');

  addFormatOptions(runtimes.command('install')
    .description('resolve specs (16, 16.13.0, lts, latest, ">=14 <15") and install them into the cache')
    .argument('<specs...>', 'runtime specs')
    .option('--refresh', 'ask the registry for the newest versions even if the cached list is recent')
    .option('--repair', 'reinstall exact versions whose cache entry is damaged or incomplete (see runtimes list)')
    .option('--via <provider>', 'install with nvm\'s own installer (nvm install, honouring NVM_DIR and NVM_NODEJS_ORG_MIRROR) instead of into the nodebench cache'), RUNTIME_INSTALL_FORMATS)
    .action(async (specs, opts) => {
      const render = formatFrom(RUNTIME_INSTALL_FORMATS, opts);
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
      // What was installed is said even when a later spec fails.
      const installed = [];
      try {
        for (const spec of specs) installed.push({ spec, runtime: await ensureRuntime(spec, { log, refresh: opts.refresh, provider: opts.via }) });
      } finally {
        if (installed.length) await emit(render, installed, { out: opts.out });
      }
    });

  addFormatOptions(runtimes.command('list')
    .description('list the runtimes in the cache'), RUNTIME_LIST_FORMATS)
    .action(async (opts) => {
      const render = formatFrom(RUNTIME_LIST_FORMATS, opts);
      const listed = (await listCached()).sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
      if (!listed.length && render === RUNTIME_LIST_FORMATS.table) return log(`no runtimes cached in ${runtimesDir()} yet; nodebench matrix installs what it needs, or run nodebench runtimes install 16`);
      // An entry is 25-150 MB (the binary, and the runtime's own npm once a command needed it).
      const all = await Promise.all(listed.map(async (r) => ({ ...r, sizeBytes: await diskUsage(r.dir) })));
      await emit(render, all, { out: opts.out });
    });

  addFormatOptions(runtimes.command('which')
    .description('print the path of the node binary a spec resolves to (installing it if needed)')
    .argument('<spec>', 'runtime spec'), RUNTIME_WHICH_FORMATS)
    .action(async (spec, opts) => {
      const render = formatFrom(RUNTIME_WHICH_FORMATS, opts);
      await emit(render, await ensureRuntime(spec, { log }), { out: opts.out });
    });

  addFormatOptions(runtimes.command('prune')
    .description('remove cached runtimes, all of them or those not matching --keep')
    .option('--keep <versions>', 'comma-separated exact versions to keep')
    .option('--dry-run', 'only say what would be removed'), RUNTIME_PRUNE_FORMATS)
    .action(async (opts) => {
      const render = formatFrom(RUNTIME_PRUNE_FORMATS, opts);
      const keep = new Set(opts.keep ? String(opts.keep).split(',').map((s) => exactVersion(s.trim(), '--keep')) : []);
      // What was removed is said even when a later removal fails.
      const pruned = { dryRun: Boolean(opts.dryRun), entries: [] };
      try {
        for (const r of await listCached()) {
          if (keep.has(r.version)) continue;
          if (!opts.dryRun) await removeCached(r.dir);
          pruned.entries.push(r);
        }
      } finally {
        if (pruned.entries.length) await emit(render, pruned, { out: opts.out });
      }
    });
}
