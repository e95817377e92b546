// Capability, research: a lead splits a question into three research
// subtasks; a synthesis task waits for all three (dependency edges). Each
// researcher posts a cited finding; the writer cannot start until every
// finding is in, then reads them from the board and writes a synthesis that
// cites every source. Fails if the synthesis becomes claimable while research
// is open, or if findings posted on the board do not come back intact.
import { BOARD_MESSAGES } from '../board/transitions.ts';
import type { Task } from '../board/types.ts';
import { seedTeam } from './fixtures.ts';
import { attempt, checks, defineTask, refusedAs, type Attempt } from './graders.ts';

/** The deterministic "sources" each researcher reads (no network, no model). */
const SOURCES = [
  { agent: 'researcher-1', question: 'what does WAL change for readers?', finding: 'readers do not block the writer', cite: 'src:sqlite-wal' },
  { agent: 'researcher-2', question: 'what does busy_timeout do?', finding: 'a locked write waits instead of failing at once', cite: 'src:sqlite-busy' },
  { agent: 'researcher-3', question: 'when does a checkpoint run?', finding: 'after about 1000 pages, or when asked', cite: 'src:sqlite-checkpoint' },
] as const;
const FINDING = (s: (typeof SOURCES)[number]) => `finding: ${s.finding} [${s.cite}]`;

interface Outcome {
  research: Task[];
  synthesis: Task;
  earlyClaims: Array<Attempt<Task>>;
  lateClaim: Attempt<Task>;
  synthesisText: string;
}

export const researchSynthesisTask = defineTask<Outcome>({
  id: 'research-synthesis',
  suite: 'capability',
  kind: 'research',
  proves: 'a synthesis waits for all its research subtasks and cites every finding they posted',
  scenario({ domain }) {
    const { board } = domain;
    const teamId = seedTeam(domain, ['lead', 'writer', ...SOURCES.map((s) => s.agent)]);
    const question = board.create({ title: 'recommend a journal mode for svc.db', teamId, assigneeAgentId: 'lead' });
    board.claim(question.id, 'lead');
    const research = SOURCES.map((s) => board.delegate(question.id, { fromAgentId: 'lead', toAgentId: s.agent, title: s.question }));
    const synthesis = board.create({
      title: 'write the recommendation',
      teamId,
      parentTaskId: question.id,
      assigneeAgentId: 'writer',
      createdByAgentId: 'lead',
      dependsOn: research.map((r) => r.id),
    });
    const earlyClaims = [attempt(() => board.claim(synthesis.id, 'writer'))];
    research.forEach((r, i) => {
      const source = SOURCES[i] as (typeof SOURCES)[number];
      board.claim(r.id, source.agent);
      board.comment(r.id, { authorAgentId: source.agent, body: FINDING(source) });
      board.update(r.id, { status: 'done', actorAgentId: source.agent });
      if (i === 1) earlyClaims.push(attempt(() => board.claim(synthesis.id, 'writer')));
    });
    const lateClaim = attempt(() => board.claim(synthesis.id, 'writer'));
    // The writer reads each blocker's notes from the board, not from memory.
    const gathered = board.get(synthesis.id)?.dependsOn.flatMap((id) => board.comments(id).map((c) => c.body)) ?? [];
    const synthesisText = `recommendation: WAL. ${gathered.map((b) => b.replace(/^finding: /, '')).join('; ')}`;
    board.comment(synthesis.id, { authorAgentId: 'writer', body: synthesisText });
    board.update(synthesis.id, { status: 'in_review', actorAgentId: 'writer' });
    board.update(synthesis.id, { status: 'done', actorAgentId: 'lead' });
    return { research, synthesis, earlyClaims, lateClaim, synthesisText };
  },
  graders: [
    ({ research, earlyClaims }) => {
      const [first, second] = earlyClaims;
      const blockers = (a: Attempt<Task> | undefined) => (a && !a.ok ? (a.extra.blockers as string[] | undefined)?.length : undefined);
      return checks('synthesis-waits-for-research', [
        ['refused while all research is open (409)', first !== undefined && refusedAs(first, BOARD_MESSAGES.blocked) && blockers(first) === research.length],
        ['refused while one subtask is open', second !== undefined && refusedAs(second, BOARD_MESSAGES.blocked) && blockers(second) === 1],
      ]);
    },
    ({ research }, { domain }) =>
      checks(
        'findings-preserved',
        research.map((r, i) => {
          const source = SOURCES[i] as (typeof SOURCES)[number];
          const notes = domain.board.comments(r.id);
          return [`${source.cite} intact`, notes.length === 1 && notes[0]?.body === FINDING(source) && notes[0].authorAgentId === source.agent] as const;
        }),
      ),
    ({ synthesisText }) =>
      checks(
        'synthesis-cites-all',
        SOURCES.map((s) => [`cites ${s.cite}`, synthesisText.includes(`[${s.cite}]`) && synthesisText.includes(s.finding)] as const),
      ),
    ({ research, synthesis, lateClaim }, { domain }) => {
      const started = domain.board.get(synthesis.id)?.claimedAt ?? 0;
      const lastFinding = Math.max(...research.map((r) => domain.board.get(r.id)?.completedAt ?? Infinity));
      return checks('synthesis-after-research', [
        ['claim accepted once research is done', lateClaim.ok],
        ['started after the last finding', started > lastFinding],
        ['synthesis done', domain.board.get(synthesis.id)?.status === 'done'],
      ]);
    },
  ],
});
