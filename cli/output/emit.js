// The one way a view's output leaves nodebench: every command prints through emit. A view (report,
// diff, history, explain, flags, runtimes, doctor, bisect, the end of a run) is a lookup of its
// formats, each a function of (document, options) -> text, one file per format beside it; this file
// owns what every command shares around them: --format (one vocabulary, the same aliases
// everywhere, --json for --format json), colour only on a terminal,
// --out (fs-atomic.js's writer: a file replaced atomically, a device or FIFO written through) or
// stdout, and the Markdown that GitHub Actions shows on a job's summary page.
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import { writeOutput, describeWriteFailure, kindOf } from '../fs-atomic.js';
import { UserError } from '../errors.js';

export const FORMAT_NAMES = ['table', 'markdown', 'csv', 'html', 'json'];
// Accepted wherever --format is: history show called them text and md first.
const ALIASES = { text: 'table', md: 'markdown' };
const canonical = (name) => ALIASES[name] || name;

// The view's format function for `requested` (a name or an alias), or one sentence listing the
// view's formats. Called before any file is read, so a typo fails fast.
export function chooseFormat(view, requested) {
  const wanted = canonical(String(requested));
  const name = Object.keys(view).find((key) => canonical(key) === wanted);
  if (!name) throw new UserError(`--format "${requested}" is not known; use ${Object.keys(view).join(', ')}.`);
  return view[name];
}

// --format, and --json and --out where the command has them free, with the same words everywhere.
// (run, matrix and exec take --out for their result file and --json from options.js; bisect takes
// --out for its state file.)
export function addFormatOptions(command, view, { json = true, out = true } = {}) {
  command.option('--format <format>', `one of ${Object.keys(view).join(', ')}`, 'table');
  if (json && view.json) command.option('--json', 'same as --format json');
  if (out) command.option('--out <file>', 'write to this file instead of stdout');
  return command;
}

// The format the options ask for: --json wins over --format, as it always has.
export const formatFrom = (view, opts) => chooseFormat(view, opts.json ? 'json' : opts.format);

// Colour for a table shown on a terminal that asked for it; never in a file or a pipe.
export const wantsColor = ({ color = true, out } = {}) => Boolean(color && !out && process.stdout.isTTY && !process.env.NO_COLOR);

// GitHub Actions shows this file on the run's summary page; appending is what it expects. The summary
// is a courtesy: what cannot take it (a FIFO with no reader, a device, a folder, a full disk) costs
// one warning on stderr, never a hang or the command's exit code (a gate's verdict is that).
export async function appendStepSummary(markdown) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  const skipped = (why) => process.stderr.write(`warning: the step summary was skipped ($GITHUB_STEP_SUMMARY): ${why}\n`);
  const notRegular = (kind) => skipped(`${file} is ${kind}, not a regular file; point it at a file.`);
  // Not even opened when it is no regular file: opening some devices does something.
  const existing = await fs.stat(file).catch(() => null);
  if (existing && !existing.isFile()) return notRegular(kindOf(existing));
  let handle;
  try {
    // Non-blocking, so a FIFO with no reader fails at once (ENXIO) instead of waiting for one; what
    // was opened is checked before a byte is written, as the path may have changed since any stat.
    const { O_WRONLY, O_APPEND, O_CREAT, O_NONBLOCK } = fsSync.constants;
    handle = await fs.open(file, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, 0o666);
    const stat = await handle.stat();
    if (!stat.isFile()) return notRegular(kindOf(stat));
    await handle.writeFile(markdown);
  } catch (err) {
    const notFile = err.code === 'ENXIO' || err.code === 'EISDIR' ? await fs.stat(file).then(kindOf, () => null) : null;
    if (notFile) return notRegular(notFile);
    skipped((await describeWriteFailure(err, file)) || `${file} could not be written (${err.code || err.message}); point it at a writable file.`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

// render: from chooseFormat. out: the --out path, or nothing for stdout. summary: Markdown for
// $GITHUB_STEP_SUMMARY (written when that is set).
export async function emit(render, document, { out, options = {}, summary } = {}) {
  const text = render(document, options);
  if (out) {
    await writeOutput(out, text);
    process.stderr.write(`wrote ${out}\n`);
  } else {
    process.stdout.write(text);
  }
  if (summary !== undefined) await appendStepSummary(typeof summary === 'function' ? summary(document) : summary);
}
