// nodebench flags' output formats, each a function of (document) -> text, as every view has them
// (output/emit.js): a listing is { runtime, flags }, a comparison { from, to, diff }. The JSON names
// a runtime by its version and V8 alone.
import { renderListing, renderFlagsDiff } from './table.js';
import { renderJson } from '../render/json.js';

const runtimeJson = (runtime) => ({ version: runtime.version, v8: runtime.v8 });

export const FLAGS_FORMATS = {
  table: renderListing,
  json: ({ runtime, flags }) => renderJson({ ...runtimeJson(runtime), flags })
};

export const FLAGS_DIFF_FORMATS = {
  table: renderFlagsDiff,
  json: ({ from, to, diff }) => renderJson({ from: runtimeJson(from), to: runtimeJson(to), ...diff })
};
