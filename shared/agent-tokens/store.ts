// Agent tokens (migration 10): an opaque credential svc mints for one agent,
// stored only as its SHA-256 with the fields it binds. Presenting the token
// is the only way to take that agent's identity (an MCP session's binding
// today). The token is shown once, in the answer that minted it; a lost one
// is replaced by minting another, never read back.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import { uuidv7 } from '../ids.ts';

export const AGENT_TOKEN_PURPOSES = ['mcp', 'model'] as const;
export type AgentTokenPurpose = (typeof AGENT_TOKEN_PURPOSES)[number];

/** Random bytes in a token (base64url-encoded after its `svc_<purpose>_` prefix). */
export const AGENT_TOKEN_BYTES = 32;
/** A bound field is an id: at most this many characters. */
export const AGENT_TOKEN_ID_MAX = 200;

// Printable, no whitespace: the value lands in headers, env and shell words.
const BoundId = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(AGENT_TOKEN_ID_MAX, `must be at most ${AGENT_TOKEN_ID_MAX} characters`)
  .regex(/^[^\s\p{Cc}]+$/u, 'must not hold spaces or control characters');

export const MintAgentTokenInput = z.object({
  agentId: BoundId,
  teamId: BoundId.optional(),
  taskId: BoundId.optional(),
  tenantId: BoundId.optional(),
});
export type MintAgentToken = z.infer<typeof MintAgentTokenInput>;

/** What a token binds (never the token itself). */
export interface AgentTokenBinding {
  id: string;
  purpose: AgentTokenPurpose;
  agentId: string;
  teamId: string | null;
  taskId: string | null;
  tenantId: string | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface AgentTokenStore {
  /** A new token for `input` (validated with MintAgentTokenInput); the token is returned once and never stored. */
  mint(purpose: AgentTokenPurpose, input: MintAgentToken): { token: string; binding: AgentTokenBinding };
  /** The live binding a presented token names; null for an unknown, revoked, other-purpose or malformed one. */
  verify(purpose: AgentTokenPurpose, token: string): AgentTokenBinding | null;
  get(id: string): AgentTokenBinding | null;
  /** Ends a token's life; false when no live token has that id. */
  revoke(id: string): boolean;
  /** Ends the life of every live token of `purpose` bound to `agentId` (a rotation or a revocation); how many were live. */
  revokeAgent(purpose: AgentTokenPurpose, agentId: string): number;
}

const COLUMNS = `id, purpose, agent_id AS agentId, team_id AS teamId, task_id AS taskId, tenant_id AS tenantId,
  created_at AS createdAt, revoked_at AS revokedAt`;

const TOKEN_SHAPE = /^svc_[a-z]+_[A-Za-z0-9_-]{43}$/;
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Live bindings kept per presented token (the model endpoint verifies one on every call); unknown tokens are never kept. */
const VERIFIED_MAX = 1024;

export function createAgentTokenStore(db: Db, now: () => number = Date.now): AgentTokenStore {
  // Only this store (the supervisor's) mints and revokes, and each of its
  // writes empties the map: a revoked token is refused from the next call.
  // Other threads and processes (the MCP binaries) only verify.
  const verified = new Map<string, AgentTokenBinding>();
  const insert = db.prepare(
    `INSERT INTO agent_tokens (id, token_sha256, purpose, agent_id, team_id, task_id, tenant_id, created_at, revoked_at)
     VALUES (@id, @hash, @purpose, @agentId, @teamId, @taskId, @tenantId, @createdAt, NULL)`,
  );
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM agent_tokens WHERE token_sha256 = ? AND purpose = ? AND revoked_at IS NULL`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM agent_tokens WHERE id = ?`);
  const revoke = db.prepare('UPDATE agent_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const revokeAgent = db.prepare('UPDATE agent_tokens SET revoked_at = ? WHERE purpose = ? AND agent_id = ? AND revoked_at IS NULL');

  return {
    mint(purpose, input) {
      const v = MintAgentTokenInput.parse(input);
      const token = `svc_${purpose}_${randomBytes(AGENT_TOKEN_BYTES).toString('base64url')}`;
      const binding: AgentTokenBinding = {
        id: uuidv7(now()),
        purpose,
        agentId: v.agentId,
        teamId: v.teamId ?? null,
        taskId: v.taskId ?? null,
        tenantId: v.tenantId ?? null,
        createdAt: now(),
        revokedAt: null,
      };
      insert.run({ ...binding, hash: sha256(token) });
      verified.clear();
      return { token, binding };
    },
    verify(purpose, token) {
      // The shape check keeps an arbitrary header from costing a hash and a query.
      if (typeof token !== 'string' || !TOKEN_SHAPE.test(token) || !token.startsWith(`svc_${purpose}_`)) return null;
      const seen = verified.get(token);
      if (seen !== undefined) return seen;
      const found = (byHash.get(sha256(token), purpose) as AgentTokenBinding | undefined) ?? null;
      if (found !== null) {
        if (verified.size >= VERIFIED_MAX) verified.clear();
        verified.set(token, found);
      }
      return found;
    },
    get: (id) => (byId.get(id) as AgentTokenBinding | undefined) ?? null,
    revoke: (id) => {
      verified.clear();
      return revoke.run(now(), id).changes === 1;
    },
    revokeAgent: (purpose, agentId) => {
      verified.clear();
      return revokeAgent.run(now(), purpose, agentId).changes;
    },
  };
}
