// A real third-party client against `s3up serve`: the AWS SDK for JavaScript v3 (@aws-sdk/client-s3 from npm)
// uploads over HTTP and HTTPS with its own SigV4 signer, aws-chunked encoder and checksums; the mock server
// verifies every signature and checksum, and every object must read back byte-exact.
//
// usage: node aws_sdk_js.cjs PATH_TO_S3UP NPM_PREFIX SDK_VERSION
// The SDK is installed once with npm into NPM_PREFIX (inside the build tree). Exits 77 (ctest: skipped)
// with a printed reason when npm is missing or the registry cannot be reached in time.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const https = require('https');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { spawn, spawnSync } = require('child_process');

const SKIP = 77;
const ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const failures = [];
// npm gets less than the ctest timeout (300 s), so a registry out of reach is a skip, not a test timeout.
const NPM_TIMEOUT_MS = 240 * 1000;
const SERVE_START_TIMEOUT_MS = 30 * 1000;
const SERVE_STOP_TIMEOUT_MS = 20 * 1000;

function skip(reason) {
  console.log(`SKIPPED: ${reason}`);
  process.exit(SKIP);
}

function check(condition, what) {
  console.log((condition ? 'ok    ' : 'FAIL  ') + what);
  if (!condition) failures.push(what);
}

// Installs @aws-sdk/client-s3 and @aws-sdk/lib-storage at `version` into prefix unless they are there.
function installSdk(prefix, version) {
  const manifest = path.join(prefix, 'node_modules', '@aws-sdk', 'client-s3', 'package.json');
  const storage = path.join(prefix, 'node_modules', '@aws-sdk', 'lib-storage', 'package.json');
  const installed = (file) => fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).version === version;
  if (installed(manifest) && installed(storage)) return;
  console.log(`installing @aws-sdk/client-s3@${version} and @aws-sdk/lib-storage@${version} into ${prefix}`);
  fs.mkdirSync(prefix, { recursive: true });
  const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save',
    '--fetch-timeout=30000', '--fetch-retries=1', `@aws-sdk/client-s3@${version}`, `@aws-sdk/lib-storage@${version}`],
  { encoding: 'utf8', timeout: NPM_TIMEOUT_MS });
  if (npm.error && npm.error.code === 'ETIMEDOUT') {
    skip(`npm install of @aws-sdk/client-s3@${version} did not finish in ${NPM_TIMEOUT_MS / 1000} s (registry ` +
         'out of reach or too slow)');
  }
  if (npm.error) skip(`npm is not available: ${npm.error.message}`);
  if (npm.status !== 0 || !installed(manifest) || !installed(storage)) {
    const why = `npm install of @aws-sdk/client-s3@${version} failed (exit ${npm.status}): ` +
                `${(npm.stderr || '').trim().split('\n').slice(0, 3).join(' | ')}`;
    // No registry to reach is a missing tool; anything else (a version that does not exist: ETARGET) is our error.
    const network =
        /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|SOCKETTIMEDOUT|NETUNREACH|HOSTUNREACH)|network|FetchError/i;
    if (network.test(npm.stderr || '')) skip(why);
    console.log(`FAILED: ${why}`);
    process.exit(1);
  }
}

// The environment for s3up: no AWS_* variable and no AWS config or credentials file of the developer's (the
// same as s3up_environment() in report.py); the SDK is given everything it uses explicitly.
function s3upEnvironment() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));
  const noFile = '/nonexistent/s3up-interop/no-aws-file';
  return { ...env, AWS_CONFIG_FILE: noFile, AWS_SHARED_CREDENTIALS_FILE: noFile };
}

// `s3up serve` in a child process; its first stdout line is "listening on <URL>". Rejects if the server exits,
// cannot be started, or prints nothing in time, rather than waiting for the ctest timeout.
function serve(s3up, flags) {
  return new Promise((resolve, reject) => {
    const child = spawn(s3up, ['serve', ...flags], { stdio: ['ignore', 'pipe', 'inherit'], env: s3upEnvironment() });
    let out = '';
    let settled = false;
    const settle = (error, server) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        reject(error);
      } else {
        resolve(server);
      }
    };
    const command = ['s3up serve', ...flags].join(' ');
    const timer = setTimeout(() => settle(new Error(`${command} printed no "listening on" line in ` +
                                                    `${SERVE_START_TIMEOUT_MS / 1000} s`)), SERVE_START_TIMEOUT_MS);
    child.on('error', (error) => settle(error));
    child.on('exit', (code, signal) => settle(new Error(`${command} exited (code ${code}, signal ${signal}) ` +
                                                        'before listening')));
    child.stdout.on('data', (piece) => {
      out += piece;
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        if (!line.startsWith('listening on ')) settle(new Error(`s3up serve printed ${JSON.stringify(line)}`));
        settle(null, { child, url: line.slice('listening on '.length) });
      }
    });
  });
}

// SIGTERM, then the exit code (null if it died of a signal, or had to be killed after SERVE_STOP_TIMEOUT_MS).
function stop(server) {
  const child = server.child;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), SERVE_STOP_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

// The expected checksums, computed here independently of both the SDK and the server: node's zlib (CRC32; a
// table CRC32, reflected polynomial 0xEDB88320, where zlib.crc32 is missing: before node 20.15 and 22.2) and
// crypto, and a bitwise CRC32C (Castagnoli, reflected polynomial 0x82F63B78).
const CRC32_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let bit = 0; bit < 8; bit++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  return c >>> 0;
});
function tableCrc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) crc = (crc >>> 8) ^ CRC32_TABLE[(crc ^ byte) & 0xff];
  return (crc ^ 0xffffffff) >>> 0;
}
const crc32 = typeof zlib.crc32 === 'function' ? (data) => zlib.crc32(data) : tableCrc32;
function crc32c(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0x82f63b78 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function uint32Base64(value) {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes.toString('base64');
}
function expectedChecksums(data) {
  return {
    CRC32: uint32Base64(crc32(data)),
    CRC32C: uint32Base64(crc32c(data)),
    SHA256: crypto.createHash('sha256').update(data).digest('base64'),
  };
}

async function readAll(stream) {
  const pieces = [];
  for await (const piece of stream) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function exercise(sdk, Upload, NodeHttpHandler, url, ca, file, data) {
  const scheme = url.split(':')[0];
  const makeClient = (secret) => new sdk.S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: secret },
    maxAttempts: 1,
    // The server's certificate is the only trust anchor: whatever the environment adds (NODE_EXTRA_CA_CERTS).
    requestHandler: new NodeHttpHandler(ca ? { httpsAgent: new https.Agent({ ca }) } : {}),
  });
  const s3 = makeClient(SECRET_KEY);
  // What the SDK put on the wire for each request, after signing.
  let sent = {};
  s3.middlewareStack.add((next) => async (args) => {
    sent = { ...args.request.headers };
    return next(args);
  }, { step: 'deserialize', name: 'recordSentHeaders' });
  const expected = expectedChecksums(data);

  for (const algorithm of [undefined, 'CRC32', 'CRC32C', 'SHA256']) {
    for (const kind of ['buffer', 'stream']) {
      const name = `${scheme} ${algorithm || 'default'} ${kind}`;
      const key = `js/${scheme}/${algorithm || 'default'}/${kind}`;
      const body = kind === 'buffer' ? data : fs.createReadStream(file);
      try {
        const put = await s3.send(new sdk.PutObjectCommand({
          Bucket: 'interop', Key: key, Body: body, ContentLength: data.length,
          ...(algorithm ? { ChecksumAlgorithm: algorithm } : {}),
        }));
        const payload = sent['x-amz-content-sha256'];
        const trailer = sent['x-amz-trailer'];
        // The SDK's default (since 3.729) is a CRC32 under "when supported".
        const used = algorithm || 'CRC32';
        const header = `x-amz-checksum-${used.toLowerCase()}`;
        // A Buffer is hashed first and signed (hex SHA-256 of the body) with the checksum in a header; a stream
        // goes aws-chunked with the checksum in a trailer, the path that needs the server's decoder.
        if (kind === 'buffer') {
          check(payload === crypto.createHash('sha256').update(data).digest('hex') && sent[header] === expected[used],
                `PutObject ${name}: signed payload, ${header} header`);
        } else {
          check(payload === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' && trailer === header,
                `PutObject ${name}: aws-chunked, ${payload}, trailer ${trailer}`);
        }
        check(put[`Checksum${used}`] === expected[used],
              `PutObject ${name}: server verified and echoes ${used} ${put[`Checksum${used}`]}`);
        const got = await s3.send(new sdk.GetObjectCommand({ Bucket: 'interop', Key: key, ChecksumMode: 'ENABLED' }));
        check((await readAll(got.Body)).equals(data), `GetObject ${name}: read back byte-exact`);
      } catch (error) {
        check(false, `PutObject ${name}: ${error.name}: ${error.message}`);
      }
    }
  }

  // Multipart, by lib-storage's Upload: 3 parts of 5 MiB (S3's minimum) and a rest, each with its checksum.
  const big = Buffer.concat([data, data, data, data, data]).subarray(0, 11 * 1024 * 1024 + 777);
  for (const algorithm of [undefined, 'CRC32C']) {
    const key = `js/${scheme}/multipart/${algorithm || 'default'}`;
    try {
      const upload = new Upload({
        client: s3, partSize: 5 * 1024 * 1024, queueSize: 2,
        params: { Bucket: 'interop', Key: key, Body: big, ...(algorithm ? { ChecksumAlgorithm: algorithm } : {}) },
      });
      const done = await upload.done();
      // S3's multipart ETag: the MD5 of the parts' MD5s, "-3".
      const parts = [0, 1, 2].map((n) => big.subarray(n * 5 * 1024 * 1024, (n + 1) * 5 * 1024 * 1024));
      const md5 = (bytes) => crypto.createHash('md5').update(bytes).digest();
      const etag = `"${md5(Buffer.concat(parts.map(md5))).toString('hex')}-3"`;
      check(done.ETag === etag, `Upload (lib-storage) ${scheme} ${algorithm || 'default'}: 3 parts, ETag ${done.ETag}`);
      if (algorithm) {
        // COMPOSITE: the checksum of the parts' checksums, "-3"; FULL_OBJECT: the whole object's CRC.
        const composite = uint32Base64(crc32c(Buffer.concat(parts.map((part) => Buffer.from(
          uint32Base64(crc32c(part)), 'base64'))))) + '-3';
        const whole = uint32Base64(crc32c(big));
        const got = done[`Checksum${algorithm}`];
        check(got === (done.ChecksumType === 'FULL_OBJECT' ? whole : composite),
              `Upload (lib-storage) ${scheme} ${algorithm}: ${done.ChecksumType} checksum ${got} as computed here`);
      }
      const got = await s3.send(new sdk.GetObjectCommand({ Bucket: 'interop', Key: key }));
      check((await readAll(got.Body)).equals(big),
            `Upload (lib-storage) ${scheme} ${algorithm || 'default'}: read back byte-exact`);
    } catch (error) {
      check(false, `Upload (lib-storage) ${scheme} ${algorithm || 'default'}: ${error.name}: ${error.message}`);
    }
  }

  // The server refuses what is wrong: a checksum that does not match the body, and a wrong secret.
  try {
    await s3.send(new sdk.PutObjectCommand({ Bucket: 'interop', Key: `js/${scheme}/wrong`, Body: data,
                                             ChecksumCRC32: 'AAAAAA==' }));
    check(false, `PutObject ${scheme}: a wrong x-amz-checksum-crc32 is refused`);
  } catch (error) {
    check(error.name === 'BadDigest', `PutObject ${scheme}: wrong CRC32 refused with ${error.name}`);
  }
  try {
    await makeClient('not-the-secret').send(new sdk.PutObjectCommand({ Bucket: 'interop', Key: 'x', Body: 'x' }));
    check(false, `PutObject ${scheme}: a wrong secret is refused`);
  } catch (error) {
    check(error.name === 'SignatureDoesNotMatch', `PutObject ${scheme}: wrong secret refused with ${error.name}`);
  }
}

async function main() {
  const [s3up, prefix, version] = process.argv.slice(2);
  if (!s3up || !prefix || !version) {
    console.error('usage: node aws_sdk_js.cjs PATH_TO_S3UP NPM_PREFIX SDK_VERSION');
    return 2;
  }
  // The CRCs computed here against the published check values of "123456789" (CRC catalogue: CRC-32/ISO-HDLC
  // 0xCBF43926, CRC-32/ISCSI 0xE3069283).
  const vector = Buffer.from('123456789');
  check(tableCrc32(vector) === 0xcbf43926 && crc32(vector) === 0xcbf43926 && crc32c(vector) === 0xe3069283,
        `CRC32 (${crc32 === tableCrc32 ? 'table' : 'zlib'}) and CRC32C of "123456789" match the check values`);
  installSdk(prefix, version);
  const modules = path.join(prefix, 'node_modules');
  const sdk = require(path.join(modules, '@aws-sdk', 'client-s3'));
  const { Upload } = require(path.join(modules, '@aws-sdk', 'lib-storage'));
  const { NodeHttpHandler } = require(path.join(modules, '@smithy', 'node-http-handler'));
  console.log(`@aws-sdk/client-s3 ${version}, node ${process.version}`);

  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3up-interop-js-'));
  try {
    const data = crypto.randomBytes(3 * 1024 * 1024 + 12345);  // several aws-chunked chunks, one partial
    const file = path.join(directory, 'object.bin');
    fs.writeFileSync(file, data);
    const cert = path.join(directory, 'server.pem');
    const http = await serve(s3up, []);
    let tls = null;  // started inside the try, so that the HTTP server is stopped even if this one fails to start
    try {
      tls = await serve(s3up, ['--tls', '--cert-out', cert]);
      await exercise(sdk, Upload, NodeHttpHandler, http.url, null, file, data);
      await exercise(sdk, Upload, NodeHttpHandler, tls.url, fs.readFileSync(cert), file, data);
    } finally {
      check((await stop(http)) === 0, 's3up serve (HTTP) stops cleanly on SIGTERM');
      if (tls) check((await stop(tls)) === 0, 's3up serve (HTTPS) stops cleanly on SIGTERM');
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  console.log(`${failures.length ? 'FAILED' : 'passed'}: ${failures.length} failure(s)`);
  return failures.length ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
