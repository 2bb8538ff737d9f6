// explain's JSON format: the document itself, for tools.
export function renderExplainJson(doc) {
  return `${JSON.stringify(doc, null, 1)}\n`;
}
