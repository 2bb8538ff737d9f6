// explain's JSON format: the document itself, for tools.
import { renderJson } from '../render/json.js';

export const renderExplainJson = (doc) => renderJson(doc);
