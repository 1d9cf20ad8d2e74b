// Latency bench: pg-transactional-outbox 0.5.7 end to end, the way docket's
// `docket bench latency` measures docket: a message's time from its producer's commit
// to the commit of the handler that consumed it through the inbox. Run through the
// peers harness (run.sh pg-transactional-outbox-latency), whose cluster must have
// wal_level=logical: the library follows PostgreSQL's logical replication.
// Prints ONE JSON object on stdout; progress goes to stderr.
//
// The pipeline, in one Node process, each part the library's own:
//   producer  every 1/RATE s, one transaction: BEGIN, the library's outbox storage
//             (initializeMessageStorage, INSERT INTO outbox), COMMIT; the commit's
//             return is stamped (performance.now(): one monotonic clock);
//   outbox    initializeReplicationMessageListener on the outbox table (pgoutput over a
//             replication connection, woken by the WAL, no polling). Its handler is the
//             "publisher": it stores the message in the inbox through the library's inbox
//             storage (INSERT INTO inbox ... ON CONFLICT DO NOTHING, the dedup step) in a
//             transaction of its own, on its own connection, as a broker consumer would;
//             the listener then marks the outbox row processed in its transaction;
//   inbox     initializeReplicationMessageListener on the inbox table: per message one
//             transaction raising started_attempts (poisonous-message protection, on by
//             default for an inbox), then one that locks the row, runs the handler and
//             marks it processed. The handler does nothing else (docket's latency
//             handler does nothing either); the COMMIT of that transaction returning is
//             the stamp (a wrapper of the handler connections' query, installed through
//             the library's messageProcessingDbClientStrategy).
// Both listeners use the library's default concurrency (one message at a time, in WAL
// order) and its other defaults; the outbox listener's protections are off, as in the
// library README's outbox example; no scheduled cleanup runs during the bench.
//
// Reported: p50, p99, p99.9 and max of commit -> handler commit over the N timed messages
// (nearest rank, as docket's bench), after WARMUP untimed messages that make sure both
// replication streams are up (cases.warmup: how many of them were handled). Then a
// quiet of IDLE_S seconds (and the statistics' flush interval) with nothing staged: the
// transactions the server counted in it (pg_stat_database, this bench's own read
// subtracted), a second, are the idle cost.
//
// checks.ok is false when a message was not handled within TIMEOUT_S; then `diagnosis`
// says where each stage stands (unprocessed rows, the slots' positions) and
// `library_log` what the library warned of (kept, counted by kind). Seen on a loaded
// machine: "The received outbox message cannot be processed: MESSAGE_NOT_FOUND", the
// listener's lookup of a row whose commit it had just decoded from the WAL finding
// nothing, after which the message is acknowledged and never handled.
//
// Env: PG_URL (required), N=2000, RATE=200 (staged per second), WARMUP=20, IDLE_S=3,
//      TIMEOUT_S=30 (grace after the last message is staged).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import otx from 'pg-transactional-outbox';

const { DatabaseSetup, initializeMessageStorage, initializeReplicationMessageListener, executeTransaction } = otx;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const int = (name, def, min) => {
  const v = env[name] === undefined || env[name] === '' ? def : Number(env[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, not '${env[name]}'`);
  return v;
};
const log = (...a) => console.error('[outbox latency]', ...a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));

const PG_URL = env.PG_URL;
if (!PG_URL) {
  console.error('PG_URL is not set (run through the peers harness: run.sh pg-transactional-outbox-latency)');
  process.exit(2);
}
const N = int('N', 2000, 1);
const RATE = int('RATE', 200, 1);
const WARMUP = int('WARMUP', 20, 0);
const IDLE_S = int('IDLE_S', 3, 1);
const TIMEOUT_MS = int('TIMEOUT_S', 30, 1) * 1000;

const pkgVersion = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
// The library's warnings and errors, kept (not printed: its default logger writes to
// stdout, where the one JSON object goes) and reported with the result.
const libraryLog = [];
const collectingLogger = (context) => {
  const keep = (type) => (...args) => {
    libraryLog.push({
      type,
      context,
      at_ms: round(performance.now()),
      message: args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' | ').slice(0, 400),
    });
  };
  const ignore = () => {};
  return { fatal: keep('fatal'), error: keep('error'), warn: keep('warn'), info: ignore, debug: ignore, trace: ignore, silent: ignore, level: 'warn' };
};
const outboxLogger = collectingLogger('outbox');
const inboxLogger = collectingLogger('inbox');

const AGGREGATE = 'bench';
const MESSAGE_TYPE = 'latency_probe';
const common = { dbSchema: 'public', messageCleanupIntervalInMs: 0 };
const outboxConfig = {
  outboxOrInbox: 'outbox',
  dbListenerConfig: { connectionString: PG_URL },
  settings: {
    ...common,
    dbTable: 'outbox',
    dbPublication: 'bench_outbox_pub',
    dbReplicationSlot: 'bench_outbox_slot',
    enableMaxAttemptsProtection: false,
    enablePoisonousMessageProtection: false,
  },
};
const inboxConfig = {
  outboxOrInbox: 'inbox',
  dbListenerConfig: { connectionString: PG_URL },
  settings: {
    ...common,
    dbTable: 'inbox',
    dbPublication: 'bench_inbox_pub',
    dbReplicationSlot: 'bench_inbox_slot',
    enableMaxAttemptsProtection: true,
    enablePoisonousMessageProtection: true,
  },
};

// The library's replication setup (what its createReplicationScript generates, roles
// skipped: the bench runs as the cluster's superuser), the slot in a transaction of its own.
const setUp = async (admin, config) => {
  const s = config.settings;
  const setup = {
    outboxOrInbox: config.outboxOrInbox,
    database: 'peers_bench',
    schema: s.dbSchema,
    table: s.dbTable,
    listenerRole: 'postgres',
    publication: s.dbPublication,
    replicationSlot: s.dbReplicationSlot,
  };
  await admin.query(DatabaseSetup.dropAndCreateTable(setup));
  await admin.query(DatabaseSetup.setupReplicationCore(setup));
  await admin.query(DatabaseSetup.setupReplicationSlot(setup));
};

// Message k of the run: the timed ones are 0 .. N-1, the warm-up ones N .. N+WARMUP-1.
const committedAt = new Float64Array(N + WARMUP).fill(NaN);
const handledAt = new Float64Array(N + WARMUP).fill(NaN);
let handledCount = 0;
let handledTimed = 0;
let wakeWaiter = null;
const notify = () => {
  if (wakeWaiter) wakeWaiter();
};

// The inbox handler's connections: a pool whose clients stamp the handler transaction's
// COMMIT once it returned (handled() is set by the handler, inside that transaction).
const makeStampingStrategy = () => {
  const pool = new pg.Pool({ connectionString: PG_URL });
  pool.on('error', (e) => log('handler pool error', String(e)));
  return {
    getClient: async () => {
      const client = await pool.connect();
      if (!client.benchWrapped) {
        client.benchWrapped = true;
        const query = client.query.bind(client);
        client.query = async (...args) => {
          const result = await query(...args);
          if (args[0] === 'COMMIT' && client.benchMessage !== undefined) {
            const k = client.benchMessage;
            client.benchMessage = undefined;
            if (Number.isNaN(handledAt[k])) {
              handledAt[k] = performance.now();
              handledCount++;
              if (k < N) handledTimed++;
              notify();
            }
          }
          if (args[0] === 'ROLLBACK') client.benchMessage = undefined;
          return result;
        };
      }
      client.benchMessage = undefined;
      return client;
    },
    shutdown: async () => {
      await pool.end().catch(() => {});
    },
  };
};

// Resolves once predicate() holds; throws at `deadline`, naming what() as it then stands.
const waitFor = async (predicate, deadline, what) => {
  while (!predicate()) {
    const left = deadline - performance.now();
    if (left <= 0) throw new Error(`timeout: ${what()}`);
    await Promise.race([new Promise((resolve) => (wakeWaiter = resolve)), sleep(Math.min(left, 200))]);
    wakeWaiter = null;
  }
};

const percentile = (sorted, p) => sorted[Math.min(Math.max(Math.ceil(p * sorted.length), 1), sorted.length) - 1];

const transactionCount = async (admin) =>
  Number(
    (await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n,
  );

const tableRows = async (admin, table) =>
  (
    await admin.query(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE processed_at IS NOT NULL)::int AS processed, count(*) FILTER (WHERE started_attempts > 1)::int AS retried FROM ${table}`,
    )
  ).rows[0];

// Where a run that did not handle everything stopped: each table's rows and its oldest
// unprocessed one, and each replication slot's state.
const diagnose = async (admin, out) => {
  out.diagnosis = {};
  for (const table of ['outbox', 'inbox']) {
    out.diagnosis[table] = {
      ...(await tableRows(admin, table)),
      unprocessed: (
        await admin.query(
          `SELECT payload->>'k' AS k, started_attempts, finished_attempts, round(extract(epoch FROM clock_timestamp() - created_at)::numeric, 1)::float AS age_s FROM ${table} WHERE processed_at IS NULL ORDER BY created_at LIMIT 5`,
        )
      ).rows,
    };
  }
  out.diagnosis.slots = (
    await admin.query('SELECT slot_name, active, restart_lsn::text, confirmed_flush_lsn::text, pg_current_wal_lsn()::text AS current_lsn FROM pg_replication_slots')
  ).rows;
};

const main = async () => {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const out = {
    peer: 'pg-transactional-outbox-latency',
    started_at: new Date().toISOString(),
    node: process.version,
    packages: Object.fromEntries(['pg-transactional-outbox', 'pg', 'pg-logical-replication'].map((p) => [p, pkgVersion(p)])),
    server: {},
    host: { cpus: os.cpus().length, loadavg_start: os.loadavg().map((x) => round(x)) },
    params: {
      N,
      RATE,
      WARMUP,
      IDLE_S,
      TIMEOUT_S: TIMEOUT_MS / 1000,
      pipeline:
        'outbox storage in the producer transaction -> outbox replication listener -> inbox storage (own transaction) -> inbox replication listener -> handler transaction commit',
    },
    cases: {},
    checks: {},
  };
  const shutdowns = [];
  const inboxStorage = initializeMessageStorage(inboxConfig, inboxLogger);
  const outboxStorage = initializeMessageStorage(outboxConfig, outboxLogger);
  const publishPool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  const producer = new pg.Client({ connectionString: PG_URL });
  try {
    for (const s of ['server_version', 'wal_level', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers']) {
      out.server[s] = (await admin.query(`SHOW ${s}`)).rows[0][s];
    }
    if (out.server.wal_level !== 'logical') throw new Error(`wal_level is ${out.server.wal_level}; the replication listener needs logical`);
    await setUp(admin, outboxConfig);
    await setUp(admin, inboxConfig);

    // The outbox's "publisher": stores the message in the inbox, as a broker's consumer
    // would on the receiving side.
    const publisher = {
      handle: async (message) => {
        const client = await publishPool.connect();
        await executeTransaction(client, (c) => inboxStorage(message, c));
      },
    };
    const handler = {
      aggregateType: AGGREGATE,
      messageType: MESSAGE_TYPE,
      handle: async (message, client) => {
        client.benchMessage = message.payload.k;
      },
    };
    shutdowns.push(initializeReplicationMessageListener(outboxConfig, publisher, outboxLogger)[0]);
    shutdowns.push(
      initializeReplicationMessageListener(inboxConfig, [handler], inboxLogger, {
        messageProcessingDbClientStrategy: makeStampingStrategy(),
      })[0],
    );
    await producer.connect();

    const stage = async (k) => {
      await producer.query('BEGIN');
      await outboxStorage(
        {
          id: randomUUID(),
          aggregateType: AGGREGATE,
          aggregateId: String(k),
          messageType: MESSAGE_TYPE,
          payload: { n: k, k },
        },
        producer,
      );
      await producer.query('COMMIT');
      committedAt[k] = performance.now();
    };

    // Warm-up: both replication streams connected and delivering.
    for (let k = N; k < N + WARMUP; k++) await stage(k);
    // Both streams are up once one message went all the way; the rest get a few seconds
    // (one the library drops, see above, would otherwise hold the run up for good).
    if (WARMUP > 0) {
      await waitFor(() => handledCount >= 1, performance.now() + 60_000, () => 'warm-up: no message handled');
      await waitFor(() => handledCount >= WARMUP, performance.now() + 5_000, () => '').catch(() => {});
    }
    out.cases.warmup = { staged: WARMUP, handled: handledCount };
    log(`warm-up: ${handledCount} of ${WARMUP} handled; staging ${N} at ${RATE}/s`);

    const period = 1000 / RATE;
    const start = performance.now();
    let lateStarts = 0;
    for (let k = 0; k < N; k++) {
      const due = start + k * period;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      else if (wait < -period) lateStarts++;
      await stage(k);
    }
    const producedMs = performance.now() - start;
    await waitFor(() => handledTimed >= N, performance.now() + TIMEOUT_MS, () => `${handledTimed}/${N} handled`).catch((e) =>
      log(String(e)),
    );

    const latencies = [];
    for (let k = 0; k < N; k++) {
      if (!Number.isNaN(handledAt[k]) && !Number.isNaN(committedAt[k])) latencies.push(handledAt[k] - committedAt[k]);
    }
    latencies.sort((a, b) => a - b);
    out.cases.latency = {
      staged: N,
      handled: latencies.length,
      p50_ms: latencies.length ? round(percentile(latencies, 0.5)) : null,
      p99_ms: latencies.length ? round(percentile(latencies, 0.99)) : null,
      p999_ms: latencies.length ? round(percentile(latencies, 0.999)) : null,
      max_ms: latencies.length ? round(latencies[latencies.length - 1]) : null,
      mean_ms: latencies.length ? round(latencies.reduce((a, b) => a + b, 0) / latencies.length) : null,
      staging_seconds: round(producedMs / 1000, 3),
      achieved_rate: round((N * 1000) / producedMs, 1),
      late_starts: lateStarts,
    };
    log('latency', out.cases.latency);

    // Idle: nothing staged; the transactions the server counts meanwhile. A backend sends
    // its counts to pg_stat_database at most once a second and, once idle, within
    // STATS_FLUSH_MS (PostgreSQL 15's 10 s idle interval, and a margin), so each read of
    // the counter follows that long a quiet; the first read's own transaction is left out.
    const STATS_FLUSH_MS = 11_000;
    await sleep(STATS_FLUSH_MS);
    const before = await transactionCount(admin);
    const t0 = performance.now();
    await sleep(IDLE_S * 1000 + STATS_FLUSH_MS);
    const after = await transactionCount(admin);
    const idleSeconds = (performance.now() - t0) / 1000;
    out.cases.idle = {
      seconds: round(idleSeconds, 1),
      transactions: after - before - 1,
      transactions_per_second: round(Math.max(0, after - before - 1) / idleSeconds),
    };
    log('idle', out.cases.idle);

    const outboxRows = await tableRows(admin, 'outbox');
    const inboxRows = await tableRows(admin, 'inbox');
    out.checks.latency = {
      ok: latencies.length === N && outboxRows.processed === N + WARMUP && inboxRows.processed === N + WARMUP && inboxRows.rows === N + WARMUP,
      handled: latencies.length,
      outbox: outboxRows,
      inbox: inboxRows,
    };
    out.checks.ok = out.checks.latency.ok;
  } catch (e) {
    log(`FAILED: ${e.stack ?? e}`);
    out.error = String(e.message ?? e);
    out.checks.ok = false;
  } finally {
    // What the library said, and where each stage stands: kept whether the run passed or not.
    const byKind = {};
    for (const entry of libraryLog) {
      const kind = `${entry.context} ${entry.type}: ${entry.message.split(' | ').pop()}`;
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    out.library_log = { entries: libraryLog.length, by_kind: byKind, first: libraryLog.slice(0, 20) };
    if (!out.checks.ok) await diagnose(admin, out).catch((e) => log(`diagnosis failed: ${e}`));
    for (const shutdown of shutdowns) await shutdown().catch(() => {});
    await producer.end().catch(() => {});
    await publishPool.end().catch(() => {});
    out.host.loadavg_end = os.loadavg().map((x) => round(x));
    out.finished_at = new Date().toISOString();
    await admin.end();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  if (!out.checks.ok) {
    log('CHECKS FAILED', out.checks);
    process.exitCode = 1;
  }
};

main().catch((e) => {
  console.error('[outbox latency] FAILED:', e);
  process.exitCode = 1;
});
