// nodebench diff's output formats, each a function of (document, options) -> text. The document is
// { rows (diff/compare.js), context: { fileA, fileB, resultA, resultB, failures, limit, gate } }
// and the confirmation's lines to print under the summary (`extra`).
import { renderDiffTable } from './table.js';
import { renderDiffMarkdown } from './markdown.js';
import { renderDiffPage } from './html.js';
import { diffJson } from './compare.js';
import { renderJson } from '../render/json.js';

const confirmationLines = (context) => context.gate?.confirm?.lines || [];

export const DIFF_FORMATS = {
  table: ({ rows, context }, { color = false } = {}) => renderDiffTable(rows, { color, extra: confirmationLines(context) }),
  markdown: ({ rows, context }) => renderDiffMarkdown(rows, context),
  json: ({ rows, context }) => renderJson(diffJson(rows, context)),
  html: ({ rows, context }) => renderDiffPage(rows, context)
};
