// history show's output formats, each a function of (analysis, { store }) -> text (analysis.js
// makes the analysis). Named as history show first named them; output/emit.js takes table and
// markdown for text and md as everywhere.
import { renderText, renderMarkdown, renderJson, renderCsv } from './render.js';
import { renderHistoryHtml } from './html.js';

export const HISTORY_FORMATS = {
  text: (analysis, ctx) => renderText(analysis, ctx),
  md: (analysis, ctx) => renderMarkdown(analysis, ctx),
  html: (analysis, ctx) => renderHistoryHtml(analysis, { ...ctx, text: renderText(analysis, ctx) }),
  json: (analysis, ctx) => renderJson(analysis, ctx),
  csv: (analysis) => renderCsv(analysis)
};
