#!/usr/bin/env node
// judge.mjs: let the real Vercel AI SDK (pinned in package.json) judge a batch of jobs.
//
//   node judge.mjs < jobs.json > results.json
//
// stdin:  a JSON array of jobs
//           {"profile": "ai-sdk-v5" | "ai-sdk-v6" | "ai-sdk-v7",
//            "sse"?: "<raw SSE text>", "prior"?: {UIMessage}, "messages"?: [UIMessage, ...]}
// stdout: a JSON array of results, one per job, in the same order
//           {"profile", "ai_version",
//            "validate"?: {"ok": true, "normalised": [...]} | {"ok": false, "error": "..."},
//            "stream"?: {"message": {...} | null,
//                        "invalid_chunk": null | {"index": n, "error": "..."},
//                        "errors": ["<message>", ...],
//                        "error_details": [{"name", "message"}, ...],
//                        "chunks": [{...}, ...]}}
//         or {"profile", "fatal": "..."} when the job itself could not be run.
//
// `messages` goes through validateUIMessages({messages}). `sse` goes through the exact pipeline of
// DefaultChatTransport + useChat: parseJsonEventStream({schema: uiMessageChunkSchema}), stop at the
// first chunk that fails to parse, then readUIMessageStream({message: prior, stream, onError}).
// The exit code is 0 whenever a result array was written; 2 means the batch itself was unreadable.

// ai@7 logs deprecation warnings (e.g. rawInput on output-error parts); keep the output clean.
globalThis.AI_SDK_LOG_WARNINGS = false;

// stdout carries only the result array: send anything a library prints to stderr.
console.log = console.error;
console.info = console.error;

const PACKAGES = { 'ai-sdk-v5': 'ai-v5', 'ai-sdk-v6': 'ai-v6', 'ai-sdk-v7': 'ai-v7' };
const loaded = new Map();

async function sdkFor(profile) {
  const name = PACKAGES[profile];
  if (!name) throw new Error(`unknown profile ${JSON.stringify(profile)}; expected one of ${Object.keys(PACKAGES).join(', ')}`);
  if (!loaded.has(name)) {
    const { createRequire } = await import('node:module');
    const version = createRequire(import.meta.url)(`${name}/package.json`).version;
    loaded.set(name, { ai: await import(name), version });
  }
  return loaded.get(name);
}

// ---------------------------------------------------------------------------------------------
// Error text. zod's own messages dump the whole value; we print "code at <path>: message" per
// issue instead. ai@5 and ai@6 build parts and chunks with a plain z.union, so one bad part yields
// an invalid_union holding every variant's issues: keep only the variants whose `type` (then
// `state`) matched, and explain the best one.

const pathText = (p) => JSON.stringify(p.map((k) => (typeof k === 'symbol' ? String(k) : k)));

function valueAt(root, p) {
  let v = root;
  for (const k of p) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k];
  }
  return v;
}

// Does this variant's issue list reject the discriminator `key` itself?
const rejects = (variant, key) => variant.some((i) => i.path?.length === 1 && i.path[0] === key);

function unionLines(issue, at, root) {
  let variants = issue.errors.filter((v) => !rejects(v, 'type'));
  if (variants.length === 0) {
    return [`invalid_union at ${pathText(at)}: no variant accepts type ${JSON.stringify(valueAt(root, [...at, 'type']))}`];
  }
  const stateOk = variants.filter((v) => !rejects(v, 'state'));
  if (stateOk.length > 0) variants = stateOk;
  else if (valueAt(root, [...at, 'state']) !== undefined) {
    const t = JSON.stringify(valueAt(root, [...at, 'type']));
    const s = JSON.stringify(valueAt(root, [...at, 'state']));
    return [`invalid_union at ${pathText(at)}: no variant of type ${t} accepts state ${s}`];
  }
  const closest = variants.reduce((a, b) => (b.length < a.length ? b : a));
  return issueLines(closest, root, at);
}

function issueLines(issues, root, base = []) {
  const lines = [];
  for (const issue of issues) {
    const at = [...base, ...(issue.path ?? [])];
    if (issue.code === 'invalid_union' && Array.isArray(issue.errors) && issue.errors.length > 0) {
      lines.push(...unionLines(issue, at, root));
    } else {
      lines.push(`${issue.code} at ${pathText(at)}: ${issue.message}`);
    }
  }
  return lines;
}

function describe(err) {
  const name = err?.name ?? 'Error';
  const issues = err?.cause?.issues;
  if (Array.isArray(issues) && issues.length > 0) return `${name}: ${issueLines(issues, err.value).join('; ')}`;
  return `${name}: ${err?.message ?? String(err)}`;
}

// ---------------------------------------------------------------------------------------------

const viaJson = (v) => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

async function runValidate(ai, messages) {
  try {
    const normalised = await ai.validateUIMessages({ messages });
    return { ok: true, normalised: viaJson(normalised) };
  } catch (err) {
    return { ok: false, error: describe(err) };
  }
}

function bytesOf(text) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function runStream(ai, sse, prior) {
  if (typeof sse !== 'string') throw new TypeError('"sse" must be a string');
  const chunks = [];
  let invalid = null;
  let invalidError;
  let index = 0;
  // DefaultChatTransport.processResponseStream: parse every SSE event with uiMessageChunkSchema and
  // throw on the first failure, which errors the chunk stream.
  const chunkStream = ai
    .parseJsonEventStream({ stream: bytesOf(sse), schema: ai.uiMessageChunkSchema })
    .pipeThrough(
      new TransformStream({
        transform(parsed, controller) {
          const at = index++;
          if (!parsed.success) {
            invalid = { index: at, error: describe(parsed.error) };
            invalidError = parsed.error;
            throw parsed.error;
          }
          chunks.push(viaJson(parsed.value));
          controller.enqueue(parsed.value);
        },
      }),
    );

  const seen = [];
  const record = (err) => {
    if (err === invalidError || seen.includes(err)) return;
    seen.push(err);
  };
  let last = null;
  try {
    for await (const snapshot of ai.readUIMessageStream({
      message: prior === undefined ? undefined : structuredClone(prior),
      stream: chunkStream,
      onError: record,
    })) {
      last = snapshot;
    }
  } catch (err) {
    record(err);
  }
  return {
    message: viaJson(last),
    invalid_chunk: invalid,
    errors: seen.map((e) => (e instanceof Error ? e.message : String(e))),
    error_details: seen.map((e) => ({ name: e?.name ?? typeof e, message: e instanceof Error ? e.message : String(e) })),
    chunks,
  };
}

// Rejections nobody awaited (should not happen) are attributed to the job that was running.
let strays = [];
process.on('unhandledRejection', (err) => strays.push(describe(err)));

async function runJob(job) {
  const profile = job?.profile;
  try {
    if (job === null || typeof job !== 'object' || Array.isArray(job)) throw new TypeError('a job must be a JSON object');
    const hasSse = 'sse' in job;
    const hasMessages = 'messages' in job;
    if (!hasSse && !hasMessages) throw new TypeError('a job needs "sse" and/or "messages"');
    if ('prior' in job && !hasSse) throw new TypeError('"prior" only makes sense with "sse"');
    const { ai, version } = await sdkFor(profile);
    const result = { profile, ai_version: version };
    if (hasMessages) result.validate = await runValidate(ai, job.messages);
    if (hasSse) result.stream = await runStream(ai, job.sse, job.prior);
    await new Promise((resolve) => setImmediate(resolve));
    if (strays.length > 0) result.unhandled = strays;
    return result;
  } catch (err) {
    return { profile: profile ?? null, fatal: describe(err) };
  } finally {
    strays = [];
  }
}

async function readStdin() {
  const parts = [];
  for await (const part of process.stdin) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

let jobs;
try {
  jobs = JSON.parse(await readStdin());
  if (!Array.isArray(jobs)) throw new TypeError('stdin must hold a JSON array of jobs');
} catch (err) {
  console.error(`judge.mjs: ${describe(err)}`);
  process.exit(2);
}

const results = [];
for (const job of jobs) results.push(await runJob(job));
process.stdout.write(`${JSON.stringify(results)}\n`);
