#!/usr/bin/env node
// record.mjs: let the real Vercel AI SDK (pinned in package.json) write UI message stream recordings.
//
//   node record.mjs OUT_DIR
//
// For each pinned major (ai-sdk-v5, v6, v7) and each stream below, the SDK's own server helpers
// write the response: createUIMessageStream({execute}) + createUIMessageStreamResponse({stream}).
// Per recording, OUT_DIR gets
//   <profile>.<name>.sse           the response body, byte for byte
//   <profile>.<name>.headers.json  the response headers
//   <profile>.<name>.message.json  the message the SDK's own readUIMessageStream folds the body into
// and stdout gets a JSON array of {profile, name, ai_version} for what was written.
// These are third-party recordings for `turnwire check --stream`: turnwire must pass them.

globalThis.AI_SDK_LOG_WARNINGS = false;
console.log = console.error;
console.info = console.error;

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const PACKAGES = { 'ai-sdk-v5': 'ai-v5', 'ai-sdk-v6': 'ai-v6', 'ai-sdk-v7': 'ai-v7' };

// Each stream is a list of chunks written with writer.write(); every one is valid in all three majors.
const STREAMS = {
  text: [
    { type: 'start', messageId: 'msg-sdk-1' },
    { type: 'start-step' },
    { type: 'text-start', id: 'txt-a' },
    { type: 'text-delta', id: 'txt-a', delta: 'Grüße aus ' },
    { type: 'text-delta', id: 'txt-a', delta: 'Köln — ☕ and 𝄞.' },
    { type: 'text-end', id: 'txt-a' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop' },
  ],
  tool: [
    { type: 'start', messageId: 'msg-sdk-2' },
    { type: 'start-step' },
    { type: 'tool-input-start', toolCallId: 'call-a', toolName: 'weather' },
    { type: 'tool-input-delta', toolCallId: 'call-a', inputTextDelta: '{"city":' },
    { type: 'tool-input-delta', toolCallId: 'call-a', inputTextDelta: '"Paris"}' },
    { type: 'tool-input-available', toolCallId: 'call-a', toolName: 'weather', input: { city: 'Paris' } },
    { type: 'tool-output-available', toolCallId: 'call-a', output: { celsius: 21.5, sky: 'clear' } },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 'txt-b' },
    { type: 'text-delta', id: 'txt-b', delta: 'It is 21.5 °C in Paris.' },
    { type: 'text-end', id: 'txt-b' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop' },
  ],
  reasoning: [
    { type: 'start', messageId: 'msg-sdk-3', messageMetadata: { model: 'scripted' } },
    { type: 'start-step' },
    { type: 'reasoning-start', id: 'rs-a' },
    { type: 'reasoning-delta', id: 'rs-a', delta: 'Look it up first.' },
    { type: 'reasoning-end', id: 'rs-a' },
    { type: 'source-url', sourceId: 'src-a', url: 'https://example.com/eiffel', title: 'Eiffel Tower' },
    { type: 'data-progress', id: 'prog-a', data: { step: 1 } },
    { type: 'data-progress', id: 'prog-a', data: { step: 2 } },
    { type: 'text-start', id: 'txt-c' },
    { type: 'text-delta', id: 'txt-c', delta: '330 m.' },
    { type: 'text-end', id: 'txt-c' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop', messageMetadata: { tokens: 12 } },
  ],
};

async function fold(ai, body) {
  const chunks = ai.parseJsonEventStream({
    stream: new Response(body).body,
    schema: ai.uiMessageChunkSchema,
  }).pipeThrough(
    new TransformStream({
      transform(part, controller) {
        if (!part.success) throw part.error;
        controller.enqueue(part.value);
      },
    }),
  );
  let last = null;
  for await (const message of ai.readUIMessageStream({ stream: chunks })) last = message;
  return JSON.parse(JSON.stringify(last));
}

async function main() {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node record.mjs OUT_DIR');
    process.exit(2);
  }
  const written = [];
  for (const [profile, pkg] of Object.entries(PACKAGES)) {
    const ai = await import(pkg);
    const version = createRequire(import.meta.url)(`${pkg}/package.json`).version;
    for (const [name, chunks] of Object.entries(STREAMS)) {
      const stream = ai.createUIMessageStream({
        execute: ({ writer }) => {
          for (const chunk of chunks) writer.write(chunk);
        },
      });
      const response = ai.createUIMessageStreamResponse({ stream });
      const body = new Uint8Array(await response.arrayBuffer());
      const base = join(out, `${profile}.${name}`);
      writeFileSync(`${base}.sse`, body);
      writeFileSync(`${base}.headers.json`, JSON.stringify(Object.fromEntries(response.headers), null, 2) + '\n');
      writeFileSync(`${base}.message.json`, JSON.stringify(await fold(ai, body), null, 2) + '\n');
      written.push({ profile, name, ai_version: version });
    }
  }
  process.stdout.write(JSON.stringify(written) + '\n');
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(1);
});
