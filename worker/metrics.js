'use strict';
// Memory figures read after sampling, outside the timed batches. Each value says how it was read,
// because not every runtime has every source (resourceUsage needs Node 12.6).
var fs = require('fs');

function peakRssBytes() {
  if (typeof process.resourceUsage === 'function') {
    return { bytes: process.resourceUsage().maxRSS * 1024, method: 'process.resourceUsage().maxRSS' };
  }
  try {
    var match = /VmHWM:\s+(\d+)\s+kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (match) return { bytes: Number(match[1]) * 1024, method: '/proc/self/status VmHWM' };
  } catch (err) {
    // Not Linux: fall through to "not available".
  }
  return { bytes: null, method: 'n/a: no resourceUsage (Node < 12.6) and no /proc' };
}

function memory() {
  var usage = process.memoryUsage();
  var peak = peakRssBytes();
  return {
    rssBytes: usage.rss,
    heapUsedBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    peakRssBytes: peak.bytes,
    peakRssMethod: peak.method
  };
}

module.exports = { memory: memory, peakRssBytes: peakRssBytes };
