// nodebench runtimes' output formats, each a function of (document) -> text (output/emit.js): the
// cache's entries (list), the runtimes a spec resolved to (install, which), the entries prune
// removed. JSON is the document itself; every text goes through text/escape.js (a version, a path
// or a problem read from the cache is not trusted with the terminal).
import { terminalText } from '../text/escape.js';
import { renderJson } from '../render/json.js';
import { formatBytes } from '../text/format.js';
import { runtimesDir } from '../paths.js';

// One runtime on one line: version, V8, provider, LTS name, (in `list`) its size on disk, path.
export function describeRuntimeLine(r, size = null) {
  return terminalText(`${r.version.padEnd(9)} V8 ${String(r.v8).padEnd(22)} ${String(r.provider).padEnd(7)} ${r.lts ? `LTS ${r.lts}`.padEnd(14) : ''.padEnd(14)} ${size ? `${size}  ` : ''}${r.path}`);
}

const lines = (items, line) => items.map((item) => `${line(item)}\n`).join('');

// entries: the cache's (runtimes/index.js listCached) with sizeBytes, a damaged one with its state
// and problem; the last line the total and how to free space.
export const RUNTIME_LIST_FORMATS = {
  table: (entries) => {
    const size = (r) => formatBytes(r.sizeBytes).padStart(9);
    const total = entries.reduce((sum, r) => sum + r.sizeBytes, 0);
    return lines(entries, (r) => (r.state === 'ok' ? describeRuntimeLine(r, size(r))
      : terminalText(`${r.version.padEnd(9)} ${r.state.toUpperCase()}: ${r.problem}; nodebench runtimes install ${r.version} --repair (${formatBytes(r.sizeBytes)})`))) +
      `${terminalText(`${entries.length} runtime${entries.length === 1 ? '' : 's'}, ${formatBytes(total)} in ${runtimesDir()}`)}; to free space, nodebench runtimes prune --keep VERSIONS removes all but those (--dry-run first says what would go)\n`;
  },
  json: renderJson
};

// installed: [{ spec, runtime }], in the order of the specs.
export const RUNTIME_INSTALL_FORMATS = {
  table: (installed) => lines(installed, ({ spec, runtime }) => `${terminalText(spec)} -> ${describeRuntimeLine(runtime)}`),
  json: renderJson
};

export const RUNTIME_WHICH_FORMATS = {
  table: (runtime) => `${terminalText(runtime.path)}\n`,
  json: renderJson
};

// pruned: { dryRun, entries } (the entries removed, or that would be).
export const RUNTIME_PRUNE_FORMATS = {
  table: ({ dryRun, entries }) => lines(entries, (r) => terminalText(`${dryRun ? 'would remove' : 'removed'} ${r.version} (${r.dir})`)),
  json: renderJson
};
