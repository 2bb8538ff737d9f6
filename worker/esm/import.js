'use strict';
// minNode 12.17.0: import() is a syntax error before Node 10 and "Not supported" in CommonJS before
// 12.17 (13.2 on 13.x), so suite-loader requires this file only after capabilities.esmImportProblem()
// says yes. test/node4-compat.test.js parses it with the runtime named on the line above instead.
module.exports = function importUrl(url) {
  return import(url);
};
