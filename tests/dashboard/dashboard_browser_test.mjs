// The dashboard in a real browser: Debian's chromium, headless, driven over the
// DevTools protocol through --remote-debugging-pipe (fds 3 and 4, JSON messages ended
// by a NUL byte), so node needs no npm package. Against a SQLite file store holding
// dashboard_fixture's entries it loads the page, checks the counts, the parked
// messages' errors and that a stored error holding HTML is shown as text; clicks
// replay on one parked message and checks the page and the store (`docket outbox list
// --json`) afterwards; checks that a POST without the session's CSRF token is refused
// (403) and changes nothing; and, on a second dashboard whose store cannot be opened,
// that every section shows the store's error. Registered with ctest by tests/dashboard/CMakeLists.txt
// (label browser).
//
//   node dashboard_browser_test.mjs --docket BIN --fixture BIN --chromium BIN --work DIR
//        [--screenshot FILE.png]   (also writes the page, as loaded, to FILE.png)
//
// Every wait is for a condition, with a deadline; the run fails (exit 1) naming what
// it waited for.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TIMEOUT_MS = 30_000;

function options() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) {
      throw new Error(`usage: --docket BIN --fixture BIN --chromium BIN --work DIR [--screenshot FILE]; got ${argv[i]}`);
    }
    out[argv[i].slice(2)] = argv[i + 1];
  }
  for (const required of ['docket', 'fixture', 'chromium', 'work']) {
    if (!out[required]) throw new Error(`--${required} is missing`);
  }
  return out;
}

function check(condition, what) {
  if (!condition) throw new Error(`check failed: ${what}`);
  console.log(`ok: ${what}`);
}

// The first line of `stream` matching `pattern`, within the deadline.
function lineMatching(stream, pattern, what) {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${TIMEOUT_MS} ms: ${text}`)), TIMEOUT_MS);
    stream.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const match = text.match(pattern);
      if (match) { clearTimeout(timer); resolve(match); }
    });
    stream.on('end', () => { clearTimeout(timer); reject(new Error(`ended before ${what}: ${text}`)); });
  });
}

// The DevTools protocol over chromium's pipe.
class Browser {
  constructor(binary, profile) {
    const flags = ['--headless=new', '--remote-debugging-pipe', '--no-first-run',
      '--no-default-browser-check', '--disable-gpu', '--disable-extensions', '--disable-sync',
      '--disable-background-networking', '--disable-component-update', '--hide-scrollbars',
      // A container's /dev/shm is often too small for chromium's shared memory.
      '--disable-dev-shm-usage',
      `--user-data-dir=${profile}`, '--window-size=1400,1000'];
    // Chromium's sandbox refuses to run as root (CI containers); a test of our page
    // against our own server needs no sandbox then.
    if (process.getuid && process.getuid() === 0) flags.push('--no-sandbox');
    this.process = spawn(binary, [...flags, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.process.stdio[2].on('data', (chunk) => { this.stderr += chunk.toString('utf8'); });
    this.nextId = 0;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.process.stdio[4].on('data', (chunk) => this.receive(chunk));
    this.process.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new Error(`chromium exited (${code}): ${this.stderr}`));
    });
  }

  receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (let end = this.buffer.indexOf(0); end >= 0; end = this.buffer.indexOf(0)) {
      const message = JSON.parse(this.buffer.subarray(0, end).toString('utf8'));
      this.buffer = this.buffer.subarray(end + 1);
      const waiting = message.id !== undefined && this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
        else waiting.resolve(message.result);
      }
    }
  }

  send(method, params = {}, sessionId = undefined) {
    const id = ++this.nextId;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
      this.pending.set(id, {
        method,
        resolve: (value) => { clearTimeout(timer); resolve(value); },
        reject: (error) => { clearTimeout(timer); reject(error); },
      });
      this.process.stdio[3].write(`${JSON.stringify(message)}\0`);
    });
  }

  async open(url) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId);
    await page.send('Runtime.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
    await page.send('Page.navigate', { url });
    return page;
  }

  close() {
    if (this.process.exitCode === null) this.process.kill('SIGKILL');
  }
}

class Page {
  constructor(browser, sessionId) { this.browser = browser; this.sessionId = sessionId; }

  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

  // The value of `expression` in the page (awaited when a promise).
  async evaluate(expression) {
    const answer = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (answer.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(answer.exceptionDetails)}`);
    return answer.result.value;
  }

  // Waits until `expression` is true in the page, re-evaluating it every 100 ms.
  async waitFor(expression, what) {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      let value = false;
      try { value = await this.evaluate(expression); } catch { value = false; }  // mid-navigation
      if (value === true) { console.log(`ok: ${what}`); return; }
      if (Date.now() > deadline) {
        const body = await this.evaluate('document.body ? document.body.innerText : "(no body)"').catch(() => '');
        throw new Error(`the page did not show ${what} within ${TIMEOUT_MS} ms; it shows:\n${body}`);
      }
      await new Promise((resolve) => { setTimeout(resolve, 100); });
    }
  }
}

function outboxList(docket, url, status) {
  return JSON.parse(execFileSync(docket, ['outbox', 'list', '--store', url, '--status', status, '--json']).toString('utf8'));
}

// A POST straight to the API, as another program would send it: no cookie, no token.
function postWithoutToken(port, pathname, body) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

// `docket dashboard` on `url` and a free loopback port: the process, its port (a promise
// of the serving line's) and its exit.
function startDashboard(docket, url) {
  const child = spawn(docket, ['dashboard', '--store', url, '--listen', '127.0.0.1:0'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = lineMatching(child.stdout, /serving http:\/\/127\.0\.0\.1:(\d+)\//, `serving line of ${url}`)
    .then((match) => match[1]);
  port.catch(() => {});  // reported where it is awaited
  const exited = new Promise((resolve) => { child.on('exit', (code, signal) => resolve({ code, signal })); });
  return { process: child, port, exited };
}

async function main() {
  const opts = options();
  fs.rmSync(opts.work, { recursive: true, force: true });
  fs.mkdirSync(opts.work, { recursive: true });
  const url = `sqlite://${path.resolve(opts.work, 'store.db')}`;
  const fixture = JSON.parse(execFileSync(opts.fixture, [url]).toString('utf8'));
  const replayed = fixture.parked[0];

  const dashboard = startDashboard(opts.docket, url);
  const down = startDashboard(opts.docket, `sqlite://${path.resolve(opts.work, 'no-such-dir', 'store.db')}`);
  let browser = null;
  try {
    const port = await dashboard.port;
    browser = new Browser(opts.chromium, path.join(opts.work, 'profile'));
    const page = await browser.open(`http://127.0.0.1:${port}/`);

    const rows = (section) => `document.querySelectorAll('#${section} tbody tr').length`;
    await page.waitFor(`${rows('parked')} === 3 && ${rows('failed')} === 2`, 'three parked messages and two failed entries');
    check(await page.evaluate(`document.getElementById('parked-count').textContent`) === '3', 'the parked count reads 3');
    check(await page.evaluate(`document.querySelector('#outbox tr[data-destination="(all)"] td.parked').textContent`) === '3',
      'the outbox table counts 3 parked');
    check(await page.evaluate(`document.querySelector('#outbox tr[data-destination="nowhere"] td.parked').textContent`) === '3',
      'the destination "nowhere" counts 3 parked');
    const error = await page.evaluate(`document.querySelector('#parked tr[data-id="${replayed}"] td.error').textContent`);
    check(error.includes('nowhere'), `the parked message's error is shown ("${error}")`);
    const injected = fixture.failed[1].error;
    check(await page.evaluate(`[...document.querySelectorAll('#failed td.error')].some((td) => td.textContent === ${JSON.stringify(injected)})`),
      'a stored error holding HTML is shown as its text');
    check(await page.evaluate(`document.getElementById('injected') === null`), 'and no element of it was made');
    check((await page.evaluate(`document.getElementById('sagas-summary').textContent`)) === '2 active, 1 completed.',
      'the sagas by status read 2 active, 1 completed');
    check(await page.evaluate(`document.querySelector('#projections tr[data-consumer="${fixture.projection_consumer}"] td:nth-child(5)').textContent`) === '3',
      `the projection ${fixture.projection_consumer} lags 3 positions`);
    check(!(await page.evaluate('document.body.innerText')).includes('Not offered'), 'every section is read');

    if (opts.screenshot) {
      const shot = await page.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
      fs.writeFileSync(opts.screenshot, Buffer.from(shot.data, 'base64'));
      console.log(`wrote ${opts.screenshot}`);
    }

    // The page's own session without its token: refused, nothing changed.
    const forged = await page.evaluate(`fetch('/api/outbox/replay', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({id: ${JSON.stringify(fixture.parked[1])}})}).then((r) => r.status)`);
    check(forged === 403, `a POST from the page without the CSRF token is refused (${forged})`);
    const outside = await postWithoutToken(port, '/api/outbox/replay', { id: fixture.parked[1] });
    check(outside.status === 403, `a POST without cookie or token is refused (${outside.status})`);
    check(outboxList(opts.docket, url, 'parked').messages.length === 3, 'and the store still holds 3 parked messages');

    await page.evaluate(`document.querySelector('#parked tr[data-id="${replayed}"] button[data-action="replay"]').click()`);
    await page.waitFor(`document.getElementById('notice').textContent.includes(${JSON.stringify(`Replayed ${replayed}`)})`,
      'the replay confirmed');
    await page.waitFor(`${rows('parked')} === 2 && !document.querySelector('#parked tr[data-id="${replayed}"]')
      && document.getElementById('parked-count').textContent === '2'`, 'two parked messages left, the replayed one gone');
    await page.waitFor(`document.querySelector('#outbox tr[data-destination="(all)"] td.parked').textContent === '2'`,
      'the outbox table counts 2 parked');

    const parked = outboxList(opts.docket, url, 'parked').messages.map((m) => m.id);
    check(parked.length === 2 && !parked.includes(replayed), 'the store holds 2 parked messages, not the replayed one');
    const pending = outboxList(opts.docket, url, 'pending').messages;
    const again = pending.find((m) => m.id === replayed);
    check(again !== undefined && again.attempts === 0, 'the replayed message is pending again with its attempts reset');

    // A store that cannot be read: every section shows the store's error.
    const downPage = await browser.open(`http://127.0.0.1:${await down.port}/`);
    await downPage.waitFor(`document.querySelectorAll('.problem').length === 5
      && [...document.querySelectorAll('.problem')].every((p) => p.textContent.includes('cannot be read'))`,
    "the store's error in every section when it cannot be read");
  } finally {
    if (browser) browser.close();
    dashboard.process.kill('SIGTERM');
    down.process.kill('SIGTERM');
  }
  for (const [name, { code, signal }] of [['dashboard', await dashboard.exited], ['second dashboard', await down.exited]]) {
    check(code === 0, `the ${name} stopped on SIGTERM with exit 0 (${code}, ${signal})`);
  }
}

const guard = setTimeout(() => { console.error('dashboard_browser_test: over 240 s; giving up'); process.exit(1); }, 240_000);
main().then(() => { clearTimeout(guard); console.log('dashboard_browser_test: passed'); process.exit(0); },
  (error) => { clearTimeout(guard); console.error(`dashboard_browser_test: ${error.stack || error}`); process.exit(1); });
