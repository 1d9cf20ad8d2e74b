#!/usr/bin/env node
// docket's launcher of @vercel/cosmosdb-server (the Cosmos DB SQL API server for tests,
// pinned by package.json + package-lock.json beside this file), with docket's patch.
//
// Usage: node docket-cosmos-server.js --modules DIR --port PORT
//        (--cert PEM --key PEM | --no-tls) [--master-key BASE64] [--split-range-at N]
//        [--unpatched]
//   --modules  the node_modules folder `npm ci` installed the package into
//   --cert/--key  the TLS certificate and key to serve (the package's own expired in 2021)
//   --no-tls   plain HTTP instead
//   --master-key  the account's master key (base64) every request must be signed with;
//                 default: the Cosmos DB emulator's published key, which docket's test URL
//                 carries (scripts/cosmos-env.sh)
//   --split-range-at  split a partition key range holding more than N items when a query
//                 next names it (patch 5); 0, the default: never
//   --unpatched   serve the package as published, for showing that docket's patch test
//                 fails without the patch (docs/cosmos.md)
//
// The patch, applied here at start, in memory, to the installed package (never to its
// files), makes the server do what the service documents and the package does not:
//   1. A transactional batch is all or nothing. The package runs a batch's operations one
//      by one and keeps those that succeeded before a failing one. Patched, every change
//      the batch made is undone when any operation fails, and the reply is the service's:
//      207 Multi-Status, the failing operation's own status, 424 (failed dependency) for
//      every other operation. Every operation must address the partition key of the
//      request's x-ms-documentdb-partitionkey header (400 otherwise), as on the service.
//   2. An item id is at most 1,023 bytes (UTF-8): a create, upsert or replace of a longer
//      one answers 400, alone or in a batch, and writes nothing.
//   3. A read of an item that does not exist answers 404, as on the service; the package
//      answers 500 (a TypeError in its partition check).
//   4. Every request must be signed with the master key (the service's master-key
//      authorization: base64 HMAC-SHA256, under the base64-decoded key, of
//      "lower(verb)\nlower(resource type)\nresource link\nlower(x-ms-date)\n\n"). A missing,
//      malformed or wrong signature, or a missing or unreadable date, answers 401
//      Unauthorized; a date more than 15 minutes off the server's clock answers 403
//      Forbidden; each with the service's {"code", "message"} body, nothing done. The
//      package checks no authorization at all.
//   5. Queries across partitions are served as the service's gateway serves them. A
//      container has 4 partition key ranges (GET .../pkranges lists them), each a quarter
//      of the key space: an item belongs to the range of the first two bytes of the
//      SHA-256 of its partition key value as JSON (a stable hash standing in for the
//      service's own). A query over every partition (x-ms-documentdb-query-enablecrosspartition)
//      with ORDER BY, GROUP BY, TOP, OFFSET, DISTINCT or an aggregate, and no partition key
//      or x-ms-documentdb-partitionkeyrangeid, answers 400 with x-ms-substatus 1004, which
//      the gateway answers a client that must fetch the query plan and query each range; a
//      query naming a range reads that range's items only; a range id that is not a
//      current range answers 410 Gone with x-ms-substatus 1002 (PartitionKeyRangeGone).
//      With --split-range-at N (default 0: never), a range holding more than N items when
//      a query names it splits in two (children with new ids naming it as their parent)
//      and that query answers 410/1002, as a query meets a split on the service.
// Node runs a request's handler to its first await without interleaving another request,
// and the patched batch does all its work after its one await (reading the body), so no
// other request sees a batch's intermediate state.
"use strict";

const crypto = require("crypto");
const path = require("path");

// The Cosmos DB emulator's published master key (not a secret): the default account key.
const kEmulatorKey =
  "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

function parseArguments(argv) {
  const args = { unpatched: false };
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i];
    if (name === "--unpatched") {
      args.unpatched = true;
    } else if (name === "--no-tls") {
      args.noTls = true;
    } else if (["--modules", "--port", "--cert", "--key", "--host", "--master-key",
                        "--split-range-at"].includes(name)) {
      if (i + 1 >= argv.length) throw new Error(`${name} needs a value`);
      args[name.slice(2)] = argv[(i += 1)];
    } else {
      throw new Error(`unknown argument '${name}'`);
    }
  }
  const required = args.noTls ? ["modules", "port"] : ["modules", "port", "cert", "key"];
  for (const name of required) {
    if (!args[name]) throw new Error(`--${name} is required`);
  }
  args.masterKey = args["master-key"] || kEmulatorKey;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(args.masterKey) || args.masterKey.length % 4 !== 0) {
    throw new Error("--master-key must be the account key in base64 (padded, + and / alphabet)");
  }
  args.splitAt = Number(args["split-range-at"] || 0);
  if (!Number.isInteger(args.splitAt) || args.splitAt < 0) {
    throw new Error("--split-range-at must be a whole number of items (0: never split)");
  }
  return args;
}

const args = parseArguments(process.argv.slice(2));
const lib = path.join(args.modules, "@vercel", "cosmosdb-server", "lib");
const load = name => require(path.join(lib, name));

const kMaxIdBytes = 1023;

// The 400 the service answers for an id over the limit, or null when the id fits.
function idTooLong(resourceBody) {
  if (!resourceBody || typeof resourceBody.id !== "string") return null;
  const bytes = Buffer.byteLength(resourceBody.id, "utf8");
  if (bytes <= kMaxIdBytes) return null;
  return {
    statusCode: 400,
    body: {
      code: "BadRequest",
      message: `The id is ${bytes} bytes; Cosmos DB allows at most ${kMaxIdBytes} bytes (UTF-8).`
    }
  };
}

function patchIdLength() {
  const operations = load("handler/_document-operations");
  for (const name of ["createOperation", "upsertOperation", "replaceOperation"]) {
    const original = operations[name];
    operations[name] = (collection, input) =>
      idTooLong(input && input.resourceBody) || original(collection, input);
  }
}

// Records every change to the Maps an Items instance keeps (its items and its unique-key
// index) until stop(), and can put each back as it was.
function recordChanges(items) {
  const undo = [];
  const maps = [items._data, items._index];
  const ridCount = items._ridCount;
  for (const map of maps) {
    map.set = function set(key, value) {
      const had = Map.prototype.has.call(map, key);
      const old = Map.prototype.get.call(map, key);
      undo.push(had ? () => Map.prototype.set.call(map, key, old)
                    : () => Map.prototype.delete.call(map, key));
      return Map.prototype.set.call(map, key, value);
    };
    map.delete = function del(key) {
      if (Map.prototype.has.call(map, key)) {
        const old = Map.prototype.get.call(map, key);
        undo.push(() => Map.prototype.set.call(map, key, old));
      }
      return Map.prototype.delete.call(map, key);
    };
  }
  return {
    stop() {
      for (const map of maps) {
        delete map.set;
        delete map.delete;
      }
    },
    rollBack() {
      for (let i = undo.length - 1; i >= 0; i -= 1) undo[i]();
      items._ridCount = ridCount;
    }
  };
}

// The partition key value a batch operation addresses: its item's for a write with a
// body, its own partitionKey for a read or delete.
function operationPartition(collection, input) {
  const { parsePartitionKey } = load("utils/get-partition-from-header");
  if (input.resourceBody && typeof input.resourceBody === "object") {
    return collection.documents._getPartition(input.resourceBody);
  }
  return input.partitionKey === undefined ? undefined : parsePartitionKey(input.partitionKey, input.id);
}

function patchMissingItemRead() {
  const read = load("handler/read-document");
  const getPartitionHeader = load("utils/get-partition-from-header").default;
  const { parsePartitionKey } = load("utils/get-partition-from-header");
  const original = read.default;
  read.default = (account, req, res, params) => {
    const collection = account.database(params.dbId).collection(params.collId);
    const header = getPartitionHeader(req);
    if (collection.read() && header && header !== "[{}]") {
      let partition;
      try {
        partition = parsePartitionKey(header, params.docId);
      } catch (err) {
        res.statusCode = 400;
        return { code: "BadRequest", message: err.message };
      }
      if (!collection.document(params.docId, partition).read()) {
        res.statusCode = 404;
        return { code: "NotFound", message: "Entity with the specified id does not exist in the system." };
      }
    }
    return original(account, req, res, params);
  };
}

function patchBatchAtomicity() {
  const batch = load("handler/batch-documents");
  const operations = load("handler/_document-operations");
  const json = load("json").default;
  const { parsePartitionKey } = load("utils/get-partition-from-header");
  const byType = {
    Create: operations.createOperation,
    Upsert: operations.upsertOperation,
    Read: operations.readOperation,
    Delete: operations.deleteOperation,
    Replace: operations.replaceOperation
  };
  batch.default = async (account, req, res, { dbId, collId }) => {
    const body = await json(req);
    // Everything below runs without an await: no other request interleaves.
    const collection = account.database(dbId).collection(collId);
    if (!collection.read()) {
      res.statusCode = 404;
      return {};
    }
    if (!Array.isArray(body)) {
      res.statusCode = 400;
      return { message: "Invalid request body" };
    }
    const header = req.headers["x-ms-documentdb-partitionkey"];
    if (!header) {
      res.statusCode = 400;
      return { message: "A transactional batch needs the x-ms-documentdb-partitionkey header." };
    }
    const batchPartition = parsePartitionKey(Array.isArray(header) ? header[0] : header, undefined);
    for (const input of body) {
      const run = input ? byType[input.operationType] : undefined;
      if (!run) {
        res.statusCode = 400;
        return { message: `Operation type '${input ? input.operationType : null}' is not supported in Batch.` };
      }
      if (operationPartition(collection, input) !== batchPartition) {
        res.statusCode = 400;
        return { message: "Every operation of a transactional batch must address the batch's partition key." };
      }
    }
    const recorder = recordChanges(collection.documents);
    const results = [];
    let failedAt = -1;
    try {
      for (let i = 0; i < body.length && failedAt < 0; i += 1) {
        const result = byType[body[i].operationType](collection, body[i]);
        results.push(result);
        if (result.statusCode >= 400) failedAt = i;
      }
    } catch (err) {
      recorder.stop();
      recorder.rollBack();
      throw err;
    }
    recorder.stop();
    if (failedAt >= 0) {
      recorder.rollBack();
      res.statusCode = 207;
      return body.map((_, i) =>
        i === failedAt
          ? { statusCode: results[i].statusCode, requestCharge: 0, resourceBody: results[i].body }
          : { statusCode: 424, requestCharge: 0 });
    }
    return results.map(result => ({
      statusCode: result.statusCode,
      requestCharge: 1,
      eTag: result.body ? result.body._etag : undefined,
      resourceBody: result.body
    }));
  };
}

// How far x-ms-date may be from the server's clock, either way (the service's 15 minutes).
const kMaxClockSkewMs = 15 * 60 * 1000;

// The resource type and resource link a request's signature covers, from its path as the
// service derives them: ".../{type}/{id}" addresses a resource (type, the whole path),
// ".../{type}" a feed of its parent (type, the parent's path); ids percent-decoded.
function signedResource(url) {
  const segments = url.split("?")[0].split("/").filter(segment => segment !== "").map(decodeURIComponent);
  if (segments.length === 0) return { type: "", link: "" };
  if (segments.length % 2 === 0) {
    return { type: segments[segments.length - 2], link: segments.join("/") };
  }
  return { type: segments[segments.length - 1], link: segments.slice(0, -1).join("/") };
}

// The refusal the service answers for `req`'s authorization, or null when it is signed
// with `key` (the decoded master key) at a date within the allowed skew.
function authorizationRefusal(req, key) {
  const unauthorized = message => ({ statusCode: 401, body: { code: "Unauthorized", message } });
  const date = req.headers["x-ms-date"] || req.headers.date;
  if (!date) {
    return unauthorized("Authorization token mandates Date header. Please pass in RFC 1123 style date format.");
  }
  const at = Date.parse(date);
  if (Number.isNaN(at)) {
    return unauthorized("The input date header is invalid format. Please pass in RFC 1123 style date format.");
  }
  let token;
  try {
    token = new URLSearchParams(decodeURIComponent(req.headers.authorization || ""));
  } catch (err) {
    token = new URLSearchParams("");
  }
  if (token.get("type") !== "master" || token.get("ver") !== "1.0" || !token.get("sig")) {
    return unauthorized("Required Header authorization is missing, or is not a master key token " +
                        "(type=master&ver=1.0&sig=...). Ensure a valid Authorization token is passed.");
  }
  const { type, link } = signedResource(req.url);
  const payload = `${req.method.toLowerCase()}\n${type.toLowerCase()}\n${link}\n${date.toLowerCase()}\n\n`;
  const expected = crypto.createHmac("sha256", key).update(payload, "utf8").digest();
  // URLSearchParams reads '+' as a space; a base64 signature has no spaces.
  const given = Buffer.from(token.get("sig").replace(/ /g, "+"), "base64");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return unauthorized(
      "The input authorization token can't serve the request. The wrong key is being used or " +
      "the expected payload is not built as per the protocol. Server used the following " +
      `payload to sign: '${payload.replace(/\n/g, "\\n")}'`);
  }
  const now = Date.now();
  if (Math.abs(now - at) > kMaxClockSkewMs) {
    const text = ms => new Date(ms).toUTCString();
    return {
      statusCode: 403,
      body: {
        code: "Forbidden",
        message: "The authorization token is not valid at the current time. Please create another " +
          `token and retry (token start time: ${text(at)}, token expiry time: ` +
          `${text(at + kMaxClockSkewMs)}, current server time: ${text(now)}).`
      }
    };
  }
  return null;
}

// Every routed request's handler runs only once authorizationRefusal() found nothing.
function patchAuthorization(base64Key) {
  const key = Buffer.from(base64Key, "base64");
  const routes = load("routes");
  const route = routes.default;
  routes.default = req => {
    const found = route(req);
    if (!found) return found;
    const [params, handler] = found;
    return [params, (account, request, res, handlerParams) => {
      const refusal = authorizationRefusal(request, key);
      if (refusal) {
        res.statusCode = refusal.statusCode;
        return refusal.body;
      }
      return handler(account, request, res, handlerParams);
    }];
  };
}

// The partition key ranges of each container (by its _rid, so a container made again under
// its name starts afresh): intervals [lo, hi) of 0..65536, the first two bytes of an item's
// hash, 4 at first.
const kHashSpace = 65536;
const kInitialRanges = 4;
const rangesByContainer = new Map();

function rangeState(collection) {
  const rid = collection._rid;
  let state = rangesByContainer.get(rid);
  if (!state) {
    const step = kHashSpace / kInitialRanges;
    state = { nextId: kInitialRanges, ranges: [] };
    for (let i = 0; i < kInitialRanges; i += 1) {
      state.ranges.push({ id: String(i), lo: i * step, hi: (i + 1) * step, parents: [] });
    }
    rangesByContainer.set(rid, state);
  }
  return state;
}

function partitionHash(value) {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return crypto.createHash("sha256").update(text, "utf8").digest().readUInt16BE(0);
}

// The service's hex bounds of a range: "" below the first, "FF" past the last.
function rangeResource(collection, range) {
  const hex = n => n.toString(16).toUpperCase().padStart(4, "0");
  return {
    id: range.id,
    _rid: `${collection._rid}pk${range.id}`,
    _self: `${collection._self}pkranges/${range.id}/`,
    _etag: `"${range.id}-${range.lo}-${range.hi}"`,
    _ts: Math.floor(Date.now() / 1000),
    minInclusive: range.lo === 0 ? "" : hex(range.lo),
    maxExclusive: range.hi === kHashSpace ? "FF" : hex(range.hi),
    ridPrefix: Number(range.id),
    throughputFraction: (range.hi - range.lo) / kHashSpace,
    status: "online",
    parents: range.parents
  };
}

// Whether `sql`, outside its string literals, has a clause the gateway does not serve
// across partitions (docket's own check is cosmos_query_merge.h's needs_query_plan).
function needsQueryPlan(sql) {
  const text = sql.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, " ");
  return /(^|[^\w@.])(ORDER\s+BY|GROUP\s+BY|TOP|OFFSET|DISTINCT)(?![\w@.])/i.test(text) ||
         /(^|[^\w@.])(COUNT|MIN|MAX|SUM|AVG)\s*\(/i.test(text);
}

function header(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function patchPartitionKeyRanges() {
  const handler = load("handler/read-partition-key-ranges");
  handler.default = (account, req, res, { dbId, collId }) => {
    const collection = account.database(dbId).collection(collId).read();
    if (!collection) {
      res.statusCode = 404;
      return { code: "NotFound", message: "Resource Not Found" };
    }
    const ranges = rangeState(collection).ranges.map(range => rangeResource(collection, range));
    res.setHeader("x-ms-item-count", String(ranges.length));
    return { _rid: collection._rid, PartitionKeyRanges: ranges, _count: ranges.length };
  };
}

function patchQueries(splitAt) {
  const handler = load("handler/query-documents");
  const readItems = load("handler/_read-items").default;
  const json = load("json").default;
  const trueHeader = load("true-header").default;
  const cosmosQuery = require(require.resolve("@zeit/cosmosdb-query", { paths: [lib] })).default;
  const gone = res => {
    res.statusCode = 410;
    res.setHeader("x-ms-substatus", "1002");
    return { code: "Gone", message: "The requested partition key range is gone (split or merged); read the partition key ranges again." };
  };
  const run = (documents, data, body, continuation, maxItemCount) => {
    const parent = documents._parent.read();
    const options = {
      parameters: body.parameters,
      udf: documents._userDefinedFunctions(),
      maxItemCount,
      continuation,
      compositeIndexes: (parent.indexingPolicy && parent.indexingPolicy.compositeIndexes) || []
    };
    try {
      return documents._getQuery(body.query).exec(data, options);
    } catch (err) {
      err.badRequest = true;
      throw err;
    }
  };
  handler.default = async (account, req, res, { dbId, collId }) =>
    readItems(req, res, "Documents", async ({ continuation, maxItemCount }) => {
      const body = await json(req);
      if (!body.query) {
        res.statusCode = 400;
        return { message: "missing query" };
      }
      const collection = account.database(dbId).collection(collId);
      const meta = collection.read();
      if (!meta) return null;
      const rangeId = header(req, "x-ms-documentdb-partitionkeyrangeid");
      const partitionKey = header(req, "x-ms-documentdb-partitionkey");
      const documents = collection.documents;
      try {
        if (rangeId === undefined && !partitionKey) {
          if (!trueHeader(req, "x-ms-documentdb-query-enablecrosspartition")) {
            const paths = (meta.partitionKey || {}).paths || [];
            if (paths.length && !cosmosQuery(body.query).containsPartitionKeys(paths)) {
              res.statusCode = 400;
              return { message: "missing partition keys" };
            }
          } else if (needsQueryPlan(body.query)) {
            res.statusCode = 400;
            res.setHeader("x-ms-substatus", "1004");
            return {
              code: "BadRequest",
              message: "The provided cross partition query can not be directly served by the " +
                "gateway. This is a first chance (internal) exception that all newer clients " +
                "will know how to handle gracefully."
            };
          }
        }
        const all = [...documents._data.values()].map(item => item.read());
        if (rangeId === undefined || partitionKey) {
          return run(documents, all, body, continuation, maxItemCount);
        }
        const state = rangeState(meta);
        const index = state.ranges.findIndex(range => range.id === rangeId);
        if (index < 0) return gone(res);
        const range = state.ranges[index];
        const inRange = all.filter(doc => {
          const hash = partitionHash(documents._getPartition(doc));
          return hash >= range.lo && hash < range.hi;
        });
        if (splitAt > 0 && inRange.length > splitAt && range.hi - range.lo > 1) {
          const mid = Math.floor((range.lo + range.hi) / 2);
          const parents = [...range.parents, range.id];
          state.ranges.splice(index, 1,
            { id: String(state.nextId), lo: range.lo, hi: mid, parents },
            { id: String(state.nextId + 1), lo: mid, hi: range.hi, parents });
          state.nextId += 2;
          return gone(res);
        }
        return run(documents, inRange, body, continuation, maxItemCount);
      } catch (err) {
        if (err.badRequest) {
          res.statusCode = 400;
          return { message: err.message };
        }
        throw err;
      }
    });
}

if (!args.unpatched) {
  // Before the routes load: they take the batch handler's function when they load.
  patchIdLength();
  patchBatchAtomicity();
  patchMissingItemRead();
  patchPartitionKeyRanges();
  patchQueries(args.splitAt);
  patchAuthorization(args.masterKey);
}

const fs = require("fs");
const { createHttpServer, createHttpsServer } = load("index");
const server = args.noTls
  ? createHttpServer({ keepAlive: true })
  : createHttpsServer({ cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key), keepAlive: true });
server.listen(Number(args.port), args.host || "127.0.0.1", () => {
  const { address, port } = server.address();
  const mode = `${args.noTls ? "HTTP" : "HTTPS"}, ${args.unpatched ? "unpatched" : "docket's patch"}`;
  console.log(`cosmosdb-server 1.0.1 (${mode}) at ${address}:${port}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => process.exit(0));
}
