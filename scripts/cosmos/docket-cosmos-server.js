#!/usr/bin/env node
// docket's launcher of @vercel/cosmosdb-server (the Cosmos DB SQL API server for tests,
// pinned by package.json + package-lock.json beside this file), with docket's patch.
//
// Usage: node docket-cosmos-server.js --modules DIR --port PORT
//        (--cert PEM --key PEM | --no-tls) [--unpatched]
//   --modules  the node_modules folder `npm ci` installed the package into
//   --cert/--key  the TLS certificate and key to serve (the package's own expired in 2021)
//   --no-tls   plain HTTP instead
//   --unpatched   serve the package as published, for showing that docket's patch test
//                 fails without the patch (docs/cosmos.md)
//
// The patch, applied here at start, in memory, to the installed package (never to its
// files), makes the server do two things the service documents and the package does not:
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
// Node runs a request's handler to its first await without interleaving another request,
// and the patched batch does all its work after its one await (reading the body), so no
// other request sees a batch's intermediate state.
"use strict";

const path = require("path");

function parseArguments(argv) {
  const args = { unpatched: false };
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i];
    if (name === "--unpatched") {
      args.unpatched = true;
    } else if (name === "--no-tls") {
      args.noTls = true;
    } else if (["--modules", "--port", "--cert", "--key", "--host"].includes(name)) {
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

if (!args.unpatched) {
  // Before the routes load: they take the batch handler's function when they load.
  patchIdLength();
  patchBatchAtomicity();
  patchMissingItemRead();
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
