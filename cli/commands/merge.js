// nodebench merge: one result file from the shards of a fanned-out run.
import path from 'node:path';
import { readResult, writeResult } from '../results/file.js';
import { mergeResults } from '../results/merge.js';

export function register(program) {
  program.command('merge')
    .description('join the result files of a sharded run (matrix --shard i/n on several runners) into one')
    .argument('<files...>', 'shard result files')
    .requiredOption('--out <file>', 'merged result file')
    .option('--allow-partial', 'merge even if some shards of the run are missing, or the files are not shards')
    .action(async (files, opts) => {
      const results = [];
      for (const file of files) results.push(await readResult(file));
      const merged = mergeResults(results, files, { allowPartial: Boolean(opts.allowPartial) });
      await writeResult(path.resolve(opts.out), merged);
      process.stderr.write(`merged ${files.length} files, ${merged.cells.length} cells, into ${opts.out}\n`);
    });
}
