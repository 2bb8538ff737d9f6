// Progress on stderr: a live line on a terminal, plain lines in CI or when stderr is a file.
// Data never goes here; it goes to stdout. Names and errors come from suites and result files:
// their control characters are shown escaped, never sent to the terminal.
import { formatSeconds, displayName } from './text/format.js';
import { terminalText } from './text/escape.js';
import { benchmarkName } from './cell-identity.js';

// clock: for tests, the time in ms.
export function createProgress({ stream = process.stderr, live = stream.isTTY && !process.env.CI, quiet = false, clock = Date.now } = {}) {
  const started = clock();
  // The time left is estimated from the processes of this run alone: the clock for it starts with
  // the first process, not with the installs and suite loading before it (counted in, they made the
  // first line say ~3h for a 19-minute run), and processes a resumed run found done are no part of it.
  let measuring = null;
  let lastLength = 0;
  let lastPlain = 0;
  let saidAllDone = false;
  const clear = () => {
    if (live && lastLength) stream.write(`\r${' '.repeat(lastLength)}\r`);
    lastLength = 0;
  };
  return {
    log(message) {
      if (quiet) return;
      clear();
      stream.write(`${terminalText(message, { keepNewlines: true })}\n`);
    },
    // budgetEndsAt: when the run's time budget ends (epoch ms), if it has one. left: { ms, atLeast },
    // the time the run loop expects the rest to take, replacements and top-ups included
    // (policy/policy.js timeLeft); without it, the processes counted so far at the mean time of
    // those run. No time left until a process of this run has finished (its costs are unknown).
    update({ done, total, cell, starting, outcome, budgetEndsAt, left: expected }) {
      if (quiet) return;
      const now = clock();
      // A process that finishes before any was seen starting ran since the progress began.
      measuring ??= starting ? { since: now, done } : { since: started, done: 0 };
      const elapsed = (now - started) / 1000;
      const finished = done - measuring.done;
      const eta = finished <= 0 ? NaN : expected ? expected.ms / 1000 : (((now - measuring.since) / 1000) / finished) * (total - done);
      const left = Number.isFinite(eta) ? `, ${expected?.atLeast ? 'at least ' : ''}~${formatSeconds(eta)} left` : '';
      const what = [cell.runtimeLabel, cell.flagSet, benchmarkName(cell)].map((name) => displayName(name)).join(' ');
      const budget = budgetEndsAt ? `; time budget ends in ${formatSeconds(Math.max(0, (budgetEndsAt - now) / 1000))}` : '';
      const line = `[${done}/${total}] ${terminalText(what)}  (${formatSeconds(elapsed)} elapsed${left}${budget})`;
      if (live) {
        const text = line.slice(0, (stream.columns || 120) - 1);
        stream.write(`\r${text}${' '.repeat(Math.max(0, lastLength - text.length))}`);
        lastLength = text.length;
        return;
      }
      // Plain mode: every finished cell that did not go well, and a heartbeat at most every 10 s; and
      // a process that starts after a line that said all were done (a replacement or top-up joined:
      // "[17/17] ~0s left" once stood for the 40 s of one more process).
      if (starting) {
        if (saidAllDone) {
          saidAllDone = false;
          stream.write(`${line}\n`);
        }
        return;
      }
      const bad = outcome && outcome.status !== 'ok';
      if (bad || Date.now() - lastPlain > 10_000 || done === total) {
        lastPlain = Date.now();
        saidAllDone = done === total;
        stream.write(`${line}${bad ? terminalText(`: ${outcome.status}: ${outcome.error}`) : ''}\n`);
      }
    },
    done() {
      clear();
    }
  };
}
