// history's output formats, each a function of (document, options) -> text (output/emit.js).
// history show's document is the analysis (analysis.js), its options { store }; output/emit.js
// still takes text and md, the names history show first gave table and markdown.
import { renderText, renderCheckText } from './table.js';
import { renderMarkdown } from './markdown.js';
import { renderJson } from './json.js';
import { renderCsv } from './csv.js';
import { renderHistoryHtml } from './html.js';

export const HISTORY_FORMATS = {
  table: (analysis, ctx) => renderText(analysis, ctx),
  markdown: (analysis, ctx) => renderMarkdown(analysis, ctx),
  html: (analysis, ctx) => renderHistoryHtml(analysis, { ...ctx, text: renderText(analysis, ctx) }),
  json: (analysis, ctx) => renderJson(analysis, ctx),
  csv: (analysis) => renderCsv(analysis)
};

// history check's document: { analysis, store }; its Markdown (the job summary's) is the change
// points without the series (history show --format markdown or html has them).
export const HISTORY_CHECK_FORMATS = {
  table: ({ analysis, store }) => renderCheckText(analysis, { store }),
  markdown: ({ analysis, store }) => renderMarkdown(analysis, { store, series: false })
};
