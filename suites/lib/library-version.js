'use strict';
// The installed version of a library a suite benchmarks, for the result file; null when the
// library is missing, so that a suite still loads and says so instead of crashing.
module.exports = function libraryVersion(name) {
  try {
    return require(name + '/package.json').version;
  } catch (err) {
    return null;
  }
};
