// test/fixtures/planted-result.json (a real run: "quicker" decided 19x faster, "slower" 0.05x, "steady"
// undecided) and results built from it, for the tests of the views.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './cli.js';

export const plantedFile = path.join(root, 'test', 'fixtures', 'planted-result.json');
export const readPlanted = () => JSON.parse(fs.readFileSync(plantedFile, 'utf8'));

// Issue 39, item 1: sorted by size alone, a run of many large speed-ups showed only those, and its
// slowdowns (smaller) were among "… and 46 more decided". Thirty copies of the 19x speed-up and
// three of a slowdown made 0.53x (its processes' times cut to a tenth).
export function manySpeedUps(planted = readPlanted()) {
  const cells = [];
  for (let copy = 0; copy < 30; copy++) {
    for (const cell of planted.cells) {
      if (cell.benchmark === 'slower' && copy >= 3) continue;
      const moved = cell.benchmark === 'slower' && cell.flagSet !== 'baseline';
      const processes = moved ? cell.processes.map((p) => ({ ...p, samplesNsPerOp: p.samplesNsPerOp.map((x) => x * 0.1) })) : cell.processes;
      cells.push({ ...cell, id: cells.length, benchmark: `${cell.benchmark}-${copy}`, processes });
    }
  }
  return { ...planted, cells };
}
