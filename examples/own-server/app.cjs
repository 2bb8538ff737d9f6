'use strict';
// A team's own HTTP app (the part nodebench does not know about): a small orders API on the `http`
// module. POST /orders {"items": [{"sku", "qty", "price"}]} stores an order with its total and
// answers it; GET /orders/<id> answers a stored one. Written for Node 4 and newer.
function json(res, status, body) {
  var text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function priceOrder(items) {
  var total = 0;
  for (var i = 0; i < items.length; i++) {
    var item = items[i];
    if (typeof item.qty !== 'number' || typeof item.price !== 'number') throw new Error('each item needs a numeric qty and price');
    total += Math.round(item.qty * item.price * 100);
  }
  return total / 100;
}

// handle(method, url, bodyText) -> { status, body }: the request path without the network, which
// the HTTP handler below and nodebench's in-process check both use.
function createApp() {
  var orders = {};
  var nextId = 1;
  function handle(method, url, bodyText) {
    if (method === 'POST' && url === '/orders') {
      var order;
      try {
        order = JSON.parse(bodyText);
      } catch (err) {
        return { status: 400, body: { error: 'body is not JSON' } };
      }
      if (!order || !Array.isArray(order.items)) return { status: 400, body: { error: 'items must be a list' } };
      try {
        var stored = { id: nextId++, items: order.items, total: priceOrder(order.items) };
        orders[stored.id] = stored;
        return { status: 201, body: stored };
      } catch (err) {
        return { status: 400, body: { error: err.message } };
      }
    }
    var match = /^\/orders\/(\d+)$/.exec(url);
    if (method === 'GET' && match) {
      var found = orders[match[1]];
      return found ? { status: 200, body: found } : { status: 404, body: { error: 'no such order' } };
    }
    return { status: 404, body: { error: 'not found' } };
  }
  function handler(req, res) {
    var chunks = [];
    req.on('data', function (chunk) { chunks.push(chunk); });
    req.on('end', function () {
      var answer = handle(req.method, req.url, Buffer.concat(chunks).toString('utf8'));
      json(res, answer.status, answer.body);
    });
  }
  return { handle: handle, handler: handler };
}

module.exports = { createApp: createApp };
