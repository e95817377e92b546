// What the fake model (fake-model.ts) reads in a request and answers, as
// plain functions: the prompt, the tool results, the command in the prompt,
// and the reply.
//
// The gateway wraps the user's text as "[<date>] <text>\n\nRuntime: ..." and
// appends a synthetic user message between OpenClaw's internal-context
// markers; both are stripped to find the text that was sent. svc's team chat
// sends "<preamble>\n\n[Message]\n<message>": only what follows the last
// `[Message]\n` is read.

const INTERNAL = /<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>[\s\S]*?<<<END_OPENCLAW_INTERNAL_CONTEXT>>>/g;
const MESSAGE_MARKER = '[Message]\n';

/** What one model request was answered with. */
export type FakeReply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (typeof p === 'string' ? p : typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : ''))
    .filter(Boolean)
    .join('\n');
}

const isInternal = (m: ChatMessage): boolean => m?.role === 'user' && textOf(m.content).replace(INTERNAL, '').trim() === '';

/**
 * The text sent with the last real user message of a chat-completions
 * request: the gateway's date prefix and Runtime line removed, and when svc's
 * `[Message]` marker is there, only what follows the last one.
 */
export function promptOf(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role !== 'user') continue;
    const text = textOf(m.content).replace(INTERNAL, '').trim();
    if (!text) continue;
    const sent = text.split(/\n\nRuntime: /)[0] ?? '';
    const marker = sent.lastIndexOf(MESSAGE_MARKER);
    if (marker >= 0) return sent.slice(marker + MESSAGE_MARKER.length).trim();
    return sent.replace(/^\[[^\]]*\]\s*/, '').trim();
  }
  return '';
}

/**
 * The gateway agent whose run sent the request: `agent=<id>` in the Runtime
 * line (docs/gateway-facts.md, "Which agent is calling"), which the gateway
 * appends to the first user message of a session only: the latest user
 * message that has one; null when none has.
 */
export function runtimeAgentOf(messages: unknown): string | null {
  if (!Array.isArray(messages)) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role !== 'user') continue;
    const agent = /\n\nRuntime: (?:[^\n]*?[ |])?agent=([^\s|]+)/.exec(textOf(m.content))?.[1];
    if (agent) return agent;
  }
  return null;
}

/** The tool results that came back since the last real user message (the gateway's internal-context message is not one). */
export function toolResultsOf(messages: unknown): string[] {
  const out: string[] = [];
  if (!Array.isArray(messages)) return out;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m?.role === 'tool') out.unshift(textOf(m.content));
    else if (m?.role === 'user' && !isInternal(m)) break;
  }
  return out;
}

export type FakeCommand =
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'loop'; name: string; args: Record<string, unknown> }
  | { kind: 'slow'; text: string }
  | { kind: 'echo'; text: string };

/**
 * What a prompt asks for: `TOOL: <name> <json>` (or `LOOP: <name> <json>`)
 * as its first line (the JSON may run over the following lines; not an
 * object: `{ raw: <text> }`), a line starting `SLOW:` anywhere (a delegated
 * task's description can make the assignee's run slow), else an echo.
 * `TOOL@<agent>: <name> <json>` (`LOOP@<agent>:`) is a tool call only in the
 * run of gateway agent `<agent>` (`agent`, from the Runtime line): every
 * other agent's run that sees the prompt echoes it.
 */
export function commandOf(prompt: string, agent: string | null = null): FakeCommand {
  const tool = /^(TOOL|LOOP)(?:@([^\s:]+))?:[ \t]*(\S+)[ \t]*([\s\S]*)$/.exec(prompt);
  if (tool && (tool[2] === undefined || tool[2] === agent)) {
    const raw = (tool[4] ?? '').trim();
    let args: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        const v: unknown = JSON.parse(raw);
        args = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { raw };
      } catch {
        // Not JSON: the tool gets the text as it is, so a test sees what was sent.
        args = { raw };
      }
    }
    return { kind: tool[1] === 'LOOP' ? 'loop' : 'tool', name: tool[3] as string, args };
  }
  if (/^SLOW:/m.test(prompt)) return { kind: 'slow', text: prompt };
  return { kind: 'echo', text: prompt };
}

/** The offered tool `wanted` names: itself, else an MCP tool `<server>__<wanted>`. */
export function findTool(offered: readonly string[], wanted: string): string | undefined {
  return offered.find((n) => n === wanted) ?? offered.find((n) => n.endsWith(`__${wanted}`));
}

const UNTRUSTED_START = '<<<EXTERNAL_UNTRUSTED_CONTENT';
const UNTRUSTED_END = '<<<END_EXTERNAL_UNTRUSTED_CONTENT';

/**
 * The payload of a tool result as the gateway hands it to the model:
 * "SECURITY NOTICE ... <<<EXTERNAL_UNTRUSTED_CONTENT id=...>>>\nSource: ...\n---\n<payload>\n<<<END_EXTERNAL_UNTRUSTED_CONTENT ...>>>".
 * A payload that is an MCP result (`{ content: [{ text }] }`, or wrapped as
 * `{ result: { content } }`) gives its texts. Unwrapped text is returned as it is.
 */
export function unwrapToolResult(text: string): string {
  let inner = text;
  const start = text.indexOf(UNTRUSTED_START);
  const end = text.indexOf(UNTRUSTED_END, start + 1);
  if (start >= 0 && end > start) {
    const body = text.slice(text.indexOf('>>>', start) + 3, end);
    const sep = body.indexOf('\n---\n');
    inner = (sep >= 0 ? body.slice(sep + 5) : body).trim();
  }
  try {
    const v = JSON.parse(inner) as { content?: unknown; result?: { content?: unknown } } | null;
    const content = v?.result?.content ?? v?.content;
    if (Array.isArray(content)) return content.map((c: unknown) => String((c as { text?: unknown })?.text ?? '')).join(' ');
  } catch {
    // Not JSON: the payload is the text itself.
  }
  return inner;
}

/** Whether a SLOW prompt holds: only when one of its SLOW lines was never seen before (`seen` gets them all). */
export function holdsOnce(prompt: string, seen: Set<string>): boolean {
  const lines = prompt.split('\n').filter((l) => l.startsWith('SLOW:'));
  const fresh = lines.some((l) => !seen.has(l));
  for (const l of lines) seen.add(l);
  return fresh;
}

/** The answer to one request; `slow` when its stream waits at the gate. */
export function replyTo(prompt: string, offered: readonly string[], toolResults: readonly string[], agent: string | null = null): { reply: FakeReply; slow: boolean } {
  const cmd = commandOf(prompt, agent);
  if (cmd.kind === 'tool' || cmd.kind === 'loop') {
    const name = findTool(offered, cmd.name);
    if (!name) return { reply: { text: `NO TOOL ${cmd.name}` }, slow: false };
    // A loop never learns from what came back: the same call on every request of the turn.
    if (toolResults.length === 0 || cmd.kind === 'loop') return { reply: { toolCall: { name, arguments: cmd.args } }, slow: false };
    const said = toolResults.map(unwrapToolResult).join(' | ').replace(/\s+/g, ' ').trim();
    return { reply: { text: `Tool said: ${said}` }, slow: false };
  }
  return { reply: { text: `ECHO: ${cmd.text}` }, slow: cmd.kind === 'slow' };
}

/** Characters of text in all of a request's messages (what its usage is computed from). */
export function promptCharsOf(messages: unknown): number {
  return Array.isArray(messages) ? messages.reduce((n: number, m: unknown) => n + textOf((m as ChatMessage)?.content).length, 0) : 0;
}
