// The history store: a folder any CI can keep (a cache, an artifact, a branch) and no server.
//   DIR/nodebench-history.json   marks the folder as a store (format version)
//   DIR/results/<id>.json.br     each result file as it was added, brotli-compressed (the evidence)
//   DIR/index/<id>.json          what `history show` and `check` read of it (entry.js)
// <id> is the start of the file's sha256, so adding the same file twice is a no-op. One file per
// result rather than one index file: an add writes two new files and rewrites nothing, which keeps
// a store in a git branch append-only and makes a crash leave nothing half-changed. Why not an
// embedded database: SQLite would need a native module (or node:sqlite, which Node 20 lacks), a
// binary file that a git branch or an artifact diff cannot show, and its own locking; the index
// of 200 runs of 150 cells reads in well under a second as JSON (docs/history.md).
//
// Writers take the store's lock (results/lock.js; a second `history add` waits for the first) and
// write every file by rename (fs-atomic.js), the result before its index entry: a writer killed at
// any point leaves the store as it was, or with a result that has no entry yet (invisible, and
// written again by the next add of that file). Readers take no lock: they see whole entries only.
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import { compose, Transform } from 'node:stream';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import chain from 'stream-chain';
import { readResult, parseResult, streamReadBytes, tooDeep, MAX_NESTING } from '../results/read.js';
import { lockResultFile, lockFileProblem, processAlive, readHolder } from '../results/lock.js';
import { writeFileAtomic, describeWriteFailure, openRegularFile, readRegularFile } from '../fs-atomic.js';
import { UserError, isUserError } from '../errors.js';
import { ENTRY_VERSION, entryFrom, canonicalJson, describeHost, hostFingerprint } from './entry.js';
import { hostInfo } from '../results/host.js';

export const DEFAULT_STORE = path.join('results', 'history');
export const STORE_FORMAT = 1;
const MARKER = 'nodebench-history.json';
const LOCK_NAME = 'store';
const LOCK_WAIT_MS = 60_000;

// Quality 5 of 11: a 150-cell file of 1.88 MB becomes 175 KB in under 0.1 s; quality 11 saves
// another quarter in 4 s, gzip -9 is 64% larger (docs/history.md).
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

const resultPath = (dir, id) => path.join(dir, 'results', `${id}.json.br`);
const entryPath = (dir, id) => path.join(dir, 'index', `${id}.json`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Every file of a store is read as a regular file only (fs-atomic.js openRegularFile): a FIFO put
// in a store made show and add wait for ever, add with the lock held, and a link to /dev/zero read
// until V8's longest string. A file too large to be what nodebench wrote is named the same way.
const TOO_LARGE = new Set(['ERR_FS_FILE_TOO_LARGE', 'ERR_STRING_TOO_LONG']);
const notWritten = (err) => (err.code === 'ENOTREGULAR' ? err.kind : TOO_LARGE.has(err.code) ? 'too large' : null);

async function readMarker(dir) {
  const file = path.join(dir, MARKER);
  try {
    return JSON.parse(await readRegularFile(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    if (err instanceof SyntaxError) throw new UserError(`${file} is damaged (not JSON); restore the history store from its copy, or start another --store.`);
    if (notWritten(err)) throw new UserError(`${file} is ${notWritten(err)}, not the marker nodebench writes in a history store; restore the store from its copy, or give --store another folder.`);
    throw err;
  }
}

function checkMarker(marker, dir) {
  if (marker?.format !== 'nodebench-history' || !Number.isInteger(marker.version)) {
    throw new UserError(`${path.join(dir, MARKER)} does not describe a nodebench history store; give --store a store's folder, or a new or empty one.`);
  }
  if (marker.version > STORE_FORMAT) throw new UserError(`The history store ${dir} has format ${marker.version}, newer than this nodebench understands (${STORE_FORMAT}); upgrade nodebench.`);
}

// Creates the store on first use; refuses a folder that holds other things (a typo in --store must
// not scatter files into, say, results/). Called with the store's lock held, so that two first
// adds do not race: the lock file and a killed writer's temporary files are not "other things".
async function initStore(dir) {
  const marker = await readMarker(dir);
  if (marker) return checkMarker(marker, dir);
  const present = (await fs.readdir(dir)).filter((name) => !name.startsWith('.') && name !== `${LOCK_NAME}.lock` && !name.endsWith('.tmp'));
  if (present.length) throw new UserError(`${dir} is not a nodebench history store and is not empty (it has ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}); give --store a new or empty folder.`);
  await writeFileAtomic(path.join(dir, MARKER), `${JSON.stringify({ format: 'nodebench-history', version: STORE_FORMAT }, null, 1)}\n`);
}

// Runs fn with the store created (if new), its lock held, and what killed writers left removed.
async function whileLocked(dir, fn) {
  try {
    await fs.mkdir(dir, { recursive: true });
    fsSync.accessSync(dir, fsSync.constants.W_OK);
  } catch (err) {
    throw new UserError(`Cannot write the history store ${dir} (${err.code}); choose another --store or fix its permissions.`);
  }
  const release = await lockStore(dir);
  try {
    await initStore(dir);
    await removeLeftovers(dir);
    return await fn();
  } finally {
    release();
  }
}

// The store's lock; while another live writer holds it, wait (adds take well under a second each).
// A lock whose writer is gone, or an empty one left by a writer killed while taking it, is taken
// over (results/lock.js); a lock that cannot be written at all (a full disk, a read-only folder) is
// a sentence at once, never a wait on a lock nobody holds.
async function lockStore(dir) {
  const lockBase = path.join(dir, LOCK_NAME);
  const lock = `${lockBase}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return lockResultFile(lockBase);
    } catch (err) {
      if (!isUserError(err)) throw err;
      if (err.cause) {
        const sentence = await describeWriteFailure(err.cause, lock);
        throw new UserError(sentence ?? `Cannot lock the history store ${dir}: writing ${lock} failed (${err.cause.code}); check the folder and its disk.`, { cause: err.cause });
      }
      const problem = lockFileProblem(lock);
      if (problem) throw new UserError(problem);
      const holder = readHolder(lock);
      // Gone: its writer released it between the attempt and this look (two adds at once on this
      // 2-core VM hit that window, 2026-11-28). Try again at once; a lock that cannot be written
      // fails above with its cause.
      if (!holder && !fsSync.existsSync(lock) && Date.now() <= deadline) continue;
      if (Date.now() > deadline) {
        throw new UserError(holder && processAlive(holder)
          ? `The history store ${dir} has been locked by another nodebench (pid ${holder.pid}) for ${LOCK_WAIT_MS / 1000} s; wait for it, or remove ${lock} if no nodebench is running.`
          : `Cannot take the lock ${lock} of the history store ${dir} within ${LOCK_WAIT_MS / 1000} s: other nodebench processes keep taking it; run one history add at a time.`);
      }
    }
    await sleep(50 + Math.random() * 100);
  }
}

// Temporary files of a writer killed mid-write (fs-atomic.js names them <file>.<pid>.<n>.tmp).
async function removeLeftovers(dir) {
  for (const sub of ['.', 'results', 'index']) {
    const names = await fs.readdir(path.join(dir, sub)).catch(() => []);
    await Promise.all(names.filter((n) => n.endsWith('.tmp')).map((n) => fs.rm(path.join(dir, sub, n), { force: true })));
  }
}

// An index entry is two lines of JSON: the run (id, host, runtimes, suites, ...), then its cells.
// `history add` needs only the first line of every entry to check what a new result would mix.
function entryText(entry) {
  const { cells, ...head } = entry;
  return `${JSON.stringify(head)}\n${JSON.stringify(cells)}\n`;
}

async function readEntryFile(dir, name, { cells = true } = {}) {
  const file = path.join(dir, 'index', name);
  const again = 'delete it and add its result file again';
  let text;
  try {
    text = await readRegularFile(file, 'utf8');
  } catch (err) {
    if (notWritten(err)) throw new UserError(`History index entry ${file} is ${notWritten(err)}, not a file nodebench wrote; ${again}.`);
    throw err;
  }
  const newline = text.indexOf('\n');
  let entry;
  try {
    entry = JSON.parse(text.slice(0, newline));
    if (cells) entry.cells = JSON.parse(text.slice(newline + 1));
  } catch (err) {
    throw new UserError(`History index entry ${file} is damaged (${err.message}); ${again}.`);
  }
  // Its parameters are compared as canonical JSON, a recursion that a crafted depth overflows.
  const deep = tooDeep(entry);
  if (deep) throw new UserError(`History index entry ${file} nests its values more than ${MAX_NESTING} deep (at ${deep}); ${again}.`);
  if (!entry || typeof entry !== 'object' || typeof entry.id !== 'string' || !Array.isArray(entry.hosts) || (cells && !Array.isArray(entry.cells))) {
    throw new UserError(`History index entry ${file} is not a nodebench index entry; delete it and add its result file again.`);
  }
  if (entry.entryVersion > ENTRY_VERSION) throw new UserError(`History index entry ${file} was written by a newer nodebench (entry version ${entry.entryVersion}); upgrade nodebench.`);
  if (entry.entryVersion < ENTRY_VERSION) return rebuildEntry(dir, entry);
  return entry;
}

// An entry of an older format, made again from the result file it came from.
async function rebuildEntry(dir, entry) {
  const stored = await readStoredResult(dir, entry.id);
  const { id, label, commit, addedAt, batch, source, schemaVersion } = entry;
  return entryFrom(stored, { id, label, commit, addedAt, batch, source, schemaVersion });
}

// The result file kept for `id`, migrated to the current schema. One whose text is longer than
// results/read.js parses in one piece (V8's longest string) is decompressed to a temporary file and
// read as a stream there, as report and diff read such a file.
export async function readStoredResult(dir, id) {
  const file = resultPath(dir, id);
  const chunks = [];
  let size = 0;
  let spilled = null;
  try {
    const handle = await openRegularFile(file);
    for await (const chunk of compose(handle.createReadStream(), zlib.createBrotliDecompress())) {
      size += chunk.length;
      if (!spilled && size > streamReadBytes()) {
        spilled = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'nodebench-stored-')), `${id}.json`);
        await fs.writeFile(spilled, Buffer.concat(chunks));
        chunks.length = 0;
      }
      if (spilled) await fs.appendFile(spilled, chunk);
      else chunks.push(chunk);
    }
  } catch (err) {
    if (spilled) await fs.rm(path.dirname(spilled), { recursive: true, force: true });
    if (err.code === 'ENOENT') throw new UserError(`The history store ${dir} has an index entry ${id} without its result file ${file}; delete ${entryPath(dir, id)} and add the result again.`);
    if (err.code === 'ENOTREGULAR') throw new UserError(`The stored result ${file} is ${err.kind}, not a file nodebench wrote; delete it and ${entryPath(dir, id)}, and add the result again.`);
    throw new UserError(`The stored result ${file} is damaged (${err.code || err.message}); delete it and ${entryPath(dir, id)}, and add the result again.`);
  }
  if (!spilled) return parseResult(Buffer.concat(chunks).toString('utf8'), file);
  try {
    return await readResult(spilled);
  } catch (err) {
    // Named as the stored file, not the temporary copy.
    throw isUserError(err) ? new UserError(err.message.replaceAll(spilled, file)) : err;
  } finally {
    await fs.rm(path.dirname(spilled), { recursive: true, force: true });
  }
}

// Every entry in the store, oldest run first (without their cells when cells is false). A missing
// store is an error with the command that makes one.
export async function readStore(dir, { cells = true } = {}) {
  const marker = await readMarker(dir).catch((err) => {
    if (err.code === 'ENOTDIR') throw new UserError(`${dir} is a file, not a history store; give --store the store's folder.`);
    throw err;
  });
  if (!marker) throw new UserError(`There is no history store at ${dir}; add result files first: nodebench history add RESULT.json --store ${dir}`);
  checkMarker(marker, dir);
  const names = (await fs.readdir(path.join(dir, 'index')).catch(() => [])).filter((n) => n.endsWith('.json'));
  const entries = await Promise.all(names.map((name) => readEntryFile(dir, name, { cells })));
  return entries.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.addedAt < b.addedAt ? -1 : a.addedAt > b.addedAt ? 1 : 0));
}

const suiteParams = (entry) => new Map(entry.suites.map((s) => [s.name, canonicalJson(s.params)]));

// Runs that were timed (an entry of before measures existed was); a count is the same on any host.
const timed = (entries) => entries.filter((e) => e.measure !== 'instructions');

// What an added result would mix silently with the store: another host (for time), or a suite run
// with other parameters. Returns a sentence, or null.
function mixing(entry, existing, { allowOtherHost, allowOtherParams, file, dir }) {
  if (!existing.length) return null;
  if (!allowOtherHost && timed([entry]).length && timed(existing).length) {
    const known = new Set(timed(existing).flatMap((e) => e.hosts.map((h) => h.id)));
    const other = entry.hosts.find((h) => !known.has(h.id));
    if (other) {
      const theirs = timed(existing).flatMap((e) => e.hosts).find((h) => h.id !== other.id);
      return `${file} was measured on another host (${describeHost(other)}) than the runs in ${dir} (${describeHost(theirs)}); use another --store, or pass --allow-other-host to keep both (a time series never mixes hosts; counts of --measure instructions may come from any).`;
    }
  }
  if (!allowOtherParams) {
    for (const [suite, params] of suiteParams(entry)) {
      const seen = existing.map((e) => suiteParams(e).get(suite)).filter((p) => p !== undefined);
      if (seen.length && !seen.includes(params)) {
        return `${file} ran suite ${suite} with parameters ${params} but the runs in ${dir} used ${seen[seen.length - 1]}; use another --store, or pass --allow-other-params to keep both (a series never mixes parameters).`;
      }
    }
  }
  return null;
}

// Before a matrix run with --history: the store can be written and holds this machine's runs (or
// none yet, or counts only), so that the finished result will not be refused after hours of
// measuring. measure: the run's; a count is refused for no host.
export async function checkStoreForRun(dir, { measure = 'time' } = {}) {
  const here = hostFingerprint(hostInfo());
  const hosts = timed(await whileLocked(dir, () => readStore(dir, { cells: false }))).flatMap((e) => e.hosts);
  if (measure !== 'instructions' && hosts.length && !hosts.some((h) => h.id === here.id)) {
    throw new UserError(`The history store ${dir} holds runs of another host (${describeHost(hosts[0])}), not of this one (${describeHost(here)}); leave out --history, then add the result with nodebench history add --allow-other-host if you mean to.`);
  }
}

// The schemaVersion the file was written with (readResult gives it migrated), read as a stream up
// to that key: the file may be larger than any string.
async function writtenSchemaVersion(file) {
  const source = (await openRegularFile(file)).createReadStream();
  const values = chain([source, parser(), pick({ filter: 'schemaVersion' }), streamValues()]);
  try {
    for await (const { value } of values) return value;
    return undefined;
  } finally {
    source.destroy();
    values.destroy();
  }
}

const idOf = (hash) => hash.digest('hex').slice(0, 16);

async function fileId(file) {
  const hash = crypto.createHash('sha256');
  for await (const chunk of (await openRegularFile(file)).createReadStream()) hash.update(chunk);
  return idOf(hash);
}

// The file brotli-compressed as a stream (a result may be larger than V8's longest string, and
// report, diff and merge read such files too), with the id of the bytes that went in.
async function compressedCopy(file) {
  const hash = crypto.createHash('sha256');
  const hashing = new Transform({
    transform(chunk, encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    }
  });
  return { stream: compose((await openRegularFile(file)).createReadStream(), hashing, zlib.createBrotliCompress(BROTLI)), id: () => idOf(hash) };
}

// files: result files to add, in order. Every file is read and checked before anything is
// written, so a damaged or refused file adds nothing. Returns [{ file, id, added, entry }].
export async function addToStore(dir, files, { label, commit, allowOtherHost = false, allowOtherParams = false, now } = {}) {
  const prepared = [];
  for (const file of files) {
    // readResult streams a large file and says in a sentence when it needs more memory than Node has.
    const result = await readResult(file);
    if (result.status !== 'complete') {
      throw new UserError(`${file} is an unfinished run (status ${result.status}); complete it with its matrix command plus --resume ${file}, then add it.`);
    }
    prepared.push({ file, result, id: await fileId(file), schemaVersion: await writtenSchemaVersion(file) });
  }
  return whileLocked(dir, async () => {
    const existing = await readStore(dir, { cells: false });
    const known = new Set(existing.map((e) => e.id));
    // Taken under the lock, so that the order of adds is the order of their batches.
    const addedAt = (now ?? new Date()).toISOString();
    const batch = `${addedAt}/${crypto.randomBytes(4).toString('hex')}`;
    const outcomes = prepared.map(({ file, result, id, schemaVersion }) => {
      if (known.has(id)) return { file, id, added: false, entry: existing.find((e) => e.id === id) };
      known.add(id);
      const entry = entryFrom(result, { id, label: label ?? null, commit: commit ?? null, addedAt, batch, source: path.basename(file), schemaVersion });
      const problem = mixing(entry, existing, { allowOtherHost, allowOtherParams, file, dir });
      if (problem) throw new UserError(problem);
      existing.push(entry);
      return { file, id, added: true, entry };
    });
    for (const outcome of outcomes) {
      if (!outcome.added) continue;
      const copy = await compressedCopy(outcome.file);
      await writeFileAtomic(resultPath(dir, outcome.id), copy.stream);
      // The evidence must be the bytes that were checked: a file rewritten meanwhile is not added.
      if (copy.id() !== outcome.id) {
        await fs.rm(resultPath(dir, outcome.id), { force: true });
        throw new UserError(`${outcome.file} changed while it was being added; add it again once nothing writes it.`);
      }
      await writeFileAtomic(entryPath(dir, outcome.id), entryText(outcome.entry));
    }
    return outcomes;
  });
}

// The files `history add` and `matrix --history` keep, said on stderr.
export async function addAndSay(store, files, options) {
  const outcomes = await addToStore(store, files, options);
  for (const o of outcomes) {
    process.stderr.write(o.added ? `added ${o.file} to ${store} as ${o.id} (${o.entry.cells.filter((c) => c.status === 'ok').length} ok cells)\n` : `${o.file} is already in ${store} (as ${o.id}); not added again\n`);
  }
  return outcomes;
}
