// nodebench explain's output formats, each a function of (document, options) -> text; the command
// and output/emit.js choose one and send it on, as for report, diff and history.
import { renderExplainTerminal } from './terminal.js';
import { renderExplainMarkdown } from './markdown.js';
import { renderExplainHtml } from './html.js';
import { renderExplainJson } from './json.js';

export const EXPLAIN_FORMATS = { table: renderExplainTerminal, markdown: renderExplainMarkdown, html: renderExplainHtml, json: renderExplainJson };
