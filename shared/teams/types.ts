// The Team resource (spec "Team") and the assignment view.
export interface Team {
  id: string;
  name: string;
  icon: string;
  color: string;
  colorCollectionId: string | null;
  templateId: string | null;
  leaderAgentId: string | null;
  isArchived: 0 | 1;
  createdAt: number;
  updatedAt: number;
  /** Computed: agents whose team id is this team. */
  agentCount: number;
}

export interface Assignment {
  agentId: string;
  teamId: string;
}

export interface TeamList {
  teams: Team[];
  assignments: Assignment[];
}

export const TEAM_COLUMNS_SQL = `t.id, t.name, t.icon, t.color, t.color_collection_id AS colorCollectionId,
  t.template_id AS templateId, t.leader_agent_id AS leaderAgentId, t.is_archived AS isArchived,
  t.created_at AS createdAt, t.updated_at AS updatedAt`;
