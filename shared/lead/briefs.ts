// Lead-agent briefs (spec "Lead agent routes"): one per team in its own table
// (cascading with the team), one global brief in the settings table, and
// per-agent display-name overrides. A missing brief reads as null content.
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import type { SettingsTable } from '../db/settings-table.ts';
import { notFound } from '../errors.ts';
import { LEAD_KEYS } from '../setting-keys.ts';
import { TEAM_MESSAGES } from '../teams/schemas.ts';

export const DISPLAY_NAME_MAX = 80;

export const LEAD_MESSAGES = {
  teamIdRequired: 'teamId required',
  agentIdRequired: 'agentId required',
  contentRequired: 'content (string) is required',
  nameRequired: 'name (string) is required',
} as const;

export const BriefPutSchema = z.object({ content: z.string() });
export const DisplayNamePutSchema = z.object({
  name: z.string().transform((s) => s.trim().slice(0, DISPLAY_NAME_MAX)),
});

export interface Brief {
  content: string | null;
  updatedAt: number | null;
}

export interface LeadBriefs {
  teamBrief(teamId: string): Brief;
  /** Upserts; not_found when the team does not exist (the brief would have nothing to cascade with). */
  putTeamBrief(teamId: string, content: string): Brief;
  deleteTeamBrief(teamId: string): void;
  globalBrief(): Brief;
  putGlobalBrief(content: string): Brief;
  displayName(agentId: string): string | null;
  /** Stores the trimmed, clipped name; empty clears. Returns what is stored. */
  putDisplayName(agentId: string, name: string): string | null;
}

export function createLeadBriefs(db: Db, settings: SettingsTable, now: () => number = Date.now): LeadBriefs {
  const getStmt = db.prepare('SELECT content, updated_at AS updatedAt FROM lead_team_briefs WHERE team_id = ?');
  const teamExists = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const upsertStmt = db.prepare(
    `INSERT INTO lead_team_briefs (team_id, content, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (team_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
  );
  const deleteStmt = db.prepare('DELETE FROM lead_team_briefs WHERE team_id = ?');
  return {
    teamBrief: (teamId) => (getStmt.get(teamId) as Brief | undefined) ?? { content: null, updatedAt: null },
    putTeamBrief(teamId, content) {
      if (teamExists.get(teamId) !== 1) throw notFound(TEAM_MESSAGES.notFound);
      const t = now();
      upsertStmt.run(teamId, content, t);
      return { content, updatedAt: t };
    },
    deleteTeamBrief: (teamId) => void deleteStmt.run(teamId),
    // The spec: the global brief's updatedAt is always null on read.
    globalBrief: () => ({ content: settings.get(LEAD_KEYS.globalBrief), updatedAt: null }),
    putGlobalBrief: (content) => ({ content, updatedAt: settings.set(LEAD_KEYS.globalBrief, content) }),
    displayName: (agentId) => settings.get(LEAD_KEYS.displayName(agentId)),
    putDisplayName(agentId, name) {
      const clipped = name.trim().slice(0, DISPLAY_NAME_MAX);
      if (clipped === '') {
        settings.delete(LEAD_KEYS.displayName(agentId));
        return null;
      }
      settings.set(LEAD_KEYS.displayName(agentId), clipped);
      return clipped;
    },
  };
}
